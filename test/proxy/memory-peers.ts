import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Json = Record<string, unknown>;

/** One side of an in-memory proxy session: what the proxy sent to it, and a way to send the proxy a message. */
export interface MemoryPeer {
  readonly transport: Transport;
  /** every message the proxy sent to this peer, in order */
  readonly received: unknown[];
  /** delivers `message` to the proxy as if this peer had sent it */
  deliver(message: unknown): void;
  /** the first message (already received or still to come) that matches */
  waitFor(match: (m: Json) => boolean): Promise<Json>;
  /** ends this side, as a peer that hangs up */
  hangUp(): void;
}

/** A Transport in memory, so a test decides exactly when each message reaches the proxy (races made deterministic). */
export function memoryPeer(): MemoryPeer {
  const received: unknown[] = [];
  const waiters: Array<{ match: (m: Json) => boolean; resolve: (m: Json) => void }> = [];
  const transport: Transport = {
    async start() {},
    async send(message: JSONRPCMessage) {
      received.push(message);
      for (const w of [...waiters])
        if (w.match(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
    },
    async close() {
      transport.onclose?.();
    },
  };
  return {
    transport,
    received,
    deliver: (message) => transport.onmessage?.(message as JSONRPCMessage),
    waitFor(match) {
      const seen = received.find((m) => match(m as Json));
      if (seen !== undefined) return Promise.resolve(seen as Json);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    hangUp: () => transport.onclose?.(),
  };
}

/** Lets every pending promise callback and timer-free continuation run. */
export async function settled(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
