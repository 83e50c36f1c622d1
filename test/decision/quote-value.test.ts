import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxQuotedChars, quoteValue } from '../../src/decision/quote-value.ts';

describe('quoteValue', () => {
  it.each([
    ['example.com', '`example.com`'],
    ['', '``'],
    ['a\nb', '`a\\u000ab`'],
    ['a\u0000b', '`a\\u0000b`'],
    ['\u007f\u0085\u009f', '`\\u007f\\u0085\\u009f`'],
    ['a`b', "`a'b`"],
    ['\u2028', '`\\u2028`'],
    ['\u2029x', '`\\u2029x`'],
    ['faß ü \u00a0', '`faß ü \u00a0`'],
    // invisible format characters would hide part of a host from the reader
    ['loc\u200dalhost', '`loc\\u200dalhost`'],
    ['a\u00adb\ufeff', '`a\\u00adb\\ufeff`'],
    ['evil\u202ecom', '`evil\\u202ecom`'],
    ['x\u2066y\u2069', '`x\\u2066y\\u2069`'],
    // Unicode TAG characters carry invisible text; the arabic letter mark is a bidi control
    ['a\u{e0041}\u{e007f}b', '`a\\u{e0041}\\u{e007f}b`'],
    ['x\u061cy', '`x\\u061cy`'],
  ])('%j → %j', (value, quoted) => {
    expect(quoteValue(value)).toBe(quoted);
  });

  it('cuts long values', () => {
    expect(quoteValue('x'.repeat(maxQuotedChars * 2))).toBe(`\`${'x'.repeat(maxQuotedChars - 1)}…\``);
  });

  it('replaces the characters NFKC folds to a backtick, which close the quote to a folding reader', () => {
    const quoted = quoteValue('a\uff40 b\u1fef c');
    expect(quoted).toBe("`a' b' c`");
    expect(quoted.slice(1, -1).normalize('NFKC')).not.toContain('`');
  });

  it('is one line with no inner backtick or control character, and keeps clean text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2 * maxQuotedChars }), (value) => {
        const quoted = quoteValue(value);
        const inner = quoted.slice(1, -1);
        expect(quoted.startsWith('`') && quoted.endsWith('`')).toBe(true);
        expect(inner).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}`]/u);
        if (value.length <= maxQuotedChars && !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}`]/u.test(value)) expect(inner).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });
});
