// The proxy keeps the order of messages in each direction (issue 32, item 4): a message it judges (a sampling or
// elicitation request, a tool result, a read's answer) holds back the requests and notifications the server wrote
// after it, so a `notifications/cancelled` never overtakes the request it cancels.
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { maxHeldServerMessages, proxySession } from '../../src/proxy/proxy-session.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { orderLink } from '../fixtures/servers/order-server.ts';
import { handResolvedGate, handResolver } from './hand-resolver.ts';
import { memoryPeer, settled } from './memory-peers.ts';
import { shippedPolicy } from './proxy-helpers.ts';
import { initialize, startRawHost } from './raw-host.ts';

type Json = Record<string, unknown>;

// a message as the test names it: its method, or `answer <id>`
const named = (m: Json) => (typeof m['method'] === 'string' ? m['method'] : `answer ${String(m['id'])}`);

describe('linkgate proxy: message order', () => {
  test('judged requests, answers and notifications reach the host in the order the server wrote them', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const [command, ...args] = tsServer('test/fixtures/servers/order-server.ts');
    const host = startRawHost(gate, { kind: 'command', command: command as string, args });
    try {
      await initialize(host);
      const from = host.lines.length;
      const result = await host.request('tools/call', { name: 'interleave', arguments: {} });
      await host.waitFor((m) => m['method'] === 'notifications/message');
      const read = await host.request('resources/read', { uri: orderLink });
      await host.waitFor((m) => m['method'] === 'notifications/resources/updated');
      const seen = host.lines.slice(from).map((line) => JSON.parse(line) as Json);
      expect(seen.map(named)).toEqual([
        'sampling/createMessage',
        'notifications/cancelled',
        'elicitation/create',
        'notifications/progress',
        `answer ${String(result['id'])}`,
        'notifications/message',
        `answer ${String(read['id'])}`,
        'notifications/resources/updated',
      ]);
      // the held ones went out as judged: the embedded script withheld in the sampling request and the tool result
      expect(JSON.stringify(seen[0])).toContain('linkgate withheld the embedded resource');
      expect(JSON.stringify(result)).toContain('linkgate withheld the embedded resource');
      expect((read['result'] as { contents: Json[] }).contents[0]?.['text']).toBe('read me\n');
    } finally {
      host.end();
      await host.exit;
    }
  }, 60_000);

  test('answers the gate never passes on hold nothing back: an early, a second and a stray answer', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const host = memoryPeer();
    const server = memoryPeer();
    await proxySession(host.transport, server.transport, { gate, server: 'order' }).start();
    const link = { type: 'resource_link', uri: orderLink, name: 'readme' };
    host.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'links' } });
    await server.waitFor((m) => m['id'] === 1);
    server.deliver({ jsonrpc: '2.0', id: 1, result: { content: [link] } });
    await host.waitFor((m) => m['id'] === 1);
    // an answer that comes before the host's read was taken: dropped, nothing waits for it (a read whose link is
    // decided at once is taken, and sent, as it arrives)
    server.deliver({ jsonrpc: '2.0', id: 2, result: { contents: [{ uri: orderLink, text: 'early' }] } });
    host.deliver({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: orderLink } });
    server.deliver({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'one' } });
    await server.waitFor((m) => m['id'] === 2);
    const contents = [{ uri: orderLink, mimeType: 'text/plain', text: 'real' }];
    server.deliver({ jsonrpc: '2.0', id: 2, result: { contents } });
    // while that answer is judged, a second one and one nobody asked for: dropped, and the notification behind them
    // goes out once the judged answer did
    server.deliver({ jsonrpc: '2.0', id: 2, result: { contents } });
    server.deliver({ jsonrpc: '2.0', id: 99, result: {} });
    server.deliver({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'two' } });
    await host.waitFor((m) => (m['params'] as Json | undefined)?.['data'] === 'two');
    const seen = host.received.slice(1) as Json[];
    expect(seen.map(named)).toEqual(['notifications/message', 'answer 2', 'notifications/message']);
    expect(JSON.stringify(seen[1])).toContain('"text":"real"');
  });

  test('past the bound of held messages the proxy stops reading the server, and reads again once they went out', async () => {
    const resolver = handResolver();
    const gate = await handResolvedGate(resolver);
    const host = memoryPeer();
    const server = memoryPeer();
    const pauses: string[] = [];
    Object.assign(server.transport, {
      backedUp: false,
      whenDrained: (then: () => void) => then(),
      pauseInput: () => pauses.push('pause'),
      resumeInput: () => pauses.push('resume'),
    });
    await proxySession(host.transport, server.transport, { gate, server: 'web' }).start();
    host.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search' } });
    await server.waitFor((m) => m['id'] === 1);
    const link = { type: 'resource_link', uri: 'https://docs.example.com/page', name: 'page' };
    // the tool result waits on name resolution: every notification behind it is held, and past the bound, the proxy
    // stops reading the server
    server.deliver({ jsonrpc: '2.0', id: 1, result: { content: [link] } });
    for (let i = 1; i < maxHeldServerMessages; i += 1) {
      server.deliver({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: i } });
      expect(pauses).toEqual([]);
    }
    server.deliver({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'last' } });
    expect(pauses).toEqual(['pause']);
    expect(host.received).toEqual([]);
    await settled();
    expect(resolver.waiting).toBe(1);
    while (resolver.waiting > 0) {
      resolver.answerAll();
      await settled();
    }
    await host.waitFor((m) => (m['params'] as Json | undefined)?.['data'] === 'last');
    expect(pauses).toEqual(['pause', 'resume']);
    expect((host.received as Json[]).map(named)).toEqual([
      'answer 1',
      ...Array.from({ length: maxHeldServerMessages - 1 }, () => 'notifications/progress'),
      'notifications/message',
    ]);
  });

  test('a server request the gate answers itself holds nothing back: a refused url elicitation is declined upstream', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const host = memoryPeer();
    const server = memoryPeer();
    const warnings: string[] = [];
    await proxySession(host.transport, server.transport, {
      gate,
      server: 'order',
      warn: (m) => warnings.push(m),
    }).start();
    // held while its url is judged, then declined to the server: the host never sees it, and what the server wrote
    // after it goes out
    const url = 'http://169.254.169.254/latest/meta-data/';
    server.deliver({
      jsonrpc: '2.0',
      id: 'e1',
      method: 'elicitation/create',
      params: { mode: 'url', url, message: 'open' },
    });
    server.deliver({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'after' } });
    const declined = await server.waitFor((m) => m['id'] === 'e1');
    expect(declined['result']).toEqual({ action: 'decline' });
    await host.waitFor((m) => (m['params'] as Json | undefined)?.['data'] === 'after');
    expect((host.received as Json[]).map(named)).toEqual(['notifications/message']);
    // a second request with the same id, allowed this time, reaches the host in its place
    server.deliver({
      jsonrpc: '2.0',
      id: 'e1',
      method: 'elicitation/create',
      params: { mode: 'url', url: 'https://docs.example.com/form', message: 'open' },
    });
    server.deliver({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'last' } });
    await host.waitFor((m) => (m['params'] as Json | undefined)?.['data'] === 'last');
    expect((host.received as Json[]).map(named)).toEqual([
      'notifications/message',
      'elicitation/create',
      'notifications/message',
    ]);
  });
});
