// The Transport decorator judges embedded resources (DESIGN §6) under the real SDK Clients, 1.x and 2.x: a body the
// policy does not allow is replaced by a text item with the notice and the decision, and every embedded resource
// gets its record, in tool results, prompt results and the server's sampling requests.
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, test } from 'vitest';
import type { EmbeddedRecord } from '../../src/record/embedded-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { decisionMetaKey, gateTransport } from '../../src/sdk/gate-transport.ts';
import { embeddedCases } from '../parity/parity-cases.ts';
import { sampledContent, useStdioGate } from './stdio-gate-fixture.ts';

type Json = Record<string, unknown>;
const stdio = useStdioGate('test/fixtures/policies/parity.yaml', 'test/parity/parity-server.ts');
const { closers, serverParams } = stdio;
const withheldNames = ['embedded-script', 'embedded-elf-as-png', 'embedded-elf'];
const expectedTypes = embeddedCases.map((c) => (withheldNames.includes(c.name) ? 'text' : 'resource'));

/** The embedded items of `items` (the last `embeddedCases.length`), checked: allowed ones whole, withheld ones a notice. */
function checkEmbedded(items: readonly Json[]) {
  const embedded = items.slice(-embeddedCases.length);
  expect(embedded.map((i) => i['type'])).toEqual(expectedTypes);
  for (const [i, c] of embeddedCases.entries()) {
    const item = embedded[i] as Json;
    if (item['type'] === 'resource') expect((item['resource'] as Json)['uri']).toBe(c.resource.uri);
    else {
      expect(String(item['text'])).toMatch(/^linkgate withheld the embedded resource \(scheme `parity`\): /);
      expect(String(item['text'])).toContain('content.executable');
      expect(((item['_meta'] as Json)[decisionMetaKey] as { effect: string }).effect).toBe('deny');
    }
  }
}

function checkRecords(records: readonly EmbeddedRecord[]) {
  expect(records.map((r) => r.verdict)).toEqual(
    embeddedCases.map((c) => (withheldNames.includes(c.name) ? 'embedded-withheld' : 'embedded-delivered')),
  );
}

describe.each([
  ['1.x', () => new Client({ name: 'host-1x', version: '1.0.0' }), () => new StdioClientTransport(serverParams())],
  [
    '2.x',
    () => new ClientV2({ name: 'host-2x', version: '2.0.0' }) as unknown as Client,
    () => new StdioV2(serverParams()) as unknown as Transport,
  ],
] as const)(
  'gateTransport judges embedded resources under the SDK %s Client',
  (_version, makeClient, makeTransport) => {
    async function connect() {
      const records: EmbeddedRecord[] = [];
      const transport = gateTransport(makeTransport(), {
        gate: stdio.gate,
        server: 'parity',
        sink: callbackSink(
          () => {},
          (r) => void records.push(r),
        ),
      });
      const client = makeClient();
      await client.connect(transport);
      closers.push(() => client.close());
      return { client, records };
    }

    test('a tool result: withheld bodies become the notice, allowed ones pass whole, each gets its record', async () => {
      const { client, records } = await connect();
      const result = await client.callTool({ name: 'cases', arguments: {} });
      checkEmbedded(result.content as Json[]);
      checkRecords(records);
      // the links are left for the reads: the tool result keeps each of them
      expect((result.content as Json[]).filter((i) => i['type'] === 'resource_link').length).toBeGreaterThan(0);
    });

    test('a prompt result: the same step, the same notices and records', async () => {
      const { client, records } = await connect();
      const prompt = await client.getPrompt({ name: 'embedded' });
      checkEmbedded(prompt.messages.map((m) => m.content as Json));
      checkRecords(records);
    });
  },
);

test("the server's sampling request reaches the host with its withheld embedded resources replaced", async () => {
  const records: EmbeddedRecord[] = [];
  const transport = gateTransport(new StdioClientTransport(serverParams()), {
    gate: stdio.gate,
    server: 'parity',
    sink: callbackSink(
      () => {},
      (r) => void records.push(r),
    ),
  });
  closers.push(() => transport.close());
  checkEmbedded(await sampledContent(transport));
  checkRecords(records);
});
