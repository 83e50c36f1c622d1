// A step of the decorator's read path after the judgement that throws (here a read cache whose `store` throws) fails
// the read with the gate's -32080 answer, reported through `onerror` too: the host is never left waiting (issue 39
// item 5, a catch on a decision path ends in deny with a reason). Raw JSON-RPC through `gateTransport` over an
// in-process scripted server. Fails on main: the error reached `onerror` and the read was never answered.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ReadCache } from '../../src/flow/read-cache.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { gateErrorCode, gateTransport } from '../../src/sdk/gate-transport.ts';
import { memorySink } from '../../src/testing/index.ts';
import { repoRoot } from './fake-gate.ts';

const target = 'guide://docs/target';
type Json = Record<string, unknown>;

function scriptedServer(): Transport {
  const t: Transport = {
    start: async () => {},
    close: async () => t.onclose?.(),
    send: async (message) => {
      const m = message as Json;
      if (m['id'] === undefined) return;
      const result = { contents: [{ uri: target, mimeType: 'text/plain', text: 'hello' }] };
      queueMicrotask(() => t.onmessage?.({ jsonrpc: '2.0', id: m['id'], result } as JSONRPCMessage));
    },
  };
  return t;
}

describe('a read whose hand-on step throws', () => {
  test('is answered with the gate error, and the fault reported', async () => {
    const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
    const cache = {
      lookup: () => undefined,
      store: () => {
        throw new Error('cache store broke');
      },
    } as unknown as ReadCache;
    const transport = gateTransport(scriptedServer(), { gate, server: 'a', sink: memorySink(), cache });
    const answers: Json[] = [];
    transport.onmessage = (message) => answers.push(message);
    const reported = new Promise<Error>((resolve) => (transport.onerror = resolve));
    await transport.start();
    await transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { uri: target },
    });
    expect((await reported).message).toContain('cache store broke');
    // the answer goes out before the fault is reported
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ id: 1, error: { code: gateErrorCode } });
    expect(JSON.stringify(answers[0])).toContain('could not be passed on as judged');
    expect(JSON.stringify(answers[0])).not.toContain('hello');
    await transport.close();
  });
});
