import { describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import type { LinkReader, ReadAnswer } from '../../src/flow/link-reader.ts';
import { answerOf } from '../../src/flow/link-reader.ts';
import {
  cappedLink,
  discoverLink,
  type FlowMode,
  judgeRead,
  type LinkStep,
  linkRefused,
  readFailed,
  sendRead,
  skipRead,
  startLink,
  startLinkNow,
} from '../../src/flow/link-steps.ts';
import { runLinkFlow } from '../../src/flow/run-link-flow.ts';
import { hasLazyEvidence } from '../../src/gate/read-evidence.ts';
import type { LinkContext } from '../../src/record/build-stages.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';

// The flow's own steps against the real gate and the shipped default policy, with fake readers: each verdict, each
// stage, and fail closed whatever a reader does.

const context: LinkContext = {
  server: 'docs',
  tool: 'find',
  responseId: 7,
  protocolVersion: '2025-11-25',
  client: null,
  serverInfo: null,
};
const at = new Date('2026-12-03T10:00:00.000Z');
const now = () => at;
const uri = 'demo://doc/1';
const link = { type: 'resource_link', uri, name: 'doc', mimeType: 'text/plain' };
const text = (body: string) => ({ uri, mimeType: 'text/plain', text: body });
const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]).toString('base64');

async function gateWith(readTimeoutMs = 10_000): Promise<Gate> {
  return createGate(await defaultPolicyWith({ readTimeoutMs }));
}

async function stepOf(gate: Gate, of: Readonly<Record<string, unknown>> = link, mode?: FlowMode): Promise<LinkStep> {
  return startLink(gate, {
    link: of,
    discovered: discoverLink(of, 2, context, at),
    linkServer: 'docs',
    ...(mode === undefined ? {} : { mode }),
  });
}

function valid(record: LinkRecord): LinkRecord {
  expect(recordViolations(record)).toEqual([]);
  return record;
}

