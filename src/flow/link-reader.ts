import { isRecord, jsonText } from '../decision/json-value.ts';
import { isJsonRpcId } from './json-rpc-shape.ts';

/** A read's answer as it came over the wire: the raw result, or the JSON-RPC error. */
export type ReadAnswer =
  | { result: Record<string, unknown>; requestId?: string | number | null }
  | {
      error: ReadError;
      requestId?: string | number | null;
      /**
       * set by a reader whose own transport dropped the answer for passing the connection's byte cap (bytes that
       * arrived, at least, and the cap): the read ends `content.too-large`; never taken from a server's words
       */
      tooLarge?: { bytes: number; capBytes: number };
    };

/** A read's JSON-RPC error: code and message, and `data.uri` when the server named the resource it has not got. */
export interface ReadError {
  code: number;
  message: string;
  /** kept only as the not-found marker of MCP 2026-07-28 (`-32602` with the uri): no other server data is carried */
  data?: { uri: string };
}

/**
 * The flow's reader: sends one `resources/read` (params `uri`, and `inputResponses`/`requestState` when answering
 * input) to the server that returned the link and resolves with its answer; must reject promptly once `signal`
 * aborts. A client, a transport, a proxy's upstream or a test double all fit; a front end that only sees the
 * answer afterwards (a hook) hands it to `judgeReadAnswer` instead. Direct fetch has its own reader, `DirectFetcher`.
 */
export type LinkReader = (params: ReadParams, signal: AbortSignal) => Promise<ReadAnswer>;

/** The params of one `resources/read` the flow sends (a type alias, so a reader may treat them as a plain record). */
export type ReadParams = {
  uri: string;
  /** the host's answers to the server's `inputRequests`, as the host gave them */
  inputResponses?: Record<string, unknown>;
  /** opaque server state, echoed back as received */
  requestState?: string;
};

/** Answers a server's `inputRequests` (used only when the policy sets `read.answerInputRequired`). */
export type InputAnswerer = (inputRequests: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** The answer in a raw JSON-RPC response (as a transport or proxy sees it); a result that is not an object reads as `{}`. */
export function answerOf(message: Readonly<Record<string, unknown>>): ReadAnswer {
  const id = message['id'];
  const requestId = isJsonRpcId(id) ? id : null;
  const error = message['error'];
  if (isRecord(error)) {
    const data = error['data'];
    const uri = isRecord(data) && typeof data['uri'] === 'string' ? data['uri'] : undefined;
    const code = Number(error['code']);
    const message = jsonText(error['message']);
    return { error: uri === undefined ? { code, message } : { code, message, data: { uri } }, requestId };
  }
  return { result: isRecord(message['result']) ? message['result'] : {}, requestId };
}
