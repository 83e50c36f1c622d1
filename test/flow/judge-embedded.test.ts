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
