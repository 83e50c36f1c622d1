// One record per discovered link (DESIGN §4c; issue 39): a link a tool result lists is a discovery of its own, with
// its tool, response and position, and ends in one record. On main the decorator remembered the links of tool
// results by uri, so a link listed again replaced the earlier listing while it was still unread: a link two results
// listed and the host never read got one `link-only` record, not two, and the first listing had no final record. A
// real SDK Client talks through `gateTransport` to a real SDK server whose tool lists links; the records are the
// sink's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import path from 'node:path';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { memorySink, recordViolations } from '../../src/testing/index.ts';
import { repoRoot } from './fake-gate.ts';

const guide = 'guide://docs/start';
const other = 'guide://docs/other';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A real SDK server whose tool `list` returns the links its `uris` argument names, in order. */
function linkServer(): McpServer {
  const server = new McpServer({ name: 'docs', version: '1' });
  server.registerTool('list', { inputSchema: { uris: z.array(z.string()) } }, ({ uris }) => ({
    content: uris.map((uri, i) => ({ type: 'resource_link' as const, uri, name: `link ${i}` })),
  }));
  server.registerResource('start', guide, {}, (uri) => ({ contents: [{ uri: uri.href, text: 'hello' }] }));
  return server;
}

async function connect() {
  const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await linkServer().connect(serverSide);
  const sink = memorySink();
  const client = new Client({ name: 'host', version: '1' });
  await client.connect(gateTransport(clientSide, { gate, server: 'docs', sink }));
  closers.push(() => client.close());
  const list = (uris: string[]) => client.callTool({ name: 'list', arguments: { uris } });
  return { client, sink, list };
}

describe('a link listed more than once gets one record per listing', () => {
  test('listed in two tool results, never read: two link-only records, one per result', async () => {
    const { client, sink, list } = await connect();
    await list([guide]);
    await list([other, guide]);
    await client.close();
    const records = sink.records.filter((r) => r.uri === guide);
    expect(records).toHaveLength(2);
    for (const r of records) {
      expect(r).toMatchObject({ verdict: 'link-only', stages: { requested: null } });
      expect(recordViolations(r)).toEqual([]);
    }
    // each names the listing it ends: the first result's position 0, the second's position 1
    expect(records.map((r) => r.stages.discovered.contentIndex).sort()).toEqual([0, 1]);
    expect(new Set(records.map((r) => r.stages.discovered.responseId)).size).toBe(2);
    expect(sink.records.filter((r) => r.uri === other)).toHaveLength(1);
  });

  test('listed twice in one tool result: two link-only records, one per position', async () => {
    const { client, sink, list } = await connect();
    await list([guide, guide]);
    await client.close();
    const records = sink.records.filter((r) => r.uri === guide);
    expect(records.map((r) => r.stages.discovered.contentIndex).sort()).toEqual([0, 1]);
    for (const r of records) expect(r.verdict).toBe('link-only');
  });

  test('listed in two results, then read: the read ends the latest listing, the earlier one ends link-only', async () => {
    const { client, sink, list } = await connect();
    const first = await list([guide]);
    await list([other, guide]);
    expect(first.content).toHaveLength(1);
    await client.readResource({ uri: guide });
    await client.close();
    const records = sink.records.filter((r) => r.uri === guide);
    expect(records).toHaveLength(2);
    const read = records.find((r) => r.stages.requested !== null);
    expect(read).toMatchObject({ verdict: 'body-obtained', stages: { discovered: { contentIndex: 1 } } });
    const unread = records.find((r) => r.stages.requested === null);
    expect(unread).toMatchObject({ verdict: 'link-only', stages: { discovered: { contentIndex: 0 } } });
    for (const r of records) expect(recordViolations(r)).toEqual([]);
  });
});
