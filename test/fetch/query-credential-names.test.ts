import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { looksLikeQueryCredential, withoutBracketSuffix } from '../../src/fetch/query-credentials.ts';

// the pattern the name check used, kept here as the reference for what the one-pass cut must return
const bracketSuffix = /\[.*$/;
const none: ReadonlySet<string> = new Set();

describe('withoutBracketSuffix: the `[…]` suffix of a parameter name, in one pass', () => {
  it("returns exactly what `name.replace(/\\[.*$/, '')` returns", () => {
    const name = fc
      .array(fc.constantFrom('[', ']', '\n', '\r', '\u2028', '\u2029', 'a', 'token', '0', '[]', ' '), { maxLength: 16 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(name, (text) => {
        expect(withoutBracketSuffix(text)).toBe(text.replace(bracketSuffix, ''));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['access_token[0]', 'access_token'],
    ['a[b\nc', 'a[b\nc'],
    ['a[b\nc[d', 'a[b\nc'],
    ['[x', ''],
    ['plain', 'plain'],
  ])('%j → %j', (name, bare) => {
    expect(withoutBracketSuffix(name)).toBe(bare);
  });

  // the shape that made the pattern quadratic: many `[` before a line break (100 KB of UTF-16); it must simply finish
  it('cuts 50,000 `[` before a line break and still finds the credential word after it', () => {
    const name = `${'['.repeat(50_000)}\ntoken`;
    expect(withoutBracketSuffix(name)).toBe(name);
    expect(looksLikeQueryCredential(name, 'v', none)).toBe(true);
    expect(looksLikeQueryCredential(`x${'['.repeat(50_000)}`, 'v', none)).toBe(false);
  });
});
