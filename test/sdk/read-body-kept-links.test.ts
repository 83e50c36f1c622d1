// The links of a read's JSON body a front end keeps (`keptBodyLinks`, the one rule the decorator's ledger and the
// hook's state share): a link object the body holds, allowed or refused, is kept in the connection's link ledger as a
// link its server returned, so a later read of its uri is judged as that link (its declared type and size, found in
// that read's answer), not as a bare uri. A real SDK client over `gateTransport` before a real SDK server. Fails on
// main for the allowed link: only refused links were kept, so the later read's record had no declared type or size.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, test } from 'vitest';
import path from 'node:path';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { memorySink, recordViolations } from '../../src/testing/index.ts';
import { repoRoot } from './fake-gate.ts';

const guide = 'guide://docs/start';
const target = 'guide://docs/target';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A real SDK server whose `guide` body is JSON holding `see` (a link object or a uri string), and the `target` body. */
async function connect(see: unknown) {
  const server = new McpServer({ name: 'docs', version: '1' });
  const body = JSON.stringify({ see });
  server.registerResource('start', guide, {}, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: body }],
  }));
  server.registerResource('target', target, {}, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }],
  }));
  const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const sink = memorySink();
  const client = new Client({ name: 'host', version: '1' });
  await client.connect(gateTransport(clientSide, { gate, server: 'docs', sink }));
  closers.push(() => client.close());
  return { client, sink };
}

describe("the links of a read's JSON body in the decorator's ledger", () => {
  test('an allowed link object: a later read of its uri is judged as that link, with no record of its own', async () => {
    const { client, sink } = await connect({
      type: 'resource_link',
      uri: target,
      name: 'target',
      mimeType: 'text/plain',
      size: 5,
    });
    const first = await client.readResource({ uri: guide });
    expect(JSON.stringify(first)).toContain(target);
    expect(JSON.stringify(await client.readResource({ uri: target }))).toContain('hello');
    await client.close();
    const records = sink.records.filter((r) => r.uri === target);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      verdict: 'body-obtained',
      stages: { discovered: { mimeType: 'text/plain', size: 5, server: 'docs' } },
    });
    expect(records[0]?.stages.discovered.responseId).not.toBeNull();
    for (const r of sink.records) expect(recordViolations(r)).toEqual([]);
  });

  test('control: an allowed uri string is an address in data: the later read is of a bare uri', async () => {
    const { client, sink } = await connect(target);
    await client.readResource({ uri: guide });
    await client.readResource({ uri: target });
    await client.close();
    const records = sink.records.filter((r) => r.uri === target);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ stages: { discovered: { mimeType: null, size: null, responseId: null } } });
  });
});
