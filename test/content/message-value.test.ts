import { describe, expect, test } from 'vitest';
import { maxQuotedChars, quoteValue } from '../../src/content/message-value.ts';

describe('quoteValue', () => {
  test.each([
    ['docs', '`docs`'],
    ['a`b', '`a?b`'],
    ['line\nbreak', '`line?break`'],
    ['esc\u001b[2J', '`esc?[2J`'],
    ['c1\u009b', '`c1?`'],
    ['sep\u2028', '`sep?`'],
  ])('%j → %s', (value, quoted) => {
    expect(quoteValue(value)).toBe(quoted);
  });

  test('long values are cut', () => {
    const quoted = quoteValue('x'.repeat(1000));
    expect(quoted).toHaveLength(maxQuotedChars + 3);
    expect(quoted.endsWith('…`')).toBe(true);
  });
});
