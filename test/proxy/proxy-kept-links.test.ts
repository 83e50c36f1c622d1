// A tool result whose links the decorator decided and none refused is judged in one pass over its `content`
// (`keptLinksOnly` in gate-result-items.ts): the answer the host gets is the one the full item judge makes, for every
// shape of such a result; anything else (a refused link, an embedded resource, a JSON text, structuredContent) takes
// the full judge.
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { itemJudge } from '../../src/proxy/gate-result-items.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import { memoryPeer } from './memory-peers.ts';
import { shippedPolicy } from './proxy-helpers.ts';

type Json = Record<string, unknown>;

const link = (uri: string, extra: Json = {}) => ({ type: 'resource_link', uri, name: uri, ...extra });

// results the one pass takes, and results it leaves to the full judge: the host gets the same answer for each
const results: Record<string, unknown[]> = {
  'allowed links between prose': [
    { type: 'text', text: 'found' },
    link('guide://manuals/a', { mimeType: 'text/plain' }),
    { type: 'text', text: 'and' },
    link('guide://manuals/b', { size: 12 }),
  ],
  'a link with a _meta of its own': [link('guide://manuals/a', { _meta: { k: 1, 'io.linkgate/decision': 'forged' } })],
  'a link whose _meta is not an object': [link('guide://manuals/a', { _meta: 'x' })],
  'items that are not objects, or of no known type': [
    null,
    3,
    'text',
    { type: 'image', data: 'AAAA' },
    link('guide://a'),
  ],
  'a resource item without a resource object': [{ type: 'resource', resource: 'x' }, link('guide://manuals/a')],
  'prose only': [{ type: 'text', text: 'nothing to judge' }],
  'a refused link (the full judge)': [link('guide://manuals/a'), link('file:///etc/passwd')],
  'a JSON text (the full judge)': [link('guide://manuals/a'), { type: 'text', text: '{"uri":"file:///etc/passwd"}' }],
  'an embedded resource (the full judge)': [
    link('guide://manuals/a'),
    { type: 'resource', resource: { uri: 'test://s.sh', mimeType: 'text/plain', text: '#!/bin/sh\nid\n' } },
  ],
};

describe('a tool result whose links are all kept', () => {
  test.each(Object.entries(results))('%s: the host gets what the full item judge makes', async (_, content) => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const host = memoryPeer();
    const server = memoryPeer();
    const session = proxySession(host.transport, server.transport, { gate, server: 'docs' });
    await session.start();
    host.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: {} } });
    await server.waitFor((m) => m['id'] === 1);
    const answer = { jsonrpc: '2.0', id: 1, result: { content } };
    server.deliver(answer);
    const got = await host.waitFor((m) => m['id'] === 1);
    // the full judge, deciding every link itself (no decorator steps handed to it)
    const full = await itemJudge(gate, 'docs').judge('tools/call', structuredClone(answer));
    expect(got).toEqual(full ?? answer);
    server.hangUp();
    await session.closed;
  });

  test('with structuredContent beside the links, the full judge runs (its refused uri is replaced)', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const host = memoryPeer();
    const server = memoryPeer();
    const session = proxySession(host.transport, server.transport, { gate, server: 'docs' });
    await session.start();
    host.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: {} } });
    await server.waitFor((m) => m['id'] === 1);
    server.deliver({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [link('guide://manuals/a')], structuredContent: { links: [link('file:///etc/passwd')] } },
    });
    const got = await host.waitFor((m) => m['id'] === 1);
    expect(JSON.stringify(got)).not.toContain('file:///etc/passwd');
    server.hangUp();
    await session.closed;
  });
});
