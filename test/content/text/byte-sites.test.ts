// The byte-pair sites of binary bodies (src/content/text/byte-sites.ts): the module lists every offset where a pair
// the polyglot checks start at stands, at every lane and chunk position, whatever the module's memory held before;
// the sniffed markup screen and the PDF-structure search that read only those offsets answer as a search of every
// byte does.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { spellsAt } from '../../../src/content/ascii-bytes.ts';
import { binaryHoldsPdfStructure } from '../../../src/content/sniff-pdf.ts';
import { mayHoldActiveMarkupUtf8, sniffedTriggerAt } from '../../../src/content/svg-html/markup-screen.ts';
import { answerOfSites, keepingPairSites, pairSites } from '../../../src/content/text/byte-sites.ts';
import { classifyBlocks } from '../../../src/content/text/byte-classes.ts';

const isLetter = (b: number): boolean => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d;

// the pairs `pairSites` promises to list, by their definition, one offset at a time
function startsPair(bytes: Uint8Array, at: number): boolean {
  const [before, b, next] = [bytes[at - 1] ?? -1, bytes[at] ?? -1, bytes[at + 1] ?? -1];
  if (b === 0x3c && 'soeahlif'.includes(String.fromCharCode(next | 0x20))) return true;
  if (b === 0x26 && (next === 0x23 || (next | 0x20) === 0x63)) return true;
  if ((b | 0x20) === 0x74 || (b | 0x20) === 0x61 || [0x09, 0x0a, 0x0d, 0x3b].includes(b))
    if (next === 0x3a) return true;
  if (next === 0x3d && (isSpace(b) || (isLetter(b) && isLetter(before)))) return true;
  return ['%P', '%%', 'st', 'tr'].some((pair) => b === pair.charCodeAt(0) && next === pair.charCodeAt(1));
}

// the sniffed screen as it was before the sites: a native search for each mark, the same check at each
const sniffedTags = ['script', 'object', 'embed', 'applet', 'handler', 'listener', 'hta:', 'style', 'iframe', 'frame'];
const words = (list: string[]) => list.map((w) => Buffer.from(w, 'latin1'));
function everyByteSniffed(bytes: Buffer): boolean {
  for (let at = 0; at < bytes.length; at++) {
    const b = bytes[at];
    if (b === 0x3c && words(sniffedTags).some((w) => spellsAt(bytes, at + 1, w))) return true;
    // `&`, `:` and `=` are checked by the screen's own rule for the pair that ends or starts at them
    if ((b === 0x26 || b === 0x3a || b === 0x3d) && sniffedTriggerAt(bytes, b === 0x26 ? at : at - 1)) return true;
  }
  return false;
}

// the PDF structure search as it was: `<<` and any marker anywhere
const everyBytePdf = (bytes: Buffer): boolean =>
  bytes.includes('<<') && ['%PDF-', '%%EOF', 'startxref', 'trailer'].some((m) => bytes.includes(m));

const triggers = [
  '<script',
  '<IFRAME',
  '<hta:app',
  '&#106;&#97;',
  '&#x6a;&#x61;',
  'javascript:',
  'java\nscript:',
  'javascript&colon;',
  'javascript&Tab;:',
  'DATA:',
  'vbscript:',
  ' onload=',
  '/onerror =',
  ' style=',
  ' srcdoc\t=',
  '"attributename=',
];
const pdfTriggers = ['<<', '%PDF-', '%%EOF', 'startxref', 'trailer'];

