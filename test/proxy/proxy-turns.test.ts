// A read whose link the gate decides at once needs nothing asynchronous before it goes on (issue 42, the proxy's fixed
// cost per read): the proxy takes it, decides its link and sends it to the server as it arrives, in that turn; and an
// answer goes to a line host in the turn it is passed on, a failed write failing its request once.
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { lineTransport } from '../../src/proxy/line-transport.ts';
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

describe('linkgate proxy: an answer the host cannot take', () => {
  test('fails its request once: the error answer that cannot be written either is not answered again', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const [hostIn, hostOut] = [new PassThrough(), new PassThrough()];
    const host = lineTransport({ input: hostIn, output: hostOut, maxLineBytes: 1 << 20, onUnreadable() {} });
    // every write the proxy tries, whichever way it writes; past 50 the output takes them, so a loop ends
    const tried: unknown[] = [];
    const counted =
      <A extends unknown[], R>(write: (...args: A) => R) =>
      (...args: A): R | undefined => {
        tried.push(args[0]);
        return tried.length > 50 ? undefined : write(...args);
      };
    host.send = counted(host.send.bind(host)) as typeof host.send;
    host.sendNow = counted(host.sendNow.bind(host));
    const server = memoryPeer();
    let warned: (line: string) => void = () => {};
    const warning = new Promise<string>((resolve) => {
      warned = resolve;
    });
    await proxySession(host, server.transport, { gate, server: 'turns', warn: (line) => warned(line) }).start();
    hostIn.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    await server.waitFor((m) => m['id'] === 1);
    hostOut.destroy();
    server.deliver({ jsonrpc: '2.0', id: 1, result: {} });
    expect(await warning).toContain('cannot write to the host');
    // the answer, then its error answer: nothing more
    expect(tried).toHaveLength(2);
    expect(JSON.stringify(tried[1])).toContain('could not be passed on');
  });
});
