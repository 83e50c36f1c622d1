// The read path's scanners against their references (issue 42, the read rows): each change that makes a pass over a
// body cheaper is compared with the code it replaced (kept in test/read/reference/) over generated bodies, every
// file of the shared byte and benign corpora, the project's fixtures and the red team's pages, and must answer the
// same for each. A difference is a finding the change gained or lost.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { spellsAt } from '../../src/content/ascii-bytes.ts';
import { mayRunAsSniffedPage } from '../../src/content/sniffed-triggers.ts';
import { sniffedTriggerAt } from '../../src/content/svg-html/markup-screen.ts';
import { pairSites } from '../../src/content/text/byte-sites.ts';
import { markupHeadChars, textHead } from '../../src/content/text/text-kind.ts';
import { WorkBudget } from '../../src/content/work-budget.ts';
import { htmlAttacks, svgAttacks } from '../content/redteam/browser-round-pages.ts';
import { hasShared, repoRoot, sharedPath } from '../helpers/shared-dir.ts';
import { mayRunAsSniffedPage as mayRunAsSniffedPageBefore } from './reference/sniffed-triggers-before.ts';
import { pairSitesBefore } from './reference/table-sites-before.ts';
import { textHeadBefore } from './reference/text-head-before.ts';

// every regular file under `dir`, as bytes
function filesUnder(dir: string): [string, Buffer][] {
  const found: [string, Buffer][] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const stat = statSync(file);
    if (stat.isDirectory()) found.push(...filesUnder(file));
    else if (stat.isFile()) found.push([path.relative(repoRoot, file), readFileSync(file)]);
  }
  return found;
}

const corpusDirs = ['corpus/bytes/files', 'corpus/benign/files'];
const hasCorpus = corpusDirs.every((dir) => hasShared(dir));

// the bodies every scanner is compared over: the shared corpora (when beside the checkout), the project's fixtures and
// the red team's pages, each as it is and inside pixel-like noise (a trigger at a chunk's edge, NULs around it)
function fixedBodies(): [string, Buffer][] {
  const bodies: [string, Buffer][] = filesUnder(path.join(repoRoot, 'test/fixtures'));
  if (hasCorpus) for (const dir of corpusDirs) bodies.push(...filesUnder(sharedPath(dir)));
  for (const [name, , body] of [...svgAttacks, ...htmlAttacks])
    bodies.push([`red team page ${name}`, typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
  const noise = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x13, 0xff, 0x3a, 0x3d, 0x26, 0x00, 0x81, 0x09]);
  return bodies.flatMap(([name, body]) => [
    [name, body],
    [`${name}, in noise`, Buffer.concat([noise, body, noise])],
  ]);
}

// fragments a trigger is made of (schemes, references, the bytes the url parser drops, handlers, tags), and any byte
const fragments = [
  'javascript',
  'java',
  'script',
  'vbscript',
  'livescript',
  'data',
  'DATA',
  ':',
  '=',
  ';',
  '&',
  '#',
  '&#106;',
  '&#x6A;',
  '&#0000106',
  '&#58;',
  '&colon;',
  '&COLON',
  '&Tab;',
  '&NewLine;',
  '&tab',
  '\t',
  '\n',
  '\r',
  ' ',
  '<',
  '<script',
  '<iframe',
  'onload',
  'ONERROR',
  'style',
  'srcdoc',
  'x',
  '1',
  'a',
  't',
  // bytes that end a scheme's run
  '"',
  '/',
  '(',
  '\u0000',
  '\u00ff',
];
const body = fc
  .array(
    fc.oneof(
      fc.constantFrom(...fragments).map((f) => Buffer.from(f, 'latin1')),
      fc.uint8Array({ minLength: 1, maxLength: 24 }).map((b) => Buffer.from(b)),
    ),
    { maxLength: 60 },
  )
  .map((parts) => Buffer.concat(parts));

// whether `check` answers as `reference` does (the same answer, or both run out of the same budget)
function sameAnswer(
  check: (bytes: Buffer, budget: WorkBudget) => boolean,
  reference: (bytes: Buffer, budget: WorkBudget) => boolean,
  bytes: Buffer,
): { now: string; before: string } {
  const answer = (f: typeof check): string => {
    try {
      return String(f(bytes, WorkBudget.forBytes(bytes.length)));
    } catch (error) {
      return `throws ${(error as Error).message}`;
    }
  };
  return { now: answer(check), before: answer(reference) };
}

