// The records of listings a full ledger pushes out go to the sink as one write (issue 42 item 4, records batched): a
// file sink hands them to the OS in one `write(2)`, a sink without `writeMany` gets each through `write`, in order.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { jsonLinesSink, type RecordSink } from '../../src/record/record-sink.ts';
import { maxRememberedLinks } from '../../src/sdk/gate-transport.ts';
import { memoryPeer } from './memory-peers.ts';
import { shippedPolicy } from './proxy-helpers.ts';

type Json = Record<string, unknown>;

const call = async (host: ReturnType<typeof memoryPeer>, server: ReturnType<typeof memoryPeer>, id: number) => {
  host.deliver({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'links' } });
  await server.waitFor((m) => m['id'] === id);
  const content = Array.from({ length: 500 }, (_, i) => ({
    type: 'resource_link',
    uri: `https://docs.example.com/${id}/${i}`,
    name: `doc-${id}-${i}`,
  }));
  server.deliver({ jsonrpc: '2.0', id, result: { content } });
  await host.waitFor((m) => m['id'] === id);
};

describe('linkgate proxy: records batched', () => {
  test('the listings a full ledger pushes out are recorded in one writeMany, in order', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const one: LinkRecord[] = [];
    const many: LinkRecord[][] = [];
    const sink: RecordSink = {
      write: async (record) => {
        one.push(record);
      },
      writeMany: async (records) => {
        many.push([...records]);
      },
      writeDiscovered: async () => {},
      close: async () => {},
    };
    const host = memoryPeer();
    const server = memoryPeer();
    const session = proxySession(host.transport, server.transport, { gate, server: 'docs', sink });
    await session.start();
    for (const id of [1, 2, 3]) await call(host, server, id);
    host.hangUp();
    server.hangUp();
    await session.closed;
    const pushedOut = 3 * 500 - maxRememberedLinks;
    expect(many[0]?.map((r) => r.stages.discovered.uri)).toEqual(
      Array.from({ length: pushedOut }, (_, i) => `https://docs.example.com/1/${i}`),
    );
    // the rest, never read, recorded at the close: one write for all of them too
    expect(many.flat()).toHaveLength(1500);
    expect(many).toHaveLength(2);
    expect(one).toEqual([]);
  });

  test('a records file gets every one of them, one line each', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const file = join(mkdtempSync(join(tmpdir(), 'linkgate-batched-')), 'records.jsonl');
    const host = memoryPeer();
    const server = memoryPeer();
    const session = proxySession(host.transport, server.transport, { gate, server: 'docs', sink: jsonLinesSink(file) });
    await session.start();
    for (const id of [1, 2, 3]) await call(host, server, id);
    host.hangUp();
    server.hangUp();
    await session.closed;
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    // each listing: its discovery record as its result went out, and its link-only record (pushed out or at the close)
    const uris = lines.map((r) => (r['stages'] as { discovered: Json }).discovered['uri']);
    expect(lines).toHaveLength(3000);
    const times = new Map<unknown, number>();
    for (const uri of uris) times.set(uri, (times.get(uri) ?? 0) + 1);
    expect(times.size).toBe(1500);
    expect([...times.values()].every((n) => n === 2)).toBe(true);
  });
});
