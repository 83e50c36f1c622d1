// A body held in the byte classifier's memory (src/content/text/byte-classes.ts, `holdBody`): a read's blob is
// decoded there and judged in place. The checks read it exactly as they read a copy, other bytes classified while it
// is held never touch it, and a read's items judge as each does alone, whatever the memory held before: a body that
// waits for file-type and the evidence's digest keep bytes of their own after it is let go.
import { createHash } from 'node:crypto';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { classifyBlocks, holdBody, releaseBody } from '../../../src/content/text/byte-classes.ts';
import { pairSites } from '../../../src/content/text/byte-sites.ts';
import { decideReadDetailed } from '../../../src/gate/decide-read.ts';
import type { ReadInput } from '../../../src/gate/inputs.ts';
import { loadPolicy } from '../../../src/policy/load-policy.ts';
import { decodeStrictBase64 } from '../../../src/read/strict-base64.ts';
import * as make from '../../fixtures/make-bytes.ts';

const policy = await loadPolicy(path.resolve(import.meta.dirname, '../../../policies/default.yaml'));

function flagged(bytes: Uint8Array, invisible: boolean): { blocks: number[]; marks: boolean[] } {
  const blocks: number[] = [];
  const mayHold = classifyBlocks(bytes, invisible, (from) => blocks.push(from));
  return { blocks, marks: [0x3a, 0x3c, 0x3d, 0x26, 0x5b, 0x5c].map((b) => mayHold(b)) };
}

const held = (bytes: Uint8Array): Buffer => {
  const body = holdBody(bytes.length);
  body.set(bytes);
  return body;
};

