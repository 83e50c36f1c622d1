import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { decisionMetaKey } from '../../src/flow/decision-meta.ts';
import { gateNotice } from '../../src/flow/gate-notice.ts';
import { judgeEmbedded, judgeEmbeddedItems, judgeMessages } from '../../src/flow/judge-embedded.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { EmbeddedRecord } from '../../src/record/embedded-record.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { telemetrySink } from '../../src/record/link-telemetry.ts';
import { callbackSink, jsonLinesSink } from '../../src/record/record-sink.ts';
import { makeElf, makePng } from '../fixtures/make-bytes.ts';
import { obtainedRecord } from '../record/record-fixtures.ts';

let gate: Gate;
beforeAll(async () => {
  gate = createGate(await loadPolicy('policies/default.yaml'));
});
const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const note = { uri: 'guide://note.txt', mimeType: 'text/plain', text: 'fold the shirts' };
const script = { uri: 'guide://run.sh', mimeType: 'text/plain', text: '#!/bin/sh\nid\n' };
const png = { uri: 'guide://pixel.png', mimeType: 'image/png', blob: makePng().toString('base64') };
const elf = { uri: 'guide://tool.png', mimeType: 'image/png', blob: makeElf().toString('base64') };
const item = (resource: Record<string, unknown>) => ({ type: 'resource', resource });

describe('judgeEmbedded: the one step for embedded resources', () => {
  test('a body allowed whole passes with no notice; its record says delivered', async () => {
    const judged = await judgeEmbedded(gate, png, 3, 'enforce');
    expect(judged).toMatchObject({ withheld: false, notice: null });
    expect(judged.record).toMatchObject({ kind: 'embedded', contentIndex: 3, verdict: 'embedded-delivered' });
  });

  test('a denied body is withheld with the notice every front end uses: codes, policy and the next boundary', async () => {
    const judged = await judgeEmbedded(gate, elf, 0, 'enforce');
    expect(judged.withheld).toBe(true);
    expect(judged.record.verdict).toBe('embedded-withheld');
    expect(judged.notice).toBe(
      gateNotice(
        'withheld the embedded resource',
        { name: null, uri: elf.uri, ref: null },
        judged.decision,
        judged.record.next,
      ),
    );
    // named by its scheme, never its uri
    expect(judged.notice).toMatch(/^linkgate withheld the embedded resource \(scheme `guide`\): content\.executable/);
    expect(judged.notice).not.toContain('tool.png');
    expect(judged.notice).toContain('[policy `default` 1.0.0]; next boundary: policy:');
  });

  test('observe mode records the same decision and withholds nothing', async () => {
    const judged = await judgeEmbedded(gate, elf, 0, 'observe');
    expect(judged).toMatchObject({ withheld: false, notice: null });
    expect(judged.record.verdict).toBe('embedded-withheld');
  });

  test('a list of items: only embedded resources are judged, withheld ones get a text item with the decision', async () => {
    const items = [
      { type: 'text', text: 'hi' },
      item(note),
      { type: 'resource_link', uri: 'x://y', name: 'y' },
      item(script),
    ];
    const judged = await judgeEmbeddedItems(gate, items, 'enforce');
    expect(judged.records.map((r) => [r.contentIndex, r.verdict])).toEqual([
      [1, 'embedded-delivered'],
      [3, 'embedded-withheld'],
    ]);
    expect([...judged.changed.keys()]).toEqual([3]);
    const replaced = judged.changed.get(3) as Record<string, unknown>;
    expect(replaced['type']).toBe('text');
    expect((replaced['_meta'] as Record<string, { effect: string }>)[decisionMetaKey]?.effect).toBe('deny');
  });

  test('prompt and sampling messages: one block or a list per message', async () => {
    const messages = [
      { role: 'user', content: item(script) },
      { role: 'user', content: [{ type: 'text', text: 'ok' }, item(note), item(elf)] },
      { role: 'assistant', content: { type: 'text', text: 'fine' } },
    ];
    const judged = await judgeMessages(gate, messages, 'enforce');
    expect(judged.records.map((r) => r.verdict)).toEqual([
      'embedded-withheld',
      'embedded-delivered',
      'embedded-withheld',
    ]);
    const out = judged.messages as { content: unknown }[];
    expect((out[0]?.content as { type: string }).type).toBe('text');
    expect((out[1]?.content as { type: string }[]).map((c) => c.type)).toEqual(['text', 'resource', 'text']);
    expect(out[2]).toBe(messages[2]);
    expect((await judgeMessages(gate, [{ role: 'user', content: item(note) }], 'enforce')).messages).toBeNull();
    expect(await judgeMessages(gate, 'not a list', 'enforce')).toEqual({ messages: null, records: [] });
  });

  test("each block's record has its position among all the messages' blocks, a tool_result's blocks after it", async () => {
    const toolResult = { type: 'tool_result', toolUseId: 't1', content: [item(elf)] };
    const kept = item(note);
    const messages = [
      { role: 'user', content: item(elf) },
      { role: 'user', content: [item(elf), toolResult, kept] },
    ];
    const judged = await judgeMessages(gate, messages, 'enforce');
    expect(judged.records.map((r) => [r.contentIndex, r.verdict])).toEqual([
      [0, 'embedded-withheld'],
      [1, 'embedded-withheld'],
      [3, 'embedded-withheld'],
      [4, 'embedded-delivered'],
    ]);
    const out = judged.messages as { content: unknown }[];
    const second = out[1]?.content as Record<string, unknown>[];
    expect(second.map((c) => c['type'])).toEqual(['text', 'tool_result', 'resource']);
    expect((second[1]?.['content'] as { type: string }[]).map((c) => c.type)).toEqual(['text']);
    expect(second[2]).toBe(kept);
    expect(toolResult.content[0]?.type).toBe('resource');
  });
});

