// The read path's scanners against their references (issue 42, the read rows): each change that makes a pass over a
// body cheaper is compared with the code it replaced (kept in test/read/reference/) over generated bodies, every
// file of the shared byte and benign corpora, the project's fixtures and the red team's pages, and must answer the
// same for each. A difference is a finding the change gained or lost.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { mayRunAsSniffedPage } from '../../src/content/sniffed-triggers.ts';
import { WorkBudget } from '../../src/content/work-budget.ts';
import { htmlAttacks, svgAttacks } from '../content/redteam/browser-round-pages.ts';
import { hasShared, repoRoot, sharedPath } from '../helpers/shared-dir.ts';
import { mayRunAsSniffedPage as mayRunAsSniffedPageBefore } from './reference/sniffed-triggers-before.ts';

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
});