describe('a body held in the classifier’s memory', () => {
  test('is classified and its pair sites listed as a copy of it is, and classifying other bytes leaves it be (property)', () => {
    const byte = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...Buffer.from('<&:=[\\#%Pstra \t\x1b\x00'), 0xc2, 0x85, 0xe2, 0x80) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 600 }), fc.array(byte, { maxLength: 900 }), (list, other) => {
        const bytes = Uint8Array.from(list);
        const body = held(bytes);
        try {
          expect(body.buffer).not.toBe(bytes.buffer);
          // bytes of another body classified while this one is held go elsewhere
          const otherBytes = Uint8Array.from(other);
          expect(flagged(otherBytes, true)).toEqual(flagged(Uint8Array.from(other), true));
          expect([...pairSites(otherBytes)]).toEqual([...pairSites(Buffer.from(otherBytes))]);
          expect(Buffer.compare(body, bytes)).toBe(0);
          for (const invisible of [false, true]) expect(flagged(body, invisible)).toEqual(flagged(bytes, invisible));
          expect([...pairSites(body)]).toEqual([...pairSites(Buffer.from(bytes))]);
          // a view of the whole of it, made by a check, is read in place too
          const view = new Uint8Array(body.buffer, body.byteOffset, body.length);
          expect(flagged(view, true)).toEqual(flagged(bytes, true));
          expect(Buffer.compare(body, bytes)).toBe(0);
        } finally {
          releaseBody(body);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('two bodies held at once have memories of their own; a body let go frees its memory for the next', () => {
    const first = held(Buffer.from('first body <script'));
    const second = held(Buffer.from('second'));
    expect(second.buffer).not.toBe(first.buffer);
    expect(first.toString()).toBe('first body <script');
    releaseBody(second);
    releaseBody(first);
    const again = holdBody(4);
    expect(again.buffer).toBe(first.buffer);
    releaseBody(again);
  });

  test('a strict decode writes into the buffer it is given, and refuses there what it refuses elsewhere', () => {
    const bytes = make.seededBytes(1000);
    let given: Buffer | null = null;
    const decoded = decodeStrictBase64(bytes.toString('base64'), (n) => {
      given = holdBody(n);
      return given;
    });
    expect(decoded).toBe(given);
    expect(Buffer.compare(decoded as Buffer, bytes)).toBe(0);
    releaseBody(decoded as Buffer);
    const b64 = bytes.toString('base64');
    for (const bad of [
      `${b64.slice(0, 8)}-${b64.slice(9)}`,
      `${b64.slice(0, 8)} ${b64.slice(9)}`,
      `${b64.slice(0, 8)}=${b64.slice(9)}`,
    ])
      expect(decodeStrictBase64(bad, (n) => Buffer.alloc(n))).toBeNull();
  });
});

const LINK = 'guide://manuals/packing';
const blob = (bytes: Buffer) => ({ uri: LINK, blob: bytes.toString('base64') });
const read = (contents: unknown[]): ReadInput => ({
  stage: 'read',
  link: { type: 'resource_link', uri: LINK, name: 'packing' },
  result: { resultType: 'complete', contents },
});
const judged = async (bodies: Buffer[]) =>
  ((await decideReadDetailed(policy, read(bodies.map(blob)))).decision.items ?? []).map((i) => [
    i.effect,
    i.reasons.map((r) => r.code),
  ]);

describe('the items of a read, each decoded into the classifier’s memory', () => {
  // an unknown binary body waits for file-type: judged after the next item was decoded where it was
  const unknown = Buffer.concat([Buffer.from([0, 1, 2, 3]), make.seededBytes(4092)]);
  const pngPadded = Buffer.concat([make.makePng(), Buffer.alloc(unknown.length - make.makePng().length)]);
  const pe = Buffer.concat([make.makePe(), Buffer.alloc(unknown.length - make.makePe().length)]);
  const script = Buffer.from('<p>notes</p><script>alert(1)</script>'.padEnd(unknown.length, ' '));
  const prose = Buffer.from('packing guide café 行李 — fold then roll; '.repeat(200));

  test('judge as each item does alone, in any order', async () => {
    const bodies = [unknown, pngPadded, pe, script, prose, make.makePng()];
    const alone = await Promise.all(bodies.map(async (b) => (await judged([b]))[0]));
    expect(alone[0]).toEqual(['deny', ['content.type-not-allowed']]);
    expect(alone[1]?.[0]).toBe('allow');
    expect(alone[2]?.[0]).toBe('deny');
    expect(alone[3]?.[0]).toBe('deny');
    expect(alone[4]?.[0]).toBe('allow');
    for (const order of [
      [0, 1],
      [0, 2],
      [0, 4],
      [3, 4, 0, 1],
      [1, 0, 5, 3, 2],
      [4, 3, 2, 1, 0],
    ])
      expect(await judged(order.map((i) => bodies[i] as Buffer))).toEqual(order.map((i) => alone[i]));
  });

  test('decisions made at once, each waiting for file-type, judge their own bytes', async () => {
    const results = await Promise.all([judged([unknown]), judged([pngPadded]), judged([unknown, pngPadded])]);
    expect(results).toEqual([
      [['deny', ['content.type-not-allowed']]],
      [['allow', []]],
      [
        ['deny', ['content.type-not-allowed']],
        ['allow', []],
      ],
    ]);
  });

  test('text items are encoded there too, and judge as each does alone', async () => {
    const texts = [
      'packing guide café 行李 — fold then roll; '.repeat(300),
      '<p>notes</p><script>alert(1)</script>',
      'lone \ud800 surrogate',
      '',
    ];
    const items = [...texts.map((t) => ({ uri: LINK, text: t })), blob(unknown), blob(script)];
    const judge = async (list: unknown[]) =>
      ((await decideReadDetailed(policy, read(list))).decision.items ?? []).map((i) => [
        i.effect,
        i.reasons.map((r) => r.code),
      ]);
    const alone = await Promise.all(items.map(async (item) => (await judge([item]))[0]));
    expect(alone[0]?.[0]).toBe('allow');
    expect(alone[1]?.[0]).toBe('deny');
    for (const order of [
      [4, 0, 1, 2, 3, 5],
      [1, 0, 5, 4, 3, 2],
    ])
      expect(await judge(order.map((i) => items[i]))).toEqual(order.map((i) => alone[i]));
    const verdict = await decideReadDetailed(policy, read(items.slice(0, 3)));
    await judge([blob(script)]);
    const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
    expect(verdict.evidence.map((e) => e.sha256)).toEqual(texts.slice(0, 3).map((t) => sha(Buffer.from(t, 'utf8'))));
  });

  test('the evidence’s digest is of the item’s own bytes, read after other bodies were judged', async () => {
    const verdict = await decideReadDetailed(policy, read([blob(prose), blob(pngPadded)]));
    await judged([script, unknown]);
    const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
    expect(verdict.evidence.map((e) => e.sha256)).toEqual([sha(prose), sha(pngPadded)]);
  });
});
