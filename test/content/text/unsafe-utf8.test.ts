// The one-pass byte classifier (`scanUtf8`) against the byte searches it replaced, kept here as the oracle: the same
// findings, word for word, for any string (every unsafe and invisible code point, and their neighbours) and for any
// bytes, wherever the bytes start in their buffer (the pass reads four bytes at a time from a 4-byte boundary).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findInvisibleText, findTagCharacters, findUnsafeText } from '../../../src/content/text/unsafe-text.ts';
import { scanUtf8, scanUtf8Marking } from '../../../src/content/text/unsafe-utf8.ts';

// ---- the oracle: `findUnsafeUtf8` and `findInvisibleUtf8` as they were in src/content/text/unsafe-text.ts ----
const invisibleAfterE280 = new Uint8Array(256);
const invisibleAfterE281 = new Uint8Array(256);
for (let c = 0x200b; c <= 0x2069; c++) {
  if ((c >= 0x2010 && c <= 0x2029) || (c >= 0x202f && c <= 0x205f) || c === 0x2065) continue;
  const table = c < 0x2040 ? invisibleAfterE280 : invisibleAfterE281;
  table[0x80 | (c & 0x3f)] = 1;
}

function findInvisibleUtf8(bytes: Buffer, from = 0): string | null {
  let first = -1;
  const earlier = (at: number): void => {
    if (at !== -1 && (first === -1 || at < first)) first = at;
  };
  earlier(findSequence(bytes, from, 0xd8, (at) => bytes[at + 1] === 0x9c));
  earlier(findSequence(bytes, from, 0xe1, (at) => bytes[at + 1] === 0xa0 && bytes[at + 2] === 0x8e));
  earlier(findSequence(bytes, from + 1, 0xef, (at) => bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf));
  earlier(
    findSequence(bytes, from, 0xe2, (at) => {
      const second = bytes[at + 1];
      const third = bytes[at + 2] ?? 0;
      return second === 0x80 ? invisibleAfterE280[third] === 1 : second === 0x81 && invisibleAfterE281[third] === 1;
    }),
  );
  if (first === -1) return null;
  const code = bytes.toString('utf8', first, first + 3).codePointAt(0) ?? 0;
  const offset = bytes.toString('utf8', from, first).length;
  return `text holds bidi controls or zero-width characters (u+${code.toString(16).toUpperCase().padStart(4, '0')} at offset ${offset})`;
}

function findSequence(bytes: Buffer, from: number, lead: number, rest: (at: number) => boolean): number {
  for (let at = bytes.indexOf(lead, from); at !== -1; at = bytes.indexOf(lead, at + 1)) if (rest(at)) return at;
  return -1;
}

// the C0 controls a terminal acts on besides NUL and ESC (terminal-c0.real-host.test.ts asks tmux)
const plainControls = [0x05, 0x07, 0x08, 0x0b, 0x0c, 0x0e, 0x0f, 0x18, 0x1a];
const tagLead = Buffer.from([0xf3, 0xa0]);

function findUnsafeUtf8(bytes: Buffer): string[] {
  const found: string[] = [];
  if (bytes.indexOf(0) !== -1) found.push('text holds nul characters');
  const esc = bytes.indexOf(0x1b);
  if (esc !== -1) {
    const next = bytes[esc + 1];
    const kind =
      next === 0x5b
        ? 'csi'
        : next === 0x5d
          ? 'osc'
          : next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f
            ? 'string-control'
            : 'esc';
    found.push(`text holds terminal escape sequences (${kind} at offset ${bytes.toString('utf8', 0, esc).length})`);
  }
  for (let at = bytes.indexOf(0xc2); at !== -1; at = bytes.indexOf(0xc2, at + 1)) {
    const next = bytes[at + 1] ?? 0;
    if (
      next === 0x8d ||
      next === 0x8e ||
      next === 0x8f ||
      next === 0x90 ||
      next === 0x98 ||
      (next >= 0x9a && next <= 0x9f)
    ) {
      found.push('text holds c1 control characters');
      break;
    }
  }
  if (plainControls.some((c) => bytes.indexOf(c) !== -1))
    found.push('text holds control characters a terminal acts on');
  if (bytes.indexOf(tagLead) !== -1) {
    const tags = findTagCharacters(bytes.toString('utf8'));
    if (tags !== null) found.push(tags);
  }
  return found;
}
// ---- end of the oracle ----

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
// every code point either scan reports, and the ones next to them
const unsafeCodePoints = [
  ...range(0x00, 0x20),
  ...range(0x7e, 0xa0),
  '\u00c2',
  '\u0600',
  '\u061b',
  '\u061c',
  '\u061d',
  '\u1800',
  '\u180d',
  '\u180e',
  '\u180f',
  ...range(0x2000, 0x2070),
  '\ufefe',
  '\ufeff',
  '\ufffd',
  ...range(0xe0000, 0xe0080),
  '\u{1f3f4}',
  '\u{1f600}',
];
// sequences whose meaning depends on what follows: escape introducers, emoji subdivision flags, lone TAG runs
const sequences = [
  '\u001b[',
  '\u001b]',
  '\u001bP',
  '\u001bX',
  '\u001b^',
  '\u001b_',
  '\u001bc',
  '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
  '\u{1f3f4}\u{e0069}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065}\u{e007f}',
  '\u{e0041}\u{e0042}',
];