describe('pairSites', () => {
  test('lists every pair at every lane of a 64-byte chunk, and near the end of the bytes', () => {
    const pairs = [
      '<s',
      '<O',
      '<f',
      '&#',
      '&c',
      '&C',
      't:',
      'A:',
      '\t:',
      '\n:',
      '\r:',
      ';:',
      'ab=',
      ' =',
      '\t=',
      '%P',
      '%%',
      'st',
      'tr',
    ];
    for (const pair of pairs)
      for (let lane = 0; lane < 70; lane++)
        for (const tail of [0, 1, 2, 17]) {
          // filler that starts no pair (`.`), the pair at `lane`, then `tail` more bytes
          const bytes = Buffer.alloc(lane + pair.length + tail, 0x2e);
          bytes.write(pair, lane, 'latin1');
          const at = pair.endsWith('=') ? lane + pair.length - 2 : lane;
          expect(startsPair(bytes, at)).toBe(true);
          expect([...pairSites(bytes)], `${pair} at ${lane}, ${tail} after`).toContain(at);
        }
  });

  test('lists every pair random bytes hold, whatever the module held before (property)', () => {
    const byte = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...Buffer.from('<&:=#%Pstra \tSOEHLIF\n\rcC;')) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 400 }), fc.nat({ max: 5000 }), (list, before) => {
        // a longer body first leaves its bytes in the module's memory past the end of this one
        pairSites(Buffer.alloc(before, 0x3d));
        classifyBlocks(Buffer.alloc(before, 0x74), false, () => undefined);
        const bytes = Uint8Array.from(list);
        const listed = new Set(pairSites(bytes));
        for (let at = 0; at < bytes.length; at++) if (startsPair(bytes, at)) expect(listed.has(at)).toBe(true);
        for (const at of listed) expect(at).toBeLessThan(bytes.length);
      }),
      { numRuns: 1500 },
    );
  });

  test('lists few offsets in random bytes (an image’s pixel data)', () => {
    const bytes = randomBytes(1 << 20);
    const listed = pairSites(bytes);
    expect(listed.length).toBeLessThan(bytes.length / 200);
    expect([...listed]).toEqual([...listed].sort((a, b) => a - b));
  });

  test('one sniff’s readings share a body’s listing, and nothing is kept after it', () => {
    const bytes = randomBytes(4096);
    const other = randomBytes(4096);
    const listed = keepingPairSites(() => {
      const first = pairSites(bytes);
      // the same bytes answer from memory while the sniff runs
      expect(pairSites(bytes)).toBe(first);
      // other bytes are listed for themselves, never answered with the body's list
      expect([...pairSites(other)]).toEqual([...keepingPairSites(() => pairSites(Buffer.from(other)))]);
      return first;
    });
    // outside a sniff the bytes are listed anew (a table keyed by every body made each scavenge take 15-35 ms)
    const again = pairSites(bytes);
    expect(again).not.toBe(listed);
    expect([...again]).toEqual([...listed]);
  });
});

// the pairs by their definition, one offset at a time: the list `sites` makes is these offsets exactly, whatever order
// and grouping the module computes them in (its pair tables' chunk test, its comparison of the bytes of each block the
// tables mark, the byte before the first block of each call of 64 KiB read from the body)
function tableSites(bytes: Uint8Array): number[] {
  const sites: number[] = [];
  for (let at = 0; at < bytes.length; at++) if (startsPair(bytes, at)) sites.push(at);
  return sites;
}

describe('pairSites against a scalar reading of its pairs (differential)', () => {
  // bytes dense with the pairs' bytes, and runs of them, so that chunks hold none, one or many
  const pairByte = fc.constantFrom(...Buffer.from('<&:=#%Pstra \tSOEHLIF\n\rcC;xyz.'));
  const body = fc.oneof(
    fc.uint8Array({ maxLength: 600, size: 'max' }),
    fc.array(fc.oneof({ weight: 3, arbitrary: pairByte }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) }), {
      maxLength: 600,
      size: 'max',
    }),
  );

  test('lists exactly the offsets where a pair stands (property)', () => {
    fc.assert(
      fc.property(body, fc.nat({ max: 3000 }), (list, before) => {
        // a longer body first leaves its bytes in the module's memory past the end of this one
        pairSites(Buffer.alloc(before, 0x61));
        const bytes = Uint8Array.from(list);
        expect([...pairSites(bytes)]).toEqual(tableSites(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  test('lists exactly the offsets where a pair stands across the module’s calls of 64 KiB (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 65_536 - 200, max: 2 * 65_536 + 200 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('ab=', 'Ab=', 'a=', ' =', '<s', 'st', 'tr', '&#', 't:')), {
          maxLength: 8,
        }),
        fc.boolean(),
        (length, planted, noisy) => {
          const bytes = noisy ? randomBytes(length) : Buffer.alloc(length, 0x62);
          // pairs at the edges of the calls, and anywhere
          for (const [where, pair] of planted)
            for (const at of [where % length, 65_536 - 2 + (where % 4), 2 * 65_536 - 2 + (where % 4)])
              if (at + pair.length <= length) bytes.write(pair, at, 'latin1');
          expect([...pairSites(bytes)]).toEqual(tableSites(bytes));
        },
      ),
      { numRuns: 60 },
    );
  });

  test('an earlier body’s list stays as it was after later bodies are read', () => {
    const first = Buffer.from('<s'.repeat(5000), 'latin1');
    const listed = pairSites(first);
    const copy = [...listed];
    pairSites(Buffer.from('st'.repeat(7000), 'latin1'));
    pairSites(randomBytes(1 << 16));
    expect([...listed]).toEqual(copy);
    expect(copy).toEqual(tableSites(first));
  });
});

