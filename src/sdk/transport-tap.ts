import type {
  JsonRpcMessage as JSONRPCMessage,
  McpTransport as Transport,
  TransportSendOptions,
} from './mcp-transport.ts';
import { isJsonRpcId } from '../flow/json-rpc-shape.ts';
import { isRecord } from '../decision/json-value.ts';

/** The `_meta` key a tagged request carries so a tap can learn the JSON-RPC id the SDK gave it. */
export const requestTagKey = 'io.linkgate/request-tag';

/** What a tap has seen: ids of tagged requests and the negotiated protocol revision. */
export interface TransportTap {
  readonly transport: Transport;
  /** the JSON-RPC id of the request sent with `tag` (forgotten once taken), or null when not seen */
  takeRequestId(tag: string): string | number | null;
  /** the protocol revision the client negotiated, or null before `initialize` completed */
  protocolVersion(): string | null;
}

/** Wraps a transport to observe outgoing tagged requests and the protocol revision; passes every message unchanged. */
export function tapTransport(inner: Transport): TransportTap {
  const ids = new Map<string, string | number>();
  let version: string | null = null;
  const transport: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    async send(message: JSONRPCMessage, options?: TransportSendOptions) {
      const m = message as Record<string, unknown>;
      if (typeof m['method'] === 'string' && isRecord(m['params']) && isRecord(m['params']['_meta'])) {
        const tag = m['params']['_meta'][requestTagKey];
        const id = m['id'];
        if (typeof tag === 'string' && isJsonRpcId(id)) ids.set(tag, id);
      }
      await inner.send(message, options);
    },
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion(v: string) {
      version = v;
      inner.setProtocolVersion?.(v);
    },
  };
  // callbacks are installed on the wrapper by the client; forward the inner transport's events to them
  inner.onmessage = (message, extra) => transport.onmessage?.(message, extra);
  inner.onerror = (error) => transport.onerror?.(error);
  inner.onclose = () => transport.onclose?.();
  return {
    transport,
    takeRequestId(tag) {
      const id = ids.get(tag) ?? null;
      ids.delete(tag);
      return id;
    },
    protocolVersion: () => version,
  };
}

let tagCounter = 0;

/** `params` with a fresh tag under `_meta`, and the tag (for `takeRequestId`). */
export function tagParams(params: Readonly<Record<string, unknown>>): { params: Record<string, unknown>; tag: string } {
  const tag = `t${++tagCounter}-${Math.random().toString(36).slice(2, 10)}`;
  const meta = isRecord(params['_meta']) ? params['_meta'] : {};
  return { params: { ...params, _meta: { ...meta, [requestTagKey]: tag } }, tag };
}