describe('the flow steps', () => {
  test('a denied link is never read: link-only, only `discovered` filled, next at the policy', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate, { type: 'resource_link', uri: 'file:///etc/passwd', name: 'p' });
    expect(linkRefused(step)).toBe(true);
    const record = valid(skipRead(step, 'ignored: the deny says why'));
    expect(record.verdict).toBe('link-only');
    expect(record.stages.discovered).toMatchObject({ contentIndex: 2, tool: 'find', server: 'docs' });
    expect(record.stages.requested).toBeNull();
    expect(record.decisions.link.reasons.map((r) => r.code)).toEqual(['uri.scheme-not-allowed']);
    expect(record.next?.boundary).toBe('policy');
  });

  test('an allowed read delivers the whole answer: body-obtained, all four stages', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate);
    expect(linkRefused(step)).toBe(false);
    const requested = sendRead(gate, step, at, 41);
    expect(requested).toMatchObject({ requestId: 41, server: 'docs', deadlineMs: 10_000, transport: 'resources/read' });
    const judged = await judgeRead(
      gate,
      step,
      { result: { contents: [text('hello')] } },
      { requested, elapsedMs: 3, now },
    );
    const record = valid(judged.record);
    expect(record.verdict).toBe('body-obtained');
    expect(record.stages.received).toMatchObject({ itemCount: 1, textItems: 1, elapsedMs: 3 });
    expect(record.stages.delivered).toMatchObject({ items: [0], characters: 5 });
    expect(judged).toMatchObject({ complete: true, delivery: 'whole', deliver: [0], delivered: [text('hello')] });
  });

  test("a complete read's record and the evidence in it are built only when the record is read", async () => {
    const gate = await gateWith();
    const step = await stepOf(gate);
    let verdict: object | null = null;
    // the gate's own verdict, seen on its way through (the guard checks it without building its evidence)
    const seeing: Gate = {
      ...gate,
      async decideReadDetailed(input: unknown) {
        const v = await gate.decideReadDetailed(input);
        verdict = v;
        return v;
      },
    };
    const requested = sendRead(gate, step, at);
    const judged = await judgeRead(
      seeing,
      step,
      { result: { contents: [text('hello')] } },
      { requested, elapsedMs: 2, now },
    );
    expect(judged).toMatchObject({ complete: true, delivery: 'whole', deliver: [0] });
    expect(verdict).not.toBeNull();
    expect(hasLazyEvidence(verdict as unknown as object)).toBe(true);
    const record = valid(judged.record);
    expect(hasLazyEvidence(verdict as unknown as object)).toBe(false);
    expect(record.stages.received?.items).toMatchObject([{ index: 0, carrier: 'text', bytes: 5, kind: 'text' }]);
    expect(record.stages.received?.items[0]?.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(judged.record).toBe(record);
  });

  test('a partial read delivers only the allowed items: partially-interpreted, delivery `some`', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate);
    const answer = { result: { contents: [text('hello'), text('a\u0000b')] } };
    const judged = await judgeRead(gate, step, answer, { requested: sendRead(gate, step, at), elapsedMs: 1, now });
    expect(valid(judged.record).verdict).toBe('partially-interpreted');
    expect(judged.decision.effect).toBe('partial');
    expect(judged).toMatchObject({ delivery: 'some', deliver: [0], delivered: [text('hello')] });
    expect(judged.dropped).toEqual([{ index: 1, effect: 'partial', codes: ['content.unsafe-text'] }]);
  });

  test('a read denied as a whole delivers nothing: link-only, `received` filled, delivery `none`', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate);
    const answer = { result: { contents: [text('hello'), { uri, mimeType: 'application/octet-stream', blob: elf }] } };
    const judged = await judgeRead(gate, step, answer, { requested: sendRead(gate, step, at), elapsedMs: 1, now });
    const record = valid(judged.record);
    expect(record.verdict).toBe('link-only');
    expect(record.stages.received?.itemCount).toBe(2);
    expect(record.stages.delivered).toBeNull();
    expect(judged.decision.reasons.map((r) => r.code)).toContain('content.executable');
    expect(judged).toMatchObject({ delivery: 'none', delivered: [] });
  });

  test('a JSON-RPC error answer is unverifiable and passes on as it came', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate);
    const answer = answerOf({ jsonrpc: '2.0', id: 5, error: { code: -32002, message: 'no such resource' } });
    expect(answer).toEqual({ error: { code: -32002, message: 'no such resource' }, requestId: 5 });
    const judged = await judgeRead(gate, step, answer, { requested: sendRead(gate, step, at, 5), elapsedMs: 1, now });
    const record = valid(judged.record);
    expect(record.verdict).toBe('unverifiable');
    expect(record.stages.received?.error).toEqual({ code: -32002, message: 'no such resource' });
    expect(judged).toMatchObject({ complete: false, delivery: 'whole', delivered: [] });
  });

  test('`input_required` that the policy does not let the host answer ends the read: unverifiable, delivery `none`', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate);
    const answer = { result: { resultType: 'input_required', inputRequests: { a: { method: 'elicitation/create' } } } };
    const judged = await judgeRead(gate, step, answer, { requested: sendRead(gate, step, at), elapsedMs: 1, now });
    expect(valid(judged.record).verdict).toBe('unverifiable');
    expect(judged.record.stages.received?.inputRequests).toEqual(['elicitation/create']);
    expect(judged.delivery).toBe('none');
  });

  test.each([
    [{ kind: 'timeout', deadlineMs: 250 } as const, 'read.timeout', 'read.readTimeoutMs'],
    [{ kind: 'budget' } as const, 'read.timeout', 'budgetMs'],
    [{ kind: 'failed', why: 'the connection closed before an answer' } as const, 'read.error', 'read'],
  ])('a read that ends without an answer (%o) is denied: unverifiable', async (failure, code, rule) => {
    const gate = await gateWith();
    const step = await stepOf(gate);
    const { decision, record } = readFailed(gate, step, sendRead(gate, step, at, 9), failure);
    expect(decision.effect).toBe('deny');
    expect(decision.reasons).toMatchObject([{ code, rule, stage: 'read' }]);
    expect(valid(record).verdict).toBe('unverifiable');
    expect(record.stages.requested?.requestId).toBe(9);
    expect(record.stages.received).toBeNull();
  });

  test('observe mode reads a denied link and delivers it, recording `wouldDeny`', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate, { type: 'resource_link', uri: 'file:///etc/passwd', name: 'p' }, 'observe');
    expect(linkRefused(step)).toBe(false);
    const answer = { result: { contents: [{ uri: 'file:///etc/passwd', mimeType: 'text/plain', blob: elf }] } };
    const judged = await judgeRead(gate, step, answer, { requested: sendRead(gate, step, at), elapsedMs: 1, now });
    expect(judged.delivery).toBe('whole');
    expect(judged.decision.effect).toBe('deny');
    expect(valid(judged.record).wouldDeny).toBe(true);
  });

  test('a step is plain JSON, and a kept step without a mode is enforced', async () => {
    const gate = await gateWith();
    const step = await stepOf(gate, { type: 'resource_link', uri: 'file:///etc/passwd', name: 'p' }, 'observe');
    const kept = JSON.parse(JSON.stringify(step)) as LinkStep;
    expect(kept).toEqual(step);
    delete kept.mode;
    expect(linkRefused(kept)).toBe(true);
  });
});

