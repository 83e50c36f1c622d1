// A read whose link the gate decides at once needs nothing asynchronous before it goes on (issue 42, the proxy's fixed
// cost per read): the proxy takes it, decides its link and sends it to the server as it arrives, in that turn.
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import { memoryPeer } from './memory-peers.ts';
import { shippedPolicy } from './proxy-helpers.ts';

type Json = Record<string, unknown>;

describe('linkgate proxy: a read decided at once', () => {
  test('goes to the server as it arrives, and its answer reaches the host as judged', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const host = memoryPeer();
    const server = memoryPeer();
    await proxySession(host.transport, server.transport, { gate, server: 'turns' }).start();
    const uri = 'docs://project/readme.md';
    host.deliver({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } });
    // no turn of the event loop, no promise callback in between
    expect(server.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }]);
    server.deliver({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri, mimeType: 'text/plain', text: 'hello\n' }] } });
    const answer = await host.waitFor((m) => m['id'] === 1);
    expect((answer['result'] as { contents: Json[] }).contents[0]?.['text']).toBe('hello\n');
  });

  test('a second read behind one still being taken waits its turn, and both are sent in order', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const host = memoryPeer();
    const server = memoryPeer();
    await proxySession(host.transport, server.transport, { gate, server: 'turns' }).start();
    const read = (id: number, uri: string) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } });
    // the first is refused (answered by the proxy, never sent); the second is allowed
    host.deliver(read(1, 'http://169.254.169.254/latest/meta-data/'));
    host.deliver(read(2, 'docs://project/readme.md'));
    await server.waitFor((m) => m['id'] === 2);
    expect(server.received.map((m) => (m as Json)['id'])).toEqual([2]);
    const refused = await host.waitFor((m) => m['id'] === 1);
    expect(refused['error'] ?? (refused['result'] as Json | undefined)).toBeDefined();
  });
});
