import { describe, expect, it } from 'vitest';
import { maxQuotedChars, quoteValue } from '../../src/link/quote-value.ts';

describe('quoteValue', () => {
  it.each([
    ['example.com', '`example.com`'],
    ['a\nb', '`a\\u000ab`'],
    ['a`b', "`a'b`"],
    ['\u2028', '`\\u2028`'],
  ])('%j → %j', (value, quoted) => {
    expect(quoteValue(value)).toBe(quoted);
  });

  it('cuts long values', () => {
    expect(quoteValue('x'.repeat(maxQuotedChars * 2))).toBe(`\`${'x'.repeat(maxQuotedChars - 1)}…\``);
  });
});