const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
  { weight: 4, arbitrary: fc.constantFrom(...unsafeCodePoints) },
  { weight: 1, arbitrary: fc.constantFrom(...sequences) },
  { weight: 2, arbitrary: fc.constantFrom('plain ascii text, ', 'more words\n', 'café ', '行李 ', '— ') },
);
const text = fc.array(unit, { maxLength: 40 }).map((parts) => parts.join(''));

// `bytes` placed `shift` bytes into a larger buffer, so the pass starts anywhere against a 4-byte boundary
function placed(bytes: Uint8Array, shift: number): Buffer {
  const host = Buffer.alloc(bytes.length + shift + 3, 0x41);
  host.set(bytes, shift);
  return host.subarray(shift, shift + bytes.length);
}

// what the sniff asked of the old functions: unsafe over all the bytes, invisible over the text from `from` on
function oracle(bytes: Buffer, from: number) {
  return { unsafe: findUnsafeUtf8(bytes), invisible: findInvisibleUtf8(bytes.subarray(from)) };
}

describe('scanUtf8', () => {
  test("gives the old byte searches' findings for any text, with and without a byte order mark (property)", () => {
    fc.assert(
      fc.property(text, fc.boolean(), fc.integer({ min: 0, max: 7 }), (t, bom, shift) => {
        const bytes = placed(Buffer.from(bom ? `\ufeff${t}` : t, 'utf8'), shift);
        const from = bom ? 3 : 0;
        expect(scanUtf8(bytes, from, true)).toEqual(oracle(bytes, from));
        expect(scanUtf8(bytes, from, false)).toEqual({ unsafe: findUnsafeUtf8(bytes), invisible: null });
      }),
      { numRuns: 6000 },
    );
  });

  test("gives the old byte searches' findings for any bytes, valid UTF-8 or not (property)", () => {
    // bytes that start, continue or complete the sequences the pass looks for, among any others
    const byte = fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 255 }) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          0x00,
          0x09,
          0x0a,
          0x0d,
          0x1b,
          0x1f,
          0x20,
          0x41,
          0x5b,
          0x5d,
          0x7f,
          0x80,
          0x81,
          0x8e,
          0x9c,
          0x9f,
          0xa0,
          0xa8,
          0xaa,
          0xbb,
          0xbf,
          0xc2,
          0xd8,
          0xe1,
          0xe2,
          0xef,
          0xf3,
        ),
      },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 48 }), fc.nat(), fc.integer({ min: 0, max: 7 }), (list, at, shift) => {
        const bytes = placed(Uint8Array.from(list), shift);
        const from = list.length === 0 ? 0 : at % (list.length + 1);
        expect(scanUtf8(bytes, from, true)).toEqual(oracle(bytes, from));
      }),
      { numRuns: 6000 },
    );
  });

  test('reports what the string scans report for the text (property)', () => {
    fc.assert(
      fc.property(text, (t) => {
        const found = scanUtf8(Buffer.from(t, 'utf8'), 0, true);
        expect(found.unsafe).toEqual(findUnsafeText(t));
        expect(found.invisible).toBe(findInvisibleText(t));
      }),
      { numRuns: 3000 },
    );
  });

  test.each(unsafeCodePoints)('finds %j anywhere in a long text, as the oracle does', (c) => {
    // long enough that the character sits in the four-bytes-at-a-time part, at each of the four places in a word
    for (let pad = 0; pad < 4; pad += 1) {
      const bytes = Buffer.from(`${'x'.repeat(64 + pad)}${c}${'y'.repeat(64)}`, 'utf8');
      expect(scanUtf8(bytes, 0, true)).toEqual(oracle(bytes, 0));
    }
  });
});

// the C0 controls the scan classes (NUL, ESC and the terminal's), each seen wherever it stands: the classifier stops at
// every block holding one, and the bytes after the last whole block are read one by one
const classedControls = [0x00, 0x1b, ...plainControls];

describe('scanUtf8Marking', () => {
  test('says whether the bytes hold each classed C0 control exactly, as a search of them does (property)', () => {
    // long enough for the module's chunks of 64 bytes and its blocks of 16, the controls anywhere among other bytes
    const byte = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(0x20, 0x41, 0x09, 0x0a, 0x0d, 0x3c, 0x5b, 0xc3, 0xa9) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 255 }) },
      { weight: 1, arbitrary: fc.constantFrom(...classedControls) },
    );
    fc.assert(
      fc.property(
        fc.array(byte, { maxLength: 400 }),
        fc.integer({ min: 0, max: 7 }),
        fc.boolean(),
        (list, shift, invisible) => {
          const bytes = placed(Uint8Array.from(list), shift);
          const { mayHold } = scanUtf8Marking(bytes, 0, invisible);
          for (const c of classedControls) expect([c, mayHold(c)]).toEqual([c, bytes.indexOf(c) !== -1]);
          // a byte it does not class is never answered absent without a search
          for (const c of [0x09, 0x0a, 0x0d, 0x41]) if (bytes.indexOf(c) !== -1) expect(mayHold(c)).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  test.each(classedControls)('sees control %i at every place in a long text, and not where it is absent', (c) => {
    const none = Buffer.from('words and more words\r\n'.repeat(12), 'latin1');
    expect(scanUtf8Marking(none, 0, true).mayHold(c)).toBe(false);
    for (let at = 0; at < none.length; at += 7) {
      const bytes = Buffer.from(none);
      bytes[at] = c;
      expect(scanUtf8Marking(bytes, 0, true).mayHold(c)).toBe(true);
    }
  });
});
