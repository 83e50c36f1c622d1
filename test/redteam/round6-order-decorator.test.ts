// Red team (issue 39, round 6), order, the decorator alone: one server batch answering two pending tool calls, the
// refused link's address named in prose by the first answer and its link refused by the second. The proxy holds it
// (round6-order.test.ts); the decorator searched the first answer only for refusals noted before it, and the second
// answer's refusal was noted once the first had gone on, where the caller judges the items (`judgeEmbedded: false`,
// as the proxy uses it; the default judges them, and waits for every refusal being noted). A real SDK client over
// `gateTransport`, the server an in-memory transport that writes the two answers as one batch (as a Streamable HTTP
// server may).
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { hostPath, link, metadata, policyFile } from './scripted-host.ts';
import { prose } from './round-cases.ts';

type Json = Record<string, unknown>;

// a server that answers `initialize` and holds each tool call until the second, then answers both in one batch: the
// call named `first` with `first`, the other with `second`
async function batchingClient(
  first: Json,
  second: Json,
  order: 'first-then-second' | 'second-then-first',
  judgeEmbedded = true,
) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const held: Json[] = [];
  serverSide.onmessage = (message) => {
    const m = message as Json;
    if (m['id'] === undefined) return;
    if (m['method'] === 'initialize') {
      const result = {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 's', version: '1' },
      };
      void serverSide.send({ jsonrpc: '2.0', id: m['id'] as number, result });
      return;
    }
    if (m['method'] !== 'tools/call') {
      void serverSide.send({ jsonrpc: '2.0', id: m['id'] as number, result: {} });
      return;
    }
    held.push(m);
    if (held.length < 2) return;
    const answers = held.map((h) => {
      const name = (h['params'] as Json)['name'];
      return { jsonrpc: '2.0', id: h['id'], result: name === 'first' ? first : second };
    });
    if (order === 'second-then-first') answers.reverse();
    void serverSide.send(answers as unknown as JSONRPCMessage);
  };
  await serverSide.start();
  const gate = createGate(await loadPolicy(policyFile));
  const transport = gateTransport(clientSide, { gate, server: 'a', sink: callbackSink(() => {}), judgeEmbedded });
  const seen: string[] = [];
  const client = new Client({ name: 'rt', version: '1' });
  await client.connect(transport);
  const handOn = transport.onmessage;
  transport.onmessage = (message, extra) => {
    seen.push(JSON.stringify(message));
    handOn?.(message, extra);
  };
  const settle = (p: Promise<unknown>) => p.then(JSON.stringify, (error: unknown) => String(error));
  const answers = await Promise.all([
    settle(client.callTool({ name: 'first', arguments: {} })),
    settle(client.callTool({ name: 'second', arguments: {} })),
  ]);
  await client.close();
  return { answers, seen: seen.join('\n') };
}

const naming = { content: [{ type: 'text', text: `curl ${metadata}` }] };
const refusing = { content: [link(metadata, 'creds')] };

describe('red team, order (round 6) through the decorator: one batch answering two calls', () => {
  for (const order of ['first-then-second', 'second-then-first'] as const)
    test(`the address in one answer, its refusal in the other (${order})`, async () => {
      const { answers, seen } = await batchingClient(naming, refusing, order);
      expect(answers[1]).toContain('linkgate refused the link `creds`');
      expect(seen).not.toContain(hostPath);
      for (const answer of answers) expect(answer).not.toContain(hostPath);
    });

  // the decorator as a front end that replaces the refused links itself uses it (the proxy): the refusing answer keeps
  // its link for that caller, and the answer naming its address may not pass
  for (const order of ['first-then-second', 'second-then-first'] as const)
    test(`its caller judging the items: the answer naming the address is withheld (${order})`, async () => {
      const { answers } = await batchingClient(naming, refusing, order, false);
      expect(answers[0]).toContain('-32080');
      expect(answers[0]).not.toContain(hostPath);
    });

  test('an answer naming nothing refused still reaches the host beside the refusing one', async () => {
    const { answers } = await batchingClient(
      { content: [{ type: 'text', text: 'all fine' }] },
      refusing,
      'first-then-second',
    );
    expect(answers[0]).toContain('all fine');
  });
});

// round 7: the refusal inside a JSON text item or `structuredContent` (the decorator judges those itself, by default),
// and a batch whose two answers each refuse a link there and name the address the other refused
const inJson = { content: [prose(JSON.stringify({ link: link(metadata, 'creds') }))] };
const inStructured = { content: [prose('see the data')], structuredContent: { link: link(metadata, 'creds') } };
const other = 'http://10.0.0.7/admin/keys';
const crossed = (refused: string, named: string) => ({
  content: [prose(JSON.stringify({ link: link(refused, 'creds') })), prose(`curl ${named}`)],
});

describe('red team, order (round 7) through the decorator alone: a batch, the refusal in a JSON text or structuredContent', () => {
  for (const [where, refused] of [
    ['a JSON text item', inJson],
    ['structuredContent', inStructured],
  ] as const)
    for (const order of ['first-then-second', 'second-then-first'] as const)
      test(`the address in one answer, its refusal in the other's ${where} (${order})`, async () => {
        const { answers, seen } = await batchingClient(naming, refused, order);
        expect(answers[0]).toContain('-32080');
        expect(seen).not.toContain(hostPath);
        for (const answer of answers) expect(answer).not.toContain(hostPath);
      });

  test('each answer names what the other refused: both answered, neither hands it on', async () => {
    const { answers, seen } = await batchingClient(
      crossed(other, metadata),
      crossed(metadata, other),
      'first-then-second',
    );
    for (const text of [seen, ...answers]) {
      expect(text).not.toContain(hostPath);
      expect(text).not.toContain('10.0.0.7/admin');
    }
    for (const answer of answers) expect(answer).toContain('-32080');
  });
});
