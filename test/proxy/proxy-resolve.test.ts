import { describe, expect, test } from 'vitest';
import { maxResolvingLinks } from '../../src/proxy/gate-result-items.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import { decisionMetaKey } from '../../src/sdk/gate-transport.ts';
import { handResolvedGate, handResolver } from './hand-resolver.ts';
import { memoryPeer, settled } from './memory-peers.ts';

type Json = Record<string, unknown>;

describe('name resolution of a tool result’s links (web-public)', () => {
  test('runs side by side, bounded, and never holds an unrelated answer', async () => {
    const resolver = handResolver();
    const gate = await handResolvedGate(resolver);
    const host = memoryPeer();
    const server = memoryPeer();
    await proxySession(host.transport, server.transport, { gate, server: 'web' }).start();
    const links = Array.from({ length: 60 }, (_, i) => ({
      type: 'resource_link',
      uri: `https://${i === 0 ? 'internal' : 'docs'}-${i}.example.com/page`,
      name: `page ${i}`,
    }));
    host.transport.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search' } });
    await server.waitFor((m) => m['id'] === 1);
    server.transport.onmessage?.({ jsonrpc: '2.0', id: 1, result: { content: links } });
    await settled();
    // the links' names are being resolved, several at once but no more than the bound
    expect(resolver.waiting).toBeGreaterThan(1);
    expect(resolver.most).toBeLessThanOrEqual(maxResolvingLinks);
    // a ping answered meanwhile reaches the host at once
    host.transport.onmessage?.({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await server.waitFor((m) => m['id'] === 2);
    server.transport.onmessage?.({ jsonrpc: '2.0', id: 2, result: {} });
    await settled();
    expect(host.received).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    while (resolver.waiting > 0) {
      resolver.answerAll();
      await settled();
    }
    const answer = await host.waitFor((m) => m['id'] === 1);
    const decisions = ((answer['result'] as Json)['content'] as Json[]).map(
      (item) => (item['_meta'] as Json)[decisionMetaKey],
    );
    expect(resolver.asked).toBe(60);
    expect(resolver.most).toBe(maxResolvingLinks);
    // the denied link is replaced by the flow's text item naming it, the full decision under `_meta`
    expect(decisions[0]).toMatchObject({ effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] });
    expect(decisions.slice(1)).toEqual(Array.from({ length: 59 }, () => ({ effect: 'allow' })));
  });
});
