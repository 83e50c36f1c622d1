// An in-process MCP server for tests of `gateTransport`: a Transport whose answers a test scripts by method, and
// which can send the host its own messages (requests, notifications, batches). What the gate sent it is kept, so a
// test waits for the server's side too (the answer to a request it made).
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Json = Record<string, unknown>;

/** The `initialize` result a scripted server answers with. */
export const scriptedInitialize = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: {}, resources: {} },
  serverInfo: { name: 'scripted', version: '1' },
};

/** A scripted server's transport, as a Transport, with what it was sent and a way to send the host messages. */
export interface ScriptedServer extends Transport {
  /** every message the gate sent the server, in order */
  readonly received: Json[];
  /** sends the host `message` (a message or a batch) as the server, at once */
  push(message: Json | Json[]): void;
  /** the server's side of the answer to its own request `id`, once the gate sent one */
  answerTo(id: string | number): Promise<Json>;
}

/**
 * A scripted server: each request the host sends is answered, on a later microtask, with `results[method]` (a result,
 * or a function of the request's params making one; `initialize` by default with `scriptedInitialize`), sent as
 * `around` makes it; a request with no script gets a method-not-found error. Notifications and answers are only kept.
 */
export function scriptedServer(
  results: Record<string, unknown> = {},
  /** what the server sends for `answer`, the answer to `request` (default: the answer alone); a batch goes as one */
  around: (answer: Json, request: Json) => Json | Json[] = (answer) => answer,
): ScriptedServer {
  const received: Json[] = [];
  const waiting = new Map<unknown, (m: Json) => void>();
  const script: Record<string, unknown> = { initialize: scriptedInitialize, ...results };
  const t: ScriptedServer = {
    received,
    start: async () => {},
    close: async () => t.onclose?.(),
    push: (message) => t.onmessage?.(message as unknown as JSONRPCMessage),
    answerTo: (id) => {
      const done = received.find((m) => m['id'] === id && !('method' in m));
      return done !== undefined ? Promise.resolve(done) : new Promise((resolve) => waiting.set(id, resolve));
    },
    send: async (message) => {
      const m = message as Json;
      received.push(m);
      if (!('method' in m)) {
        waiting.get(m['id'])?.(m);
        return;
      }
      if (m['id'] === undefined) return;
      const method = String(m['method']);
      const made = script[method];
      const answer: Json =
        made === undefined
          ? { jsonrpc: '2.0', id: m['id'], error: { code: -32601, message: `no script for ${method}` } }
          : {
              jsonrpc: '2.0',
              id: m['id'],
              result: typeof made === 'function' ? (made as (p: unknown) => unknown)(m['params']) : made,
            };
      const sent = around(answer, m);
      queueMicrotask(() => t.onmessage?.(sent as unknown as JSONRPCMessage));
    },
  };
  return t;
}
