// The proxy judges embedded resources through the flow's one step (DESIGN §4e, §6): in tool results, prompt results
// and the server's sampling requests, with the notice every front end uses and a record for each.
import { beforeAll, describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { EmbeddedRecord } from '../../src/record/embedded-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { decisionMetaKey } from '../../src/sdk/gate-transport.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { rawProxyHost } from '../helpers/raw-proxy-host.ts';
import { embeddedCases } from '../parity/parity-cases.ts';

type Json = Record<string, unknown>;
let gate: Gate;
beforeAll(async () => {
  gate = createGate(await loadPolicy('test/fixtures/policies/parity.yaml'));
});

const withheld = ['embedded-script', 'embedded-elf-as-png', 'embedded-elf'];

/** A raw host on an in-process proxy in front of the parity server, and the embedded records the proxy writes. */
function start() {
  const records: EmbeddedRecord[] = [];
  const sink = callbackSink(
    () => {},
    (r) => void records.push(r),
  );
  const proxy = rawProxyHost({ gate, server: 'parity', sink, command: tsServer('test/parity/parity-server.ts') });
  return { proxy, records };
}

/** The embedded items (the last ones of `items`): allowed ones whole, withheld ones the notice with the decision. */
function checkEmbedded(items: readonly Json[]) {
  const embedded = items.slice(-embeddedCases.length);
  expect(embedded.map((i) => i['type'])).toEqual(
    embeddedCases.map((c) => (withheld.includes(c.name) ? 'text' : 'resource')),
  );
  for (const item of embedded.filter((i) => i['type'] === 'text')) {
    expect(String(item['text'])).toMatch(/^linkgate withheld the embedded resource \(scheme `parity`\): /);
    expect(((item['_meta'] as Json)[decisionMetaKey] as { effect: string }).effect).toBe('deny');
  }
}

const verdicts = () =>
  embeddedCases.map((c) => (withheld.includes(c.name) ? 'embedded-withheld' : 'embedded-delivered'));

describe('linkgate proxy: embedded resources through the flow step', () => {
  test('tool and prompt results: withheld bodies become the notice, each embedded resource gets its record', async () => {
    const { proxy, records } = start();
    try {
      await proxy.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      const tool = await proxy.request('tools/call', { name: 'cases', arguments: {} });
      checkEmbedded((tool['result'] as { content: Json[] }).content);
      const prompt = await proxy.request('prompts/get', { name: 'embedded' });
      checkEmbedded((prompt['result'] as { messages: { content: Json }[] }).messages.map((m) => m.content));
    } finally {
      await proxy.close();
    }
    expect(records.map((r) => r.verdict)).toEqual([...verdicts(), ...verdicts()]);
  });

  test("the server's sampling request reaches the host with its withheld embedded resources replaced", async () => {
    const { proxy, records } = start();
    try {
      await proxy.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { sampling: {} },
        clientInfo: { name: 'raw', version: '1' },
      });
      const sampling = proxy.next((m) => m['method'] === 'sampling/createMessage');
      const answered = proxy.request('tools/call', { name: 'sample', arguments: {} });
      const request = await sampling;
      checkEmbedded((request['params'] as { messages: { content: Json[] }[] }).messages[0]?.content ?? []);
      proxy.send({ id: request['id'], result: { role: 'assistant', content: { type: 'text', text: 'ok' } } });
      expect(JSON.stringify(await answered)).toContain('the host answered: ok');
    } finally {
      await proxy.close();
    }
    expect(records.map((r) => r.verdict)).toEqual(verdicts());
  });
});
