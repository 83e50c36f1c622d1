// The decorator's link ledger (the links of tool results, with their decisions and where they were found) is one
// server session's: one per `gateTransport`, never shared, so a link one connection's server listed is never read
// through another connection as that listing (the other connection's read is judged as its own server's bare uri,
// and the listing ends `link-only` where it was made); and a new `initialize` over the same connection ends the
// earlier session's listings. Only refused addresses are shared between connections, when given one
// `RefusedAddresses` (as `gatedLinks` does). Raw JSON-RPC through `gateTransport` over an in-process scripted server.
// The second case fails on main: the listing outlived its session, so the new session's read was judged as it (its
// declared type and size in the record) and no `link-only` record ended it.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { RefusedAddresses } from '../../src/sdk/refused-addresses.ts';
import { memorySink, recordViolations } from '../../src/testing/index.ts';
import { repoRoot } from './fake-gate.ts';

const target = 'guide://docs/target';
type Json = Record<string, unknown>;

/** An in-process server: answers `initialize`, a tool call listing `target` (declared type and size), and its read. */
function scriptedServer(): Transport {
  const t: Transport = {
    start: async () => {},
    close: async () => t.onclose?.(),
    send: async (message) => {
      const m = message as Json;
      if (m['id'] === undefined) return;
      const result =
        m['method'] === 'initialize'
          ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'docs', version: '1' } }
          : m['method'] === 'tools/call'
            ? { content: [{ type: 'resource_link', uri: target, name: 'target', mimeType: 'text/plain', size: 5 }] }
            : { contents: [{ uri: target, mimeType: 'text/plain', text: 'hello' }] };
      queueMicrotask(() => t.onmessage?.({ jsonrpc: '2.0', id: m['id'], result } as JSONRPCMessage));
    },
  };
  return t;
}

async function gated(server: string, shared: { gate: Awaited<ReturnType<typeof gateOf>>; refused: RefusedAddresses }) {
  const sink = memorySink();
  const transport = gateTransport(scriptedServer(), { ...shared, server, sink });
  const answers = new Map<unknown, (m: Json) => void>();
  transport.onmessage = (message) => answers.get((message as Json)['id'])?.(message);
  await transport.start();
  let next = 0;
  const request = (method: string, params: Json) => {
    next += 1;
    const id = next;
    const answered = new Promise<Json>((resolve) => answers.set(id, resolve));
    void transport.send({ jsonrpc: '2.0', id, method, params });
    return answered;
  };
  const initialize = () =>
    request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'host', version: '1' },
    });
  return { transport, sink, request, initialize };
}

const gateOf = async () => createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));

async function shared() {
  const gate = await gateOf();
  return { gate, refused: new RefusedAddresses(connectionByteCap(gate.policy)) };
}

describe("the decorator's link ledger", () => {
  test("is one per connection: another connection's read of a listed uri is its own server's bare uri", async () => {
    const both = await shared();
    const a = await gated('a', both);
    const b = await gated('b', both);
    await a.initialize();
    await b.initialize();
    await a.request('tools/call', { name: 'list', arguments: {} });
    expect(JSON.stringify(await b.request('resources/read', { uri: target }))).toContain('hello');
    await a.transport.close();
    await b.transport.close();
    const read = b.sink.records.filter((r) => r.uri === target);
    expect(read).toHaveLength(1);
    expect(read[0]).toMatchObject({
      verdict: 'body-obtained',
      stages: { discovered: { server: 'b', tool: null, mimeType: null, size: null } },
    });
    // the listing ends where it was made, unread
    const listed = a.sink.records.filter((r) => r.uri === target);
    expect(listed.map((r) => r.verdict)).toEqual(['link-only']);
    for (const r of [...read, ...listed]) expect(recordViolations(r)).toEqual([]);
  });

  test("is one server session's: a new initialize ends the earlier session's listings", async () => {
    const c = await gated('a', await shared());
    await c.initialize();
    await c.request('tools/call', { name: 'list', arguments: {} });
    await c.initialize();
    expect(JSON.stringify(await c.request('resources/read', { uri: target }))).toContain('hello');
    await c.transport.close();
    const records = c.sink.records.filter((r) => r.uri === target);
    const listing = records.find((r) => r.stages.requested === null);
    expect(listing).toMatchObject({
      verdict: 'link-only',
      stages: { discovered: { tool: 'list', mimeType: 'text/plain' } },
    });
    const read = records.find((r) => r.stages.requested !== null);
    expect(read).toMatchObject({ stages: { discovered: { tool: null, mimeType: null, size: null } } });
    expect(records).toHaveLength(2);
    for (const r of records) expect(recordViolations(r)).toEqual([]);
  });

  test('control: within one session a later read is judged as its listing', async () => {
    const c = await gated('a', await shared());
    await c.initialize();
    await c.request('tools/call', { name: 'list', arguments: {} });
    await c.request('resources/read', { uri: target });
    await c.transport.close();
    const records = c.sink.records.filter((r) => r.uri === target);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ stages: { discovered: { tool: 'list', mimeType: 'text/plain', size: 5 } } });
  });
});
