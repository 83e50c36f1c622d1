import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Gate } from '../gate/create-gate.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { isRecord } from '../json-value.ts';
import { gateErrorCode, gateTransport, judgedServerRequests } from '../sdk/gate-transport.ts';
import { itemJudge } from './gate-result-items.ts';
import { originalText, rememberFrame } from './original-bytes.ts';
import type { MessageId } from './peek-id.ts';

/** Methods whose requests or results the proxy gates; everything else passes as it came. */
export const gatedMethods: ReadonlySet<string> = new Set(['resources/read', 'tools/call', 'prompts/get']);

/** JSON-RPC code for a request the proxy refused as malformed (bad id, id already in flight). */
export const invalidRequestCode = -32600;

/** Options of one proxy session. */
export interface ProxySessionOptions {
  gate: Gate;
  /** the host's id for the proxied server (a local label), default `default` */
  server?: string;
  /** `observe` forwards everything and records `wouldDeny`; default `enforce` */
  mode?: 'enforce' | 'observe';
  sink?: RecordSink;
  /** one-line notes for the proxy's stderr (a dropped stray answer, say) */
  warn?: (message: string) => void;
}

/** A running session: `closed` settles once both sides are done and every record is written. */
export interface ProxySession {
  /** starts both transports (the server side first) */
  start(): Promise<void>;
  readonly closed: Promise<void>;
  /** fails a request the host is waiting for, as if the server had answered with this error (used for broken lines) */
  failUpstream(id: MessageId, message: string): boolean;
  /** fails a host message that could not be read (over the cap, not JSON) */
  refuseHost(id: MessageId | null, code: number, message: string): void;
}

type Msg = Record<string, unknown>;

const validId = (id: unknown): id is MessageId =>
  typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
const isResponse = (m: unknown): m is Msg =>
  isRecord(m) && m['method'] === undefined && (m['result'] !== undefined || m['error'] !== undefined);

/**
 * Joins the host (an MCP client on the proxy's stdio) to the real server through the transport decorator, so reads
 * are gated by the one flow: every other message passes unchanged and in order, answers reach the host only for
 * requests it is waiting on, and tool and prompt results get their items judged (enforce mode).
 */
