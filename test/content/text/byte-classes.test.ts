// The byte classifier in front of the exact UTF-8 scan (src/content/text/byte-classes.ts): the module matches its
// WebAssembly text, never passes a block that holds an unsafe or invisible character, and reports the marks a text
// holds exactly; the markup screen it lets the sniff skip finds nothing in text without those marks.
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { byteClassesWasmFile, byteClassesWasmSource } from '../../../scripts/byte-classes-wasm.ts';
import { classifiedMarks, classifyBlocks } from '../../../src/content/text/byte-classes.ts';
import { mayHoldActiveMarkupUtf8, textReadingMarks } from '../../../src/content/svg-html/markup-screen.ts';

// what the exact scan reports a finding for at `at`, by the bytes there (unsafe-utf8.ts, `Found.note`); invisible
// characters only when looked for
const invisibleE280 = new Set<number>();
const invisibleE281 = new Set<number>();
for (let c = 0x200b; c <= 0x2069; c++) {
  if ((c >= 0x2010 && c <= 0x2029) || (c >= 0x202f && c <= 0x205f) || c === 0x2065) continue;
  (c < 0x2040 ? invisibleE280 : invisibleE281).add(0x80 | (c & 0x3f));
}
function startsFinding(bytes: Uint8Array, at: number, invisible: boolean): boolean {
  const [b, second, third] = [bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0];
  if (b < 0x20) return b !== 0x09 && b !== 0x0a && b !== 0x0d;
  if (b === 0xc2) return second >= 0x80 && second <= 0x9f;
  if (b === 0xf3) return second === 0xa0;
  if (!invisible) return false;
  if (b === 0xd8) return second === 0x9c;
  if (b === 0xe1) return second === 0xa0 && third === 0x8e;
  if (b === 0xef) return second === 0xbb && third === 0xbf;
  if (b === 0xe2) return (second === 0x80 && invisibleE280.has(third)) || (second === 0x81 && invisibleE281.has(third));
  return false;
}

function flaggedBlocks(bytes: Uint8Array, invisible: boolean): Set<number> {
  const flagged = new Set<number>();
  classifyBlocks(bytes, invisible, (from, to) => {
    for (let at = from; at < to; at++) flagged.add(at);
  });
  return flagged;
}

describe('classifyBlocks', () => {
  test('the committed module is byte-classes.wat assembled (run `npx tsx scripts/gen-byte-classes.ts` after an edit)', async () => {
    expect(await readFile(byteClassesWasmFile, 'utf8')).toBe(await byteClassesWasmSource());
  });

  test.each([true, false])(
    'passes no block holding a control character or a lead with the bytes that make a finding, at every lane (invisible: %s)',
    (invisible) => {
      // every byte a finding starts with, followed by every pair of bytes that may follow it (and some that may not)
      const leads = [0xc2, 0xd8, 0xe1, 0xe2, 0xef, 0xf3];
      const after = [0x00, 0x20, 0x41, 0x7f, ...Array.from({ length: 64 }, (_, i) => 0x80 + i), 0xc2, 0xe2];
      const triples: number[][] = [];
      for (let b = 0; b < 0x20; b++) triples.push([b, 0x41, 0x41]);
      for (const lead of leads)
        for (const second of after) for (const third of after) triples.push([lead, second, third]);
      // one triple per 32 bytes, at each lane of a block in turn, in filler that marks nothing
      const bytes = Buffer.alloc(triples.length * 32 + 5, 0x61);
      triples.forEach((triple, i) => bytes.set(triple, i * 32 + (i % 16)));
      const flagged = flaggedBlocks(bytes, invisible);
      let findings = 0;
      for (let at = 0; at < bytes.length; at++) {
        if (!startsFinding(bytes, at, invisible)) continue;
        findings += 1;
        expect(flagged.has(at), `byte ${at}: ${bytes.subarray(at, at + 3).toString('hex')}`).toBe(true);
      }
      expect(findings).toBeGreaterThan(invisible ? 1000 : 100);
      // and it passes ordinary text: an em dash, curly quotes, accents, CJK and fullwidth punctuation
      const prose = Buffer.from('café — “quoted” ‘x’ naïve 行李，。 déjà vu\n'.repeat(64), 'utf8');
      expect(flaggedBlocks(prose, invisible).size).toBeLessThanOrEqual(prose.length % 16);
    },
  );

  test('calls back for every finding any bytes hold, whatever was classified before (property)', () => {
    const byte = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(0x61, 0x20, 0x0a, 0x80, 0x9c, 0xa0, 0xbb, 0xbf, 0x8e, 0x8b, 0xaa, 0xa6) },
      { weight: 1, arbitrary: fc.constantFrom(0x00, 0x1b, 0xc2, 0xd8, 0xe1, 0xe2, 0xef, 0xf3) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(
        fc.array(byte, { maxLength: 300 }),
        fc.nat({ max: 4000 }),
        fc.boolean(),
        (list, before, invisible) => {
          // a longer text first leaves its bytes in the module's memory past the end of this one
          classifyBlocks(Buffer.alloc(before, 0x1b), invisible, () => undefined);
          const bytes = Uint8Array.from(list);
          const flagged = flaggedBlocks(bytes, invisible);
          for (let at = 0; at < bytes.length; at++)
            if (startsFinding(bytes, at, invisible)) expect(flagged.has(at)).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });

  test('says which marks a text holds by their classes (`:` `<` `=`, `&`, `[` `\\`), and that it may hold any other byte (property)', () => {
    const classOf = [[0x3a, 0x3c, 0x3d], [0x26], [0x5b, 0x5c]];
    expect(classOf.flat().sort()).toEqual([...classifiedMarks].sort());
    const byte = fc.oneof(fc.constantFrom(...classifiedMarks, 0x61, 0xe2, 0x80), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 200 }), (list) => {
        const mayHold = classifyBlocks(Uint8Array.from(list), true, () => undefined);
        for (const marks of classOf)
          for (const mark of marks) expect(mayHold(mark)).toBe(marks.some((m) => list.includes(m)));
        for (const other of [0x00, 0x41, 0x3b, 0x5d, 0x22]) expect(mayHold(other)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('textReadingMarks', () => {
  test('the markup screen finds nothing in text holding none of them, whatever else it spells (property)', () => {
    const piece = fc.constantFrom(
      'script',
      'javascript',
      'data',
      'style',
      'srcdoc',
      'onload',
      'on',
      'iframe',
      '#',
      ' ',
      '\t',
      '\n',
      '>',
      '/',
      '"',
      'x',
      'é',
      '&',
      '<',
      '=',
      ':',
      '\\',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const bytes = Buffer.from(pieces.join(''), 'utf8');
        if (textReadingMarks.some((m) => bytes.includes(m))) return;
        expect(mayHoldActiveMarkupUtf8(bytes)).toBe(false);
      }),
      { numRuns: 3000 },
    );
    // the same words with their marks are found
    expect(mayHoldActiveMarkupUtf8(Buffer.from('<script>'))).toBe(true);
    expect(mayHoldActiveMarkupUtf8(Buffer.from('javascript:'))).toBe(true);
  });
});