describe('the sniffed markup screen and the pdf structure search of binary bodies', () => {
  test('answer as a search of every byte, for random bytes with a trigger anywhere (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 3000 }),
        fc.array(fc.tuple(fc.constantFrom(...triggers, ...pdfTriggers), fc.nat()), { maxLength: 3 }),
        (noise, planted) => {
          const bytes = Buffer.from(noise);
          for (const [word, where] of planted)
            if (bytes.length >= word.length) bytes.write(word, where % (bytes.length - word.length + 1), 'latin1');
          expect(mayHoldActiveMarkupUtf8(bytes, 'sniffed')).toBe(everyByteSniffed(bytes));
          expect(binaryHoldsPdfStructure(bytes)).toBe(everyBytePdf(bytes));
        },
      ),
      { numRuns: 400 },
    );
  });

  test('find each trigger at every offset of a megabyte of random bytes', () => {
    const noise = randomBytes(1 << 20);
    // random bytes hold no trigger of their own: the rare chance one does is cleared first
    const clean = Buffer.from(noise);
    for (let at = 0; at < clean.length; at++) if (clean[at] === 0x3c || clean[at] === 0x3d) clean[at] = 0x2e;
    for (let at = 0; at < clean.length; at++) if (clean[at] === 0x3a || clean[at] === 0x26) clean[at] = 0x2e;
    expect(mayHoldActiveMarkupUtf8(clean, 'sniffed')).toBe(false);
    for (const [i, word] of triggers.entries())
      for (const where of [0, 15, 16, 63, 64 + i, 65_535, 65_536 - word.length, clean.length - word.length]) {
        const bytes = Buffer.from(clean);
        bytes.write(word, where, 'latin1');
        expect(mayHoldActiveMarkupUtf8(bytes, 'sniffed'), `${word} at ${where}`).toBe(true);
      }
  });
});

describe('answerOfSites', () => {
  test('makes an answer once per kept body, for that body only, and anew outside a sniff', () => {
    const made: number[] = [];
    // the answer names the body it was made for (its first byte) and the sites it read
    const answer = (bytes: Uint8Array, sites: Int32Array) => {
      made.push(bytes[0] ?? -1);
      return { first: bytes[0], sites: [...sites] };
    };
    const other = (bytes: Uint8Array) => ({ first: -(bytes[0] ?? 0) });
    const one = Buffer.from('\x01 <style> and &#58;', 'latin1');
    const two = Buffer.from('\x02 trailer a=b', 'latin1');
    keepingPairSites(() => {
      expect(answerOfSites(one, answer)).toEqual({ first: 1, sites: [...pairSites(one)] });
      expect(answerOfSites(one, answer)).toEqual({ first: 1, sites: [...pairSites(one)] });
      // a second body listed in the same sniff: its own answer, never the first body's
      expect(answerOfSites(two, answer)).toEqual({ first: 2, sites: [...pairSites(two)] });
      expect(answerOfSites(two, answer)).toEqual({ first: 2, sites: [...pairSites(two)] });
      // another answer of the same sites is made, not the kept one read for it
      expect(answerOfSites(two, other)).toEqual({ first: -2 });
      expect(answerOfSites(two, answer).first).toBe(2);
    });
    expect(made).toEqual([1, 2, 2]);
    keepingPairSites(() => answerOfSites(one, answer));
    // outside a sniff nothing is kept: each ask reads the sites listed for it
    answerOfSites(one, answer);
    answerOfSites(one, answer);
    expect(made).toEqual([1, 2, 2, 1, 1, 1]);
  });
});
