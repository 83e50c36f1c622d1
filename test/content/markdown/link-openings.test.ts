// LinkOpenings (src/content/markdown/link-openings.ts) reads a text's link openings once for all its marks; the search
// it replaced rescanned each mark's line from its start (content round 11's cost shape: one line of 500 000 `&#`,
// 11 s). The same answers as that search (test/content/markdown/reference), for every position asked in order, for
// any order, on generated texts of the bytes that matter; and the screens' verdicts on the cost shapes unchanged.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LinkOpenings } from '../../../src/content/markdown/link-openings.ts';
import { mayDefineActiveReference } from '../../../src/content/markdown/markdown-screen.ts';
import { afterLinkOpening } from './reference/after-link-opening.ts';

// the bytes the search reads: brackets, openers, line breaks, scheme bytes, reference bytes, a slash, a space, a non-ASCII byte
const alphabet = [']', '(', ':', '\n', '\r', 'a', 'Z', '7', '&', '#', ';', '/', ' ', '<', '>', '\\', '?', '=', 'é'];
const texts = fc
  .array(fc.constantFrom(...alphabet), { maxLength: 80 })
  .map((parts) => Buffer.from(parts.join(''), 'utf8'));

describe('LinkOpenings answers as the search it replaced', () => {
  test('every position asked in increasing order, both readings', () => {
    fc.assert(
      fc.property(texts, (bytes) => {
        for (const definition of [false, true]) {
          const openings = new LinkOpenings(bytes);
          for (let at = 0; at <= bytes.length; at++)
            expect(openings.before(at, definition), `${JSON.stringify(bytes.toString())} ${at}`).toBe(
              afterLinkOpening(bytes, at, definition),
            );
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('positions asked in any order (a position before one asked reads again)', () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 20 }), fc.boolean(), (bytes, picks, definition) => {
        const openings = new LinkOpenings(bytes);
        for (const pick of picks) {
          const at = pick % (bytes.length + 1);
          expect(openings.before(at, definition)).toBe(afterLinkOpening(bytes, at, definition));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the screens on the cost shapes of content round 11', () => {
  test('a definition whose destination is a character reference after a long line of marks is still seen', () => {
    const text = `[a]: ${'&#'.repeat(200_000)}&#106;avascript:alert(1)\n\n[x][a]\n`;
    expect(mayDefineActiveReference(text)).toBe(true);
    expect(mayDefineActiveReference(`[a]: /${'&#'.repeat(200_000)}\n`)).toBe(false);
  });
});