describe('records through one sink', () => {
  test('the JSON Lines sink keeps embedded records beside link records; a callback sink hands each to its callback', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-embedded-sink-'));
    dirs.push(dir);
    const file = path.join(dir, 'records.jsonl');
    const embedded = (await judgeEmbedded(gate, script, 2, 'enforce')).record;
    const sink = jsonLinesSink(file);
    await sink.write(obtainedRecord());
    await sink.writeEmbedded?.(embedded);
    await sink.close();
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l['kind'] ?? 'link')).toEqual(['link', 'embedded']);

    const links: LinkRecord[] = [];
    const bodies: EmbeddedRecord[] = [];
    const both = callbackSink(
      (r) => void links.push(r),
      (r) => void bodies.push(r),
    );
    await both.write(obtainedRecord());
    await both.writeEmbedded?.(embedded);
    expect([links.length, bodies.length]).toEqual([1, 1]);
    expect('writeEmbedded' in callbackSink(() => {})).toBe(false);
  });

  test('the telemetry wrapper passes every record on to the sink it wraps, and works without one', async () => {
    const links: LinkRecord[] = [];
    const bodies: EmbeddedRecord[] = [];
    const wrapped = telemetrySink(
      callbackSink(
        (r) => void links.push(r),
        (r) => void bodies.push(r),
      ),
    );
    await wrapped.write(obtainedRecord());
    await wrapped.writeEmbedded?.((await judgeEmbedded(gate, note, 0, 'enforce')).record);
    expect([links.length, bodies.length]).toEqual([1, 1]);
    await expect(telemetrySink(undefined).write(obtainedRecord())).resolves.toBeUndefined();
  });
});

// An embedded resource is a body the server already sent: its uri is a label, so a uri the policy would not read
// (`file://`, a scheme of its own, an origin off the allow-list) never withholds it (over-blocking ordinary embeds).
// But a label that points at a cloud metadata or private address, or carries credentials, is an address the model
// may hand to a shell or web-fetch tool the gate does not cover: such an embed is withheld whole, its notice naming
// the link decision's code and never the uri (issue 39, left open: it passed when no refused link stood beside it).
describe('the uri of an embedded resource', () => {
  test.each([
    ['file:///home/dev/notes.md', 'a local file'],
    ['file:///etc/hosts', 'a system file'],
    ['guide://note.txt', 'a scheme of its own'],
    ['https://docs.example.com/guide.md', 'a public https page'],
    ['ui://widget/panel', 'an app widget'],
    ['', 'no uri'],
  ])('%s (%s) is a label: the body is judged as a body and passes', async (uri) => {
    const judged = await judgeEmbedded(gate, { ...note, uri }, 0, 'enforce');
    expect(judged).toMatchObject({ withheld: false, notice: null });
    expect(judged.record.verdict).toBe('embedded-delivered');
  });

  test.each([
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'uri.non-public-address'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'uri.non-public-address'],
    ['http://127.0.0.1:8080/admin', 'uri.non-public-address'],
    ['http://10.0.0.7/internal', 'uri.non-public-address'],
    ['https://deploy:hunter2@docs.example.com/guide.md', 'uri.userinfo'],
  ])('%s is a pointer the model may follow: withheld whole (%s)', async (uri, code) => {
    const judged = await judgeEmbedded(gate, { ...note, uri }, 2, 'enforce');
    expect(judged.withheld).toBe(true);
    expect(judged.decision.effect).toBe('deny');
    expect(judged.decision.reasons.map((r) => r.code)).toContain(code);
    expect(judged.record).toMatchObject({ contentIndex: 2, verdict: 'embedded-withheld' });
    expect(judged.notice).toMatch(/^linkgate withheld the embedded resource \(scheme `https?`\): /);
    expect(judged.notice).toContain(code);
    const host = new URL(uri).hostname;
    expect(judged.notice).not.toContain(host);
    expect(judged.notice).not.toContain('hunter2');
    expect(JSON.stringify(judged.record)).not.toContain('hunter2');
    // observe mode records the same and passes it
    const observed = await judgeEmbedded(gate, { ...note, uri }, 2, 'observe');
    expect(observed).toMatchObject({ withheld: false, notice: null });
    expect(observed.record.verdict).toBe('embedded-withheld');
  });

  test('a list: only the embed with the pointing label is replaced, the ordinary one beside it passes', async () => {
    const items = [
      item({ ...note, uri: 'file:///home/dev/notes.md' }),
      item({ ...note, uri: 'http://169.254.169.254/latest/meta-data/' }),
    ];
    const judged = await judgeEmbeddedItems(gate, items, 'enforce');
    expect([...judged.changed.keys()]).toEqual([1]);
    expect(judged.changed.get(1)?.['text']).toMatch(/uri\.non-public-address/);
    expect(judged.records.map((r) => r.verdict)).toEqual(['embedded-delivered', 'embedded-withheld']);
  });
});
