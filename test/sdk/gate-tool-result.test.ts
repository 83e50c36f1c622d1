import { decisionMetaKey } from '../../src/flow/decision-meta.ts';
import { beforeAll, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { gateToolResult, type RequestingClient } from '../../src/sdk/gate-tool-result.ts';
import type { Policy } from '../../src/policy/policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { decision, defaultPolicyWith, evidence, fakeGate } from './fake-gate.ts';

let policy: Policy;
beforeAll(async () => {
  policy = await defaultPolicyWith({ readTimeoutMs: 300 });
  // the read decision loads on a gate's first read (issue 42); on a loaded machine that load alone can outlast the
  // 300 ms read deadline these tests use, so it is loaded before them
  await createGate(policy).decideEmbedded({ uri: 'guide://warm', mimeType: 'text/plain', text: '' });
});

const links = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'resource_link', uri: `guide://doc/${i}`, name: `doc ${i}` }));

/** A client whose reads answer after `delayMs` (or never), counting how many are in flight at once. */
function slowClient(delayMs: number | 'never') {
  const stats = { inFlight: 0, maxInFlight: 0, reads: [] as string[] };
  const client: RequestingClient = {
    async request(request, _schema, options) {
      const uri = String(request.params?.['uri']);
      stats.reads.push(uri);
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      try {
        await new Promise((resolve, reject) => {
          if (delayMs !== 'never') setTimeout(resolve, delayMs);
          options?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        });
        return { resultType: 'complete', contents: [{ uri, mimeType: 'text/plain', text: `text of ${uri}` }] };
      } finally {
        stats.inFlight -= 1;
      }
    },
    getServerVersion: () => ({ name: 'fake', version: '9' }),
  };
  return { client, stats };
}

const allowAll = () =>
  fakeGate(
    policy,
    () => decision(policy, 'allow'),
    (input) => {
      const result = input['result'] as { contents?: unknown[] };
      return { decision: decision(policy, 'allow'), evidence: evidence(result.contents?.length ?? 0) };
    },
  );

describe('gateToolResult', () => {
  test.each([1, 2, 4])('keeps at most %i reads in flight and returns records in content order', async (concurrency) => {
    const { client, stats } = slowClient(20);
    const { records, content } = await gateToolResult(
      client,
      { content: [{ type: 'text', text: 'intro' }, ...links(6)] },
      { gate: allowAll(), concurrency, tool: 't' },
    );
    expect(stats.maxInFlight).toBe(concurrency);
    expect(records.map((r) => r.uri)).toEqual(links(6).map((l) => l.uri));
    expect(records.map((r) => r.stages.discovered.contentIndex)).toEqual([1, 2, 3, 4, 5, 6]);
    // each link is followed by its delivered body as an embedded resource
    expect(content.map((c) => c['type'])).toEqual(['text', ...links(6).flatMap(() => ['resource_link', 'resource'])]);
    for (const r of records) expect(recordViolations(r)).toEqual([]);
  });

  test('a hung server costs at most the budget; reads not started are link-only, running ones unverifiable', async () => {
    const { client, stats } = slowClient('never');
    const { records } = await gateToolResult(
      client,
      { content: links(5) },
      { gate: allowAll(), concurrency: 2, budgetMs: 450 },
    );
    expect(records.slice(0, 2).map((r) => r.decisions.read?.reasons[0]?.code)).toEqual([
      'read.timeout',
      'read.timeout',
    ]);
    expect(records.map((r) => r.verdict)).toContain('unverifiable');
    expect(records.at(-1)?.verdict).toBe('link-only');
    expect(stats.reads.length).toBeLessThan(5);
  });

  test('embedded resources go through the content checks without a read; a denied one is replaced by the notice', async () => {
    const { client, stats } = slowClient(1);
    const gate = fakeGate(
      policy,
      () => decision(policy, 'allow'),
      (input) => {
        const text = (input['result'] as { contents: { text?: string }[] }).contents[0]?.text ?? '';
        return {
          decision: decision(
            policy,
            text.startsWith('#!') ? 'deny' : 'allow',
            text.startsWith('#!') ? ['content.executable'] : [],
          ),
          evidence: evidence(1),
        };
      },
    );
    const toolResult = {
      content: [
        { type: 'resource', resource: { uri: 'guide://ok', mimeType: 'text/plain', text: 'fine' } },
        { type: 'resource', resource: { uri: 'guide://sh', mimeType: 'text/plain', text: '#!/bin/sh\nrm -rf /' } },
      ],
    };
    const result = await gateToolResult(client, toolResult, { gate });
    expect(stats.reads).toEqual([]);
    expect(result.records).toEqual([]);
    expect(result.embedded.map((e) => e.decision.effect)).toEqual(['allow', 'deny']);
    expect(result.content[0]).toEqual(toolResult.content[0]);
    expect(result.content[1]).toMatchObject({ type: 'text', _meta: { [decisionMetaKey]: { effect: 'deny' } } });
    expect(String(result.content[1]?.['text'])).toMatch(
      /^linkgate withheld the embedded resource \(scheme `guide`\): content\.executable/,
    );
    expect(result.embeddedRecords.map((r) => r.verdict)).toEqual(['embedded-delivered', 'embedded-withheld']);
  });

  test('embedded resources get the real content checks of the gate', async () => {
    const { client, stats } = slowClient(1);
    const toolResult = {
      content: [
        { type: 'resource', resource: { uri: 'guide://ok', mimeType: 'text/plain', text: 'fine' } },
        { type: 'resource', resource: { uri: 'guide://sh', mimeType: 'text/plain', text: '#!/bin/sh\nrm -rf /' } },
        { type: 'resource', resource: { uri: 'guide://both', mimeType: 'text/plain', text: 'a', blob: 'YQ==' } },
      ],
    };
    const result = await gateToolResult(client, toolResult, { gate: createGate(policy) });
    expect(stats.reads).toEqual([]);
    expect(result.embedded.map((e) => e.decision.effect)).toEqual(['allow', 'deny', 'deny']);
    expect(result.embedded[1]?.decision.reasons.map((r) => r.code)).toContain('content.executable');
    expect(result.embedded[2]?.decision.reasons.map((r) => r.code)).toEqual(['content.shape']);
    expect(result.content[0]).toEqual(toolResult.content[0]);
    expect(result.content.slice(1).map((item) => item['type'])).toEqual(['text', 'text']);
  });

  test('records go to the sink in content order', async () => {
    const { client } = slowClient(1);
    const seen: LinkRecord[] = [];
    await gateToolResult(
      client,
      { content: links(3) },
      { gate: allowAll(), sink: callbackSink((r) => void seen.push(r)), server: 'docs' },
    );
    expect(seen.map((r) => r.uri)).toEqual(links(3).map((l) => l.uri));
    expect(seen[0]?.stages.discovered).toMatchObject({ server: 'docs', serverInfo: { name: 'fake', version: '9' } });
  });

  test.each([0, -1, 2.5])('rejects concurrency %s', async (concurrency) => {
    const { client } = slowClient(1);
    await expect(gateToolResult(client, { content: [] }, { gate: allowAll(), concurrency })).rejects.toThrow(
      /whole number/,
    );
  });
});

describe('many reads at once', () => {
  test('a budget shared by 32 concurrent reads raises no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const { client, stats } = slowClient(20);
      const { records } = await gateToolResult(
        client,
        { content: links(64) },
        {
          gate: createGate(policy),
          server: 'docs',
          concurrency: 32,
          budgetMs: 10_000,
        },
      );
      expect(records).toHaveLength(64);
      expect(stats.maxInFlight).toBe(32);
      // warnings are emitted on the next tick
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