describe('the scanners answer as their references', () => {
  const bodies = fixedBodies();

  test('the bodies are there: the corpora (beside the checkout), the fixtures and the pages', () => {
    expect(bodies.length).toBeGreaterThan(hasCorpus ? 600 : 100);
  });

  describe('the sniffed screen: a scheme run shorter than `data:` makes no string', () => {
    test('over every corpus file, fixture and red team page', () => {
      const differing = bodies.filter(([, bytes]) => {
        const { now, before } = sameAnswer(mayRunAsSniffedPage, mayRunAsSniffedPageBefore, bytes);
        return now !== before;
      });
      expect(differing.map(([name]) => name)).toEqual([]);
    });

    test('over generated bodies of trigger fragments and random bytes', () => {
      fc.assert(
        fc.property(body, (bytes) => {
          const { now, before } = sameAnswer(mayRunAsSniffedPage, mayRunAsSniffedPageBefore, bytes);
          expect(now).toBe(before);
        }),
        { numRuns: 3000 },
      );
    });
  });

  describe('the text head: a quarter more bytes than code units decoded first, all four times only when short', () => {
    // from the start, past a BOM's length, and from offsets that cut a character (every reading starts somewhere)
    const starts = (bytes: Buffer): number[] => [0, 1, 2, 3, 7].filter((from) => from <= bytes.length);

    test('over every corpus file, fixture and red team page', () => {
      const differing = bodies.flatMap(([name, bytes]) =>
        starts(bytes)
          .filter((from) => textHead(bytes, from) !== textHeadBefore(bytes, from))
          .map((from) => `${name} from ${from}`),
      );
      expect(differing).toEqual([]);
    });

    // characters of one to four bytes, broken sequences and stray continuation bytes, in runs long enough that the
    // first decode's end (a quarter past the head's code units) and the head's own end fall anywhere among them
    const piece = fc.oneof(
      fc.constantFrom('a', '\n', 'é', '—', '行', '😀', '\u0000').map((c) => Buffer.from(c, 'utf8')),
      fc
        .constantFrom([0xe2, 0x80], [0xf0, 0x9f], [0x80], [0xbf, 0xbf], [0xc3], [0xed, 0xa0, 0x80], [0xff])
        .map((b) => Buffer.from(b)),
      fc.uint8Array({ minLength: 1, maxLength: 8 }).map((b) => Buffer.from(b)),
    );
    const long = fc
      .tuple(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 4 * markupHeadChars + 64 }), piece)
      .map(([parts, fill, filler]) => {
        // a run of one piece around the decodes' ends, then the rest
        const run = Buffer.concat(Array.from({ length: Math.ceil(fill / filler.length) }, () => filler));
        return Buffer.concat([run, ...parts]);
      });

    test('over generated bodies of characters of every width, broken sequences and random bytes', () => {
      fc.assert(
        fc.property(long, (bytes) => {
          for (const from of starts(bytes)) expect(textHead(bytes, from)).toBe(textHeadBefore(bytes, from));
        }),
        { numRuns: 1500 },
      );
    });

    test('over text whose head ends exactly where the first decode does, give or take a character', () => {
      for (const wide of ['é', '—', '😀'])
        for (let ascii = markupHeadChars - 40; ascii <= markupHeadChars + (markupHeadChars >> 2) + 8; ascii += 1) {
          const bytes = Buffer.from(`${'x'.repeat(ascii)}${wide.repeat(3000)}`, 'utf8');
          expect(textHead(bytes, 0)).toBe(textHeadBefore(bytes, 0));
        }
    });
  });

  describe('the pair sites: the bytes compared where the tables mark a block, not every lane the tables mark', () => {
    // where a reader of the list acts: the sniffed screen's trigger check (the markup screen's sniffed reading and the
    // sniffed page's screen), a PDF marker spelled exactly, a `<style` or `<link` start (each reader skips every other
    // offset, so a list that keeps every offset where one acts, in order, and adds none, answers as the old one did)
    const pdfMarkers = ['%PDF-', '%%EOF', 'startxref', 'trailer'].map((m) => Buffer.from(m, 'latin1'));
    const tagNames = ['style', 'link'].map((m) => Buffer.from(m, 'latin1'));
    const readerActs = (bytes: Uint8Array, at: number): boolean =>
      sniffedTriggerAt(bytes, at) ||
      pdfMarkers.some((m) => m.every((c, k) => bytes[at + k] === c)) ||
      (bytes[at] === 0x3c && tagNames.some((name) => spellsAt(bytes, at + 1, name)));
    function differences(bytes: Uint8Array): string[] {
      const now = [...pairSites(bytes)];
      const before = pairSitesBefore(bytes);
      const listedBefore = new Set(before);
      const listedNow = new Set(now);
      return [
        ...now.filter((at) => !listedBefore.has(at)).map((at) => `${at} listed, not before`),
        ...before
          .filter((at) => !listedNow.has(at) && readerActs(bytes, at))
          .map((at) => `${at} dropped, a reader acts`),
      ];
    }

    test('over every corpus file, fixture and red team page', () => {
      const differing = bodies.filter(([, bytes]) => differences(bytes).length > 0).map(([name]) => name);
      expect(differing).toEqual([]);
    });

    test('over generated bodies of trigger fragments and random bytes', () => {
      fc.assert(
        fc.property(body, (bytes) => {
          expect(differences(bytes)).toEqual([]);
        }),
        { numRuns: 3000 },
      );
    });

    test('over random bytes across the module’s calls of 64 KiB, with triggers at their edges', () => {
      for (const fragment of ['ab=', 'a=', ' =', '<s', '<L', 'st', 'tr', '%%EOF', '&#', '&C', 't:', ';:', '\f=']) {
        const bytes = randomBytes(3 * 65_536 + 100);
        for (const edge of [0, 65_536, 2 * 65_536])
          for (const shift of [-3, -2, -1, 0, 1]) bytes.write(fragment, Math.max(0, edge + shift), 'latin1');
        expect(differences(bytes), fragment).toEqual([]);
      }
    });
  });
});