describe('runLinkFlow with fake readers', () => {
  const options = (gate: Gate, read: LinkReader) => ({ gate, read, context, mode: 'enforce' as const, now });

  test('the one-call form records what the steps record', async () => {
    const gate = await gateWith();
    const answer: ReadAnswer = { result: { contents: [text('hello'), text('a\u0000b')] }, requestId: 3 };
    const flowed = await runLinkFlow(
      link,
      2,
      options(gate, async () => answer),
    );
    const step = await stepOf(gate);
    const requested = sendRead(gate, step, at, 3);
    const stepped = await judgeRead(gate, step, answer, { requested, elapsedMs: 0, now });
    const { elapsedMs: _, ...received } = flowed.record.stages.received ?? { elapsedMs: 0 };
    const { elapsedMs: __, ...expected } = stepped.record.stages.received ?? { elapsedMs: 0 };
    expect(received).toEqual(expected);
    expect({ ...flowed.record, stages: { ...flowed.record.stages, received: null } }).toEqual({
      ...stepped.record,
      stages: { ...stepped.record.stages, received: null },
    });
    expect(flowed.contents).toEqual(stepped.delivered);
  });

  test('a reader that throws fails closed: `read.error`, unverifiable, nothing delivered', async () => {
    const gate = await gateWith();
    const flowed = await runLinkFlow(
      link,
      0,
      options(gate, () => {
        throw new Error('socket hang up at https://user:secret@example.com/?token=abc');
      }),
    );
    expect(valid(flowed.record).verdict).toBe('unverifiable');
    expect(flowed.record.decisions.read?.reasons.map((r) => r.code)).toEqual(['read.error']);
    expect(JSON.stringify(flowed.record)).not.toContain('secret');
    expect(flowed.contents).toEqual([]);
  });

  test('a reader that never answers ends at the deadline: `read.timeout`, unverifiable', async () => {
    const gate = await gateWith(50);
    const hang: LinkReader = (_params, signal) =>
      new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted by the deadline')), { once: true }),
      );
    const flowed = await runLinkFlow(link, 0, options(gate, hang));
    expect(valid(flowed.record).verdict).toBe('unverifiable');
    expect(flowed.record.decisions.read?.reasons.map((r) => r.code)).toEqual(['read.timeout']);
    expect(flowed.contents).toEqual([]);
  });

  test.each([
    ['null', null],
    ['a string', 'contents'],
    ['an empty object', {}],
    ['a result that is not an object', { result: 'hello' }],
    ['an error without a code', { error: { message: 'x' } }],
  ])('a reader that gives %s fails closed, never throws', async (_name, garbage) => {
    const gate = await gateWith();
    const flowed = await runLinkFlow(
      link,
      0,
      options(gate, async () => garbage as unknown as ReadAnswer),
    );
    expect(valid(flowed.record).verdict).toBe('unverifiable');
    expect(flowed.record.decisions.read?.effect).toBe('deny');
    expect(flowed.record.decisions.read?.reasons[0]?.message).toContain('the reader gave no read answer');
    expect(flowed.contents).toEqual([]);
  });

  test('a result whose items are garbage is denied, not delivered', async () => {
    const gate = await gateWith();
    const garbage = { result: { contents: [42, { uri, text: 7 }, { uri, blob: '%%%' }] } };
    const flowed = await runLinkFlow(
      link,
      0,
      options(gate, async () => garbage),
    );
    expect(flowed.record.decisions.read?.effect).toBe('deny');
    expect(valid(flowed.record).verdict).toBe('link-only');
    expect(flowed.contents).toEqual([]);
  });
});

describe('the objects the steps make', () => {
  const discovered = discoverLink(link, 2, context, at);

  test('the link line the gate is asked about has its members in one order, optional ones in place', async () => {
    const real = await gateWith();
    const lines: string[] = [];
    // a gate of its own is asked through `decide`: it sees the line as made
    const seeing: Gate = {
      ...real,
      decide: async (line: unknown) => {
        lines.push(JSON.stringify(line));
        return real.decide(line);
      },
    };
    const base = { link, discovered, linkServer: 'docs' };
    await startLinkNow(seeing, base);
    await startLinkNow(seeing, { ...base, readFrom: null });
    await startLinkNow(seeing, { ...base, readFrom: 'mirror', seen: true });
    await startLinkNow(seeing, { ...base, readFrom: null, seen: false });
    const linkText = JSON.stringify(link);
    expect(lines).toEqual([
      `{"stage":"link","server":"docs","readFrom":"docs","link":${linkText}}`,
      `{"stage":"link","server":"docs","link":${linkText}}`,
      `{"stage":"link","server":"docs","readFrom":"mirror","link":${linkText},"discovered":true}`,
      `{"stage":"link","server":"docs","link":${linkText},"discovered":false}`,
    ]);
  });

  test('a step is the same JSON however it was made, `mode` last when there is one', async () => {
    const gate = await gateWith();
    const keys = ['link', 'linkServer', 'readFrom', 'discovered', 'linkDecision'];
    const input = { link, discovered, linkServer: 'docs' };
    const now = startLinkNow(gate, input) as LinkStep;
    expect(Object.keys(now)).toEqual(keys);
    expect(now.link).toBe(link);
    const observed = await startLink(gate, { ...input, mode: 'observe' });
    expect(Object.keys(observed)).toEqual([...keys, 'mode']);
    const capped = cappedLink({ ...input, mode: 'enforce', readFrom: null }, now.linkDecision);
    expect(Object.keys(capped)).toEqual([...keys, 'mode']);
    expect(JSON.stringify(capped)).toBe(JSON.stringify({ ...now, readFrom: null, mode: 'enforce' }));
    // a malformed item is kept as no link, its decision the gate's deny
    const malformed = startLinkNow(gate, { ...input, link: { type: 'resource_link', uri: 7 } }) as LinkStep;
    expect(Object.keys(malformed)).toEqual(keys);
    expect(malformed.link).toBeNull();
    expect(malformed.linkDecision.reasons.map((r) => r.code)).toEqual(['input.invalid']);
  });
});
