import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Decision, Effect } from '../../src/decision/decision.ts';
import { ReadCache } from '../../src/flow/read-cache.ts';
import type { LinkReader, ReadAnswer } from '../../src/flow/link-reader.ts';
import { runLinkFlow } from '../../src/flow/run-link-flow.ts';
import type { Policy } from '../../src/policy/policy.ts';
import { flowContext } from './flow-context.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { decision, defaultPolicyWith, evidence, fakeGate } from '../sdk/fake-gate.ts';

const context = flowContext;
const link = {
  type: 'resource_link',
  uri: 'guide://manuals/packing?key=v4lue',
  name: 'packing',
  mimeType: 'text/plain',
};
const text = (i: number) => ({
  uri: `guide://manuals/packing#${i}`,
  mimeType: 'text/plain',
  text: `body text number ${i}`,
});

let policy: Policy;
beforeAll(async () => {
  policy = await defaultPolicyWith({ readTimeoutMs: 200 });
});

const answerWith =
  (answer: ReadAnswer): LinkReader =>
  async () =>
    answer;
const never: LinkReader = (_params, signal) =>
  new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
  );

describe('runLinkFlow verdicts', () => {
  test.each([
    {
      name: 'link denied',
      link: 'deny',
      answer: { result: { contents: [text(0)] } },
      read: 'allow',
      verdict: 'link-only',
      boundary: 'policy',
      requested: false,
      delivered: 0,
    },
    {
      name: 'whole body',
      link: 'allow',
      answer: { result: { resultType: 'complete', contents: [text(0), text(1)] } },
      read: 'allow',
      verdict: 'body-obtained',
      boundary: null,
      requested: true,
      delivered: 2,
    },
    {
      name: 'read denied',
      link: 'allow',
      answer: { result: { contents: [text(0)] } },
      read: 'deny',
      verdict: 'link-only',
      boundary: 'policy',
      requested: true,
      delivered: 0,
    },
    {
      name: 'partial',
      link: 'allow',
      answer: { result: { contents: [text(0), text(1)] } },
      read: 'partial',
      verdict: 'partially-interpreted',
      boundary: 'context-assembly',
      requested: true,
      delivered: 1,
    },
    {
      name: 'json-rpc error',
      link: 'allow',
      answer: { error: { code: -32002, message: 'resource guide://x?token=hunter2 not found' } },
      read: 'deny',
      verdict: 'unverifiable',
      boundary: 'origin-server',
      requested: true,
      delivered: 0,
    },
    {
      name: 'input required',
      link: 'allow',
      answer: {
        result: {
          resultType: 'input_required',
          requestState: 'c2VjcmV0LXN0YXRl',
          inputRequests: { a: { method: 'elicitation/create', params: { message: 'who are you' } } },
        },
      },
      read: 'deny',
      verdict: 'unverifiable',
      boundary: 'origin-server',
      requested: true,
      delivered: 0,
    },
    {
      name: 'unknown result type',
      link: 'allow',
      answer: { result: { resultType: 'task', contents: [] } },
      read: 'deny',
      verdict: 'unverifiable',
      boundary: 'origin-server',
      requested: true,
      delivered: 0,
    },
    {
      name: 'blob only',
      link: 'allow',
      answer: { result: { contents: [{ uri: 'guide://p', mimeType: 'image/png', blob: 'iVBORw0KGgo=' }] } },
      read: 'allow',
      verdict: 'body-obtained',
      boundary: 'mime-decoding',
      requested: true,
      delivered: 1,
    },
  ] as const)('$name → $verdict', async (row) => {
    const count = 'result' in row.answer && 'contents' in row.answer.result ? row.answer.result.contents.length : 0;
    const items =
      row.read === 'partial'
        ? [
            { index: 0, effect: 'allow' as const, reasons: [] },
            {
              index: 1,
              effect: 'partial' as const,
              reasons: decision(policy, 'partial', ['content.unsafe-text']).reasons,
            },
          ]
        : undefined;
    const gate = fakeGate(
      policy,
      () => decision(policy, row.link, row.link === 'deny' ? ['uri.scheme-not-allowed'] : []),
      () => ({
        decision: decision(policy, row.read, row.read === 'allow' ? [] : ['read.error'], items),
        evidence: evidence(
          count,
          'blob' in
            ((('result' in row.answer && 'contents' in row.answer.result ? row.answer.result.contents[0] : {}) ??
              {}) as object)
            ? 'blob'
            : 'text',
        ),
      }),
    );
    const { record, contents } = await runLinkFlow(link, 3, {
      gate,
      read: answerWith(row.answer),
      context,
      mode: 'enforce',
    });
    expect(record.verdict).toBe(row.verdict);
    expect(record.next?.boundary ?? null).toBe(row.boundary);
    expect(record.stages.requested !== null).toBe(row.requested);
    expect(contents).toHaveLength(row.delivered);
    expect(recordViolations(record)).toEqual([]);
    const json = JSON.stringify(record);
    for (const secret of ['v4lue', 'hunter2', 'c2VjcmV0LXN0YXRl', 'body text number', 'who are you'])
      expect(json).not.toContain(secret);
    expect(record.stages.discovered).toMatchObject({
      tool: 'find',
      responseId: 7,
      contentIndex: 3,
      contentType: 'resource_link',
      server: 'docs',
      mimeType: 'text/plain',
    });
  });

  test('a read that never answers ends at the policy deadline as `read.timeout`, unverifiable', async () => {
    const gate = fakeGate(
      policy,
      () => decision(policy, 'allow'),
      () => ({ decision: decision(policy, 'allow'), evidence: [] }),
    );
    const started = performance.now();
    const { record } = await runLinkFlow(link, 0, { gate, read: never, context, mode: 'enforce' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(record.verdict).toBe('unverifiable');
    expect(record.decisions.read?.reasons.map((r) => r.code)).toEqual(['read.timeout']);
    expect(record.stages.requested?.deadlineMs).toBe(200);
    expect(record.stages.received).toBeNull();
    expect(gate.readInputs).toHaveLength(0);
  });

  test('an exhausted budget issues no read: link-only, next at the host', async () => {
    const gate = fakeGate(
      policy,
      () => decision(policy, 'allow'),
      () => ({ decision: decision(policy, 'allow'), evidence: [] }),
    );
    let reads = 0;
    const { record } = await runLinkFlow(link, 0, {
      gate,
      read: async () => ((reads += 1), { result: {} }),
      context,
      mode: 'enforce',
      budget: AbortSignal.abort(),
    });
    expect(reads).toBe(0);
    expect(record.verdict).toBe('link-only');
    expect(record.next?.boundary).toBe('host-link-handling');
  });

  test('observe mode reads a denied link, delivers everything, keeps the deny and sets `wouldDeny`', async () => {
    const gate = fakeGate(
      policy,
      () => decision(policy, 'deny', ['uri.non-public-address']),
      () => ({ decision: decision(policy, 'deny', ['content.executable']), evidence: evidence(1) }),
    );
    const { record, contents } = await runLinkFlow(link, 0, {
      gate,
      read: answerWith({ result: { contents: [text(0)] } }),
      context,
      mode: 'observe',
    });
    expect(contents).toHaveLength(1);
    expect(record.decisions.link.effect).toBe('deny');
    expect(record.decisions.read?.effect).toBe('deny');
    expect(record).toMatchObject({ mode: 'observe', wouldDeny: true, verdict: 'body-obtained' });
    expect(recordViolations(record)).toEqual([]);
  });

  test('input_required is answered only when the policy allows it and the host gave an answerer', async () => {
    const seen: Record<string, unknown>[] = [];
    const reader: LinkReader = async (params) => {
      seen.push(params);
      if (params['inputResponses'] === undefined)
        return {
          result: {
            resultType: 'input_required',
            inputRequests: { q: { method: 'elicitation/create', params: {} } },
            requestState: 'opaque-state',
          },
        };
      return { result: { resultType: 'complete', contents: [text(0)] } };
    };
    const answerInput = async () => ({ q: { action: 'accept', content: { ok: true } } });
    const ok = () => ({ decision: decision(policy, 'allow'), evidence: evidence(1) });
    const off = await runLinkFlow(link, 0, {
      gate: fakeGate(policy, () => decision(policy, 'allow'), ok),
      read: reader,
      context,
      mode: 'enforce',
      answerInput,
    });
    expect(off.record.verdict).toBe('unverifiable');
    expect(seen).toHaveLength(1);
    const allowing = await defaultPolicyWith({ answerInputRequired: true });
    const on = await runLinkFlow(link, 0, {
      gate: fakeGate(allowing, () => decision(allowing, 'allow'), ok),
      read: reader,
      context,
      mode: 'enforce',
      answerInput,
    });
    expect(on.record.verdict).toBe('body-obtained');
    expect(seen[2]).toMatchObject({ requestState: 'opaque-state', inputResponses: { q: { action: 'accept' } } });
    expect(JSON.stringify(on.record)).not.toContain('opaque-state');
  });

  test('a complete result with ttlMs > 0 is served from the cache the second time', async () => {
    const cache = new ReadCache();
    const gate = fakeGate(
      policy,
      () => decision(policy, 'allow'),
      () => ({ decision: decision(policy, 'allow'), evidence: evidence(1) }),
    );
    let reads = 0;
    const read: LinkReader = async () => (
      (reads += 1), { result: { resultType: 'complete', contents: [text(0)], ttlMs: 60_000, cacheScope: 'public' } }
    );
    await runLinkFlow(link, 0, { gate, read, context, mode: 'enforce', cache });
    const second = await runLinkFlow(link, 0, { gate, read, context, mode: 'enforce', cache });
    expect(reads).toBe(1);
    expect(second.record.stages.requested).toBeNull();
    expect(second.record.stages.received?.cache?.ttlMs).toBe(60_000);
    expect(second.record.next?.boundary).toBe('cache');
    expect(recordViolations(second.record)).toEqual([]);
  });
});

describe('runLinkFlow properties', () => {
  const effect = fc.constantFrom<Effect>('allow', 'deny', 'partial');
  const answer = fc.oneof(
    fc.record({
      kind: fc.constant('result' as const),
      resultType: fc.constantFrom('complete', 'input_required', 'task', undefined),
      count: fc.integer({ min: 0, max: 4 }),
    }),
    fc.record({ kind: fc.constant('error' as const), code: fc.integer({ min: -32700, max: -32000 }) }),
    fc.record({ kind: fc.constant('throw' as const) }),
  );

  test('every record holds the §4c invariants and never records a deny as an allow', async () => {
    await fc.assert(
      fc.asyncProperty(
        effect,
        effect,
        fc.array(effect, { maxLength: 4 }),
        answer,
        fc.constantFrom('enforce' as const, 'observe' as const),
        async (linkEffect, readEffect, itemEffects, a, mode) => {
          const count = a.kind === 'result' ? a.count : 0;
          const items = Array.from({ length: count }, (_, index) => ({
            index,
            effect: itemEffects[index] ?? readEffect,
            reasons: decision(policy, 'deny', ['content.shape']).reasons,
          }));
          const readDecision: Decision = decision(
            policy,
            readEffect,
            readEffect === 'allow' ? [] : ['content.shape'],
            items,
          );
          const gate = fakeGate(
            policy,
            () => decision(policy, linkEffect, linkEffect === 'allow' ? [] : ['uri.invalid']),
            () => ({ decision: readDecision, evidence: evidence(count) }),
          );
          const read: LinkReader = async () => {
            if (a.kind === 'throw') throw new Error('connection closed');
            if (a.kind === 'error') return { error: { code: a.code, message: 'nope' } };
            const result: Record<string, unknown> = { contents: Array.from({ length: a.count }, (_, i) => text(i)) };
            if (a.resultType !== undefined) result['resultType'] = a.resultType;
            return { result };
          };
          const { record, contents } = await runLinkFlow(link, 0, { gate, read, context, mode });
          expect(recordViolations(record)).toEqual([]);
          expect(record.decisions.link.effect).toBe(linkEffect);
          if (record.decisions.read !== null && gate.readInputs.length > 0)
            expect(record.decisions.read.effect).toBe(readEffect);
          if (mode === 'enforce' && (linkEffect === 'deny' || readEffect === 'deny')) expect(contents).toEqual([]);
          expect(contents.length).toBe(record.stages.delivered?.items.length ?? 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
