// The proxy judges embedded resources through the flow's one step (DESIGN §4e, §6): in tool results, prompt results
// and the server's sampling requests, with the notice every front end uses and a record for each.
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runProxy } from '../../src/proxy/run-proxy.ts';
import type { EmbeddedRecord } from '../../src/record/embedded-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { decisionMetaKey } from '../../src/sdk/gate-transport.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { embeddedCases } from '../parity/parity-cases.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

type Json = Record<string, unknown>;
let gate: Gate;
beforeAll(async () => {
  gate = createGate(await loadPolicy('test/fixtures/policies/parity.yaml'));
});

const withheld = ['embedded-script', 'embedded-elf-as-png', 'embedded-elf'];

/** A raw host on an in-process proxy in front of the parity server; `messages` holds everything the proxy wrote. */
function start() {
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const records: EmbeddedRecord[] = [];
  const [command, ...args] = tsServer('test/parity/parity-server.ts');
  const exit = runProxy({
    gate,
    server: 'parity',
    mode: 'enforce',
    sink: callbackSink(
      () => {},
      (r) => void records.push(r),
    ),
    upstream: { kind: 'command', command: command as string, args },
    stdin: toProxy,
    stdout: fromProxy,
    stderr: new PassThrough().resume(),
    env: process.env,
    cwd: repoRoot,
  });
  const waiters: { match: (m: Json) => boolean; resolve: (m: Json) => void }[] = [];
  let buffered = '';
  fromProxy.setEncoding('utf8');
  fromProxy.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, end)) as Json;
      buffered = buffered.slice(end + 1);
      for (const w of waiters.filter((w) => w.match(message))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  const send = (message: Json) => toProxy.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const next = (match: (m: Json) => boolean) => new Promise<Json>((resolve) => waiters.push({ match, resolve }));
  const request = (id: number, method: string, params: Json) => {
    const answered = next((m) => m['id'] === id && m['method'] === undefined);
    send({ id, method, params });
    return answered;
  };
  const stop = async () => {
    toProxy.end();
    await exit;
  };
  return { send, next, request, records, stop };
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
    const proxy = start();
    try {
      await proxy.request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      const tool = await proxy.request(2, 'tools/call', { name: 'cases', arguments: {} });
      checkEmbedded((tool['result'] as { content: Json[] }).content);
      const prompt = await proxy.request(3, 'prompts/get', { name: 'embedded' });
      checkEmbedded((prompt['result'] as { messages: { content: Json }[] }).messages.map((m) => m.content));
    } finally {
      await proxy.stop();
    }
    expect(proxy.records.map((r) => r.verdict)).toEqual([...verdicts(), ...verdicts()]);
  });

  test("the server's sampling request reaches the host with its withheld embedded resources replaced", async () => {
    const proxy = start();
    try {
      await proxy.request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { sampling: {} },
        clientInfo: { name: 'raw', version: '1' },
      });
      const sampling = proxy.next((m) => m['method'] === 'sampling/createMessage');
      const answered = proxy.request(2, 'tools/call', { name: 'sample', arguments: {} });
      const request = await sampling;
      checkEmbedded((request['params'] as { messages: { content: Json[] }[] }).messages[0]?.content ?? []);
      proxy.send({ id: request['id'], result: { role: 'assistant', content: { type: 'text', text: 'ok' } } });
      expect(JSON.stringify(await answered)).toContain('the host answered: ok');
    } finally {
      await proxy.stop();
    }
    expect(proxy.records.map((r) => r.verdict)).toEqual(verdicts());
  });
});