export function proxySession(host: Transport, upstream: Transport, options: ProxySessionOptions): ProxySession {
  const { gate } = options;
  const server = options.server ?? 'default';
  const enforced = (options.mode ?? 'enforce') === 'enforce';
  const warn = options.warn ?? (() => {});
  // embedded resources are judged here, not in the decorator, so the judged items are spliced into the original bytes
  const items = itemJudge(gate, server, async (record) => {
    await options.sink?.writeEmbedded?.(record)?.catch((error: unknown) => warn(text(error)));
  });
  // requests the host sent and still waits on, with their method: an answer for any other id is dropped
  const pending = new Map<MessageId, string>();
  let fromHostChain: Promise<void> = Promise.resolve();
  let toHostChain: Promise<void> = Promise.resolve();
  let hostOpen = true;
  let upstreamOpen = true;
  let settle: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    settle = resolve;
  });

  // a server batch holding answers is taken apart, so each answer meets the gate on its own
  const unbatched: Transport = {
    start: () => upstream.start(),
    close: () => upstream.close(),
    send: (message, sendOptions) => upstream.send(message, sendOptions),
    get sessionId() {
      return upstream.sessionId;
    },
    setProtocolVersion: (version) => upstream.setProtocolVersion?.(version),
  };
  upstream.onmessage = (message, extra) => {
    if (Array.isArray(message) && message.some(isResponse))
      for (const element of message) unbatched.onmessage?.(element as JSONRPCMessage, extra);
    else unbatched.onmessage?.(message, extra);
  };
  upstream.onerror = (error) => unbatched.onerror?.(error);
  upstream.onclose = () => unbatched.onclose?.();
  const gated = gateTransport(unbatched, {
    gate,
    server,
    mode: options.mode ?? 'enforce',
    judgeEmbedded: false,
    ...optionalSink(options),
  });

  const toHost = (message: unknown) => {
    if (!hostOpen) return;
    host.send(message as JSONRPCMessage).catch((error: unknown) => warn(`cannot write to the host: ${text(error)}`));
  };
  const answerError = (id: MessageId | null, code: number, message: string) =>
    toHost({ jsonrpc: '2.0', id, error: { code, message } });

  async function fromHost(message: unknown): Promise<void> {
    if (Array.isArray(message)) {
      // a batch passes whole unless it holds a gated request; then each element goes through the gate alone
      if (!message.some((m) => isRecord(m) && gatedMethods.has(String(m['method'])))) {
        for (const m of message)
          if (isRecord(m) && typeof m['method'] === 'string' && validId(m['id'])) pending.set(m['id'], m['method']);
        return sendUp(message, null);
      }
      for (const element of message) await fromHost(element);
      return;
    }
    const m = message as Msg;
    const method = m['method'];
    if (typeof method === 'string' && Object.hasOwn(m, 'id')) {
      const id = m['id'];
      if (!validId(id)) {
        // an answer could not be matched to the host, and a read with such an id would slip past the decorator
        if (gatedMethods.has(method))
          return answerError(null, invalidRequestCode, `linkgate: \`${method}\` needs a string or number id`);
        return sendUp(m, null);
      }
      if (pending.has(id))
        return answerError(
          id,
          invalidRequestCode,
          `linkgate: id \`${String(id)}\` is already in use by a request in flight`,
        );
      pending.set(id, method);
      return sendUp(m, id);
    }
    return sendUp(m, null);
  }

  async function sendUp(message: unknown, id: MessageId | null): Promise<void> {
    try {
      await gated.send(message as JSONRPCMessage);
    } catch (error) {
      if (id === null || !pending.delete(id)) return warn(`cannot forward a message to the server: ${text(error)}`);
      answerError(id, gateErrorCode, `linkgate: the request could not be sent to the server: ${text(error)}`);
    }
  }

  async function fromServer(message: unknown): Promise<void> {
    if (!isResponse(message)) {
      const request = isRecord(message) ? message : {};
      const params = request['params'];
      if (enforced && judgedServerRequests.has(String(request['method'])) && isRecord(params)) {
        const judged = await items.judgeRequest(params);
        if (judged !== null) return toHost({ ...request, params: judged });
      }
      return toHost(message);
    }
    const id = message['id'];
    const method = validId(id) ? pending.get(id) : undefined;
    if (method === undefined || !validId(id)) {
      warn(`dropped an answer for id \`${String(id)}\` that no request is waiting on`);
      return;
    }
    pending.delete(id);
    const result = message['result'];
    if (method === 'initialize' && isRecord(result) && typeof result['protocolVersion'] === 'string')
      gated.setProtocolVersion?.(result['protocolVersion']);
    if (enforced && (method === 'tools/call' || method === 'prompts/get') && isRecord(result)) {
      const judged = await items.judge(method, result, originalText(message));
      if (judged !== null) {
        const changed = { ...message, result: judged.result };
        if (judged.frame !== null) rememberFrame(changed, judged.frame);
        return toHost(changed);
      }
    }
    toHost(message);
  }

  const finish = async () => {
    // answers the decorator still holds go out first; links never read are recorded as such
    await gated.flush().catch((error: unknown) => warn(text(error)));
    await toHostChain;
    for (const id of pending.keys()) answerError(id, gateErrorCode, 'linkgate: the server closed before answering');
    pending.clear();
    hostOpen = false;
    await host.close().catch(() => {});
    settle();
  };

  host.onmessage = (message) => {
    fromHostChain = fromHostChain.then(() => fromHost(message)).catch((error: unknown) => warn(text(error)));
  };
  gated.onmessage = (message) => {
    toHostChain = toHostChain.then(() => fromServer(message)).catch((error: unknown) => warn(text(error)));
  };
  gated.onerror = (error) => warn(text(error));
  host.onerror = (error) => warn(text(error));
  gated.onclose = () => {
    if (!upstreamOpen) return;
    upstreamOpen = false;
    void finish();
  };
  host.onclose = () => {
    // the host is gone: let the server finish what it has, record unread links, then stop it
    void fromHostChain.then(async () => {
      if (upstreamOpen) await gated.close().catch((error: unknown) => warn(text(error)));
    });
  };

  return {
    async start() {
      await gated.start();
      await host.start();
    },
    closed,
    failUpstream(id, message) {
      if (!pending.has(id)) return false;
      unbatched.onmessage?.({ jsonrpc: '2.0', id, error: { code: gateErrorCode, message } });
      return true;
    },
    refuseHost: answerError,
  };
}

function optionalSink(options: ProxySessionOptions): { sink?: RecordSink } {
  return options.sink === undefined ? {} : { sink: options.sink };
}

function text(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
