// One discovery and one link decision per link per tool result (issue 42 item 4): the decorator decides each link of
// a tool result once, keeps the step in its ledger, writes the discovery record from it, hands it to the proxy for
// the item edits, and a later read and the close use that same step. A counting gate shows every decision made.
import { describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import type { DiscoveredRecord } from '../../src/record/discovered-record.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { RecordSink } from '../../src/record/record-sink.ts';
import { memoryPeer } from './memory-peers.ts';
import { shippedPolicy } from './proxy-helpers.ts';

type Json = Record<string, unknown>;

// every link decision the gate is asked for, by uri, whichever method asked
function countingGate(gate: Gate): { gate: Gate; byUri: Map<string, number>; total: () => number } {
  const byUri = new Map<string, number>();
  const count = (input: unknown) => {
    const link = (input as { stage?: string; link?: { uri?: unknown } } | null)?.link;
    if ((input as { stage?: string }).stage !== 'link' || typeof link?.uri !== 'string') return;
    byUri.set(link.uri, (byUri.get(link.uri) ?? 0) + 1);
  };
  const counted: Gate = {
    policy: gate.policy,
    decideLink: (input) => {
      count(input);
      return gate.decideLink(input);
    },
    decideCredential: (input) => gate.decideCredential(input),
    decideRead: (input) => gate.decideRead(input),
    decideReadDetailed: (input) => gate.decideReadDetailed(input),
    decideEmbedded: (resource) => gate.decideEmbedded(resource),
    decide: (line) => {
      count(line);
      return gate.decide(line);
    },
  };
  return { gate: counted, byUri, total: () => [...byUri.values()].reduce((a, b) => a + b, 0) };
}

function recordingSink() {
  const records: LinkRecord[] = [];
  const discovered: DiscoveredRecord[] = [];
  const sink: RecordSink = {
    write: async (record) => {
      records.push(record);
    },
    writeDiscovered: async (list) => {
      discovered.push(...list);
    },
    close: async () => {},
  };
  return { sink, records, discovered };
}

// 500 links the default policy allows, and one it refuses (a `file:` uri)
const links = [
  ...Array.from({ length: 500 }, (_, i) => ({
    type: 'resource_link',
    uri: `guide://manuals/page-${i}`,
    name: `page ${i}`,
    mimeType: 'text/plain',
  })),
  { type: 'resource_link', uri: 'file:///etc/passwd', name: 'pw' },
];

describe('link decisions of the proxy', () => {
  test('one decision per link of a tool result: discovery record, item edits, a later read and the close share it', async () => {
    const counter = countingGate(createGate(await loadPolicy(shippedPolicy('default'))));
    const { sink, records, discovered } = recordingSink();
    const host = memoryPeer();
    const server = memoryPeer();
    const session = proxySession(host.transport, server.transport, { gate: counter.gate, server: 'docs', sink });
    await session.start();

    host.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: {} } });
    await server.waitFor((m) => m['id'] === 1);
    server.deliver({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'found' }, ...links] } });
    const answer = await host.waitFor((m) => m['id'] === 1);
    const items = (answer['result'] as { content: Json[] }).content;
    // the result as judged: allowed links keep their place with the compact decision, the refused one is a notice
    expect(items.filter((i) => i['type'] === 'resource_link')).toHaveLength(500);
    expect(items.at(-1)?.['type']).toBe('text');
    expect(String(items.at(-1)?.['text'])).toContain('uri.scheme-not-allowed');
    // every link was recorded as discovered before the result went out, each decided exactly once
    expect(discovered).toHaveLength(501);
    expect(counter.byUri.size).toBe(501);
    expect([...counter.byUri.values()].every((n) => n === 1)).toBe(true);
    expect(counter.total()).toBe(501);

    // a read of one of them takes the decision it already has
    const uri = 'guide://manuals/page-7';
    host.deliver({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri } });
    await server.waitFor((m) => m['id'] === 2);
    server.deliver({ jsonrpc: '2.0', id: 2, result: { contents: [{ uri, mimeType: 'text/plain', text: 'hello' }] } });
    expect(await host.waitFor((m) => m['id'] === 2)).toHaveProperty('result.contents');
    // the refused link read by its uri is refused with its one decision, never sent to the server
    host.deliver({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///etc/passwd' } });
    expect(await host.waitFor((m) => m['id'] === 3)).toHaveProperty('error.code', -32080);
    expect(server.received.some((m) => (m as Json)['id'] === 3)).toBe(false);
    expect(counter.total()).toBe(501);

    // a second call of the tool is another tool result: each of its links is decided once more
    host.deliver({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search', arguments: {} } });
    await server.waitFor((m) => m['id'] === 4);
    server.deliver({ jsonrpc: '2.0', id: 4, result: { content: links } });
    await host.waitFor((m) => m['id'] === 4);
    expect(discovered).toHaveLength(1002);
    expect(counter.total()).toBe(1002);
    expect([...counter.byUri.values()].every((n) => n === 2)).toBe(true);

    // the close records every unread link from the decisions it has
    server.hangUp();
    await session.closed;
    expect(counter.total()).toBe(1002);
    const read = records.filter((r) => r.stages.requested !== null);
    expect(read.map((r) => [r.uri, r.verdict])).toEqual([[uri, 'body-obtained']]);
    // the two reads, then each listing no one read (one record per listing, DESIGN §4c): the 499 of the first
    // result, the 501 of the second
    expect(records).toHaveLength(1002);
    // (the refused read is `link-only` too)
    expect(records.filter((r) => r.verdict === 'link-only')).toHaveLength(1001);
  });
  test('one decision per link of a tool result across content, structuredContent and JSON text items', async () => {
    const counter = countingGate(createGate(await loadPolicy(shippedPolicy('default'))));
    const { sink, discovered } = recordingSink();
    const host = memoryPeer();
    const server = memoryPeer();
    const session = proxySession(host.transport, server.transport, { gate: counter.gate, server: 'docs', sink });
    await session.start();

    const allowed = { type: 'resource_link', uri: 'guide://manuals/intro', name: 'intro', mimeType: 'text/plain' };
    const refused = { type: 'resource_link', uri: 'file:///etc/passwd', name: 'pw' };
    // a link found only in structuredContent (and its JSON text copy), and a bare uri found only there
    const onlyStructured = { type: 'resource_link', uri: 'guide://manuals/annex', name: 'annex' };
    const structured = {
      links: [allowed, refused, onlyStructured],
      urls: ['guide://manuals/intro', 'file:///etc/passwd', 'https://example.com/only-bare'],
    };
    host.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: {} } });
    await server.waitFor((m) => m['id'] === 1);
    server.deliver({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: [allowed, refused, { type: 'text', text: JSON.stringify(structured) }],
        structuredContent: structured,
      },
    });
    const answer = await host.waitFor((m) => m['id'] === 1);
    const result = answer['result'] as { content: Json[]; structuredContent: Json };
    // the refused link is gone from all three places
    expect(JSON.stringify(result)).not.toContain('/etc/passwd');
    expect(result.content[1]?.['type']).toBe('text');
    expect(JSON.stringify(result.structuredContent)).toContain('uri.scheme-not-allowed');
    expect(String(result.content[2]?.['text'])).toContain('uri.scheme-not-allowed');
    expect(discovered).toHaveLength(2);
    // each link and each uri of this one result decided exactly once, wherever it stood
    expect(Object.fromEntries(counter.byUri)).toEqual({
      'guide://manuals/intro': 1,
      'file:///etc/passwd': 1,
      'guide://manuals/annex': 1,
      'https://example.com/only-bare': 1,
    });
    server.hangUp();
    await session.closed;
    expect(counter.total()).toBe(4);
  });
});
