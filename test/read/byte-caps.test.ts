import { describe, expect, test } from 'vitest';
import { applyByteCaps } from '../../src/read/byte-caps.ts';

describe('applyByteCaps', () => {
  test.each([
    ['all under the total', [10, 20, 30], { maxBytes: 60 }, []],
    ['the item that crosses the total', [10, 20, 40], { maxBytes: 60 }, [[2, 'read.maxBytes']]],
    ['a later item that still fits is kept', [50, 20, 10], { maxBytes: 60 }, [[1, 'read.maxBytes']]],
    ['per-item cap first', [5, 100, 5], { maxBytes: 1000, maxItemBytes: 50 }, [[1, 'read.maxItemBytes']]],
    [
      'an item over the per-item cap does not count toward the total',
      [100, 40],
      { maxBytes: 50, maxItemBytes: 60 },
      [[0, 'read.maxItemBytes']],
    ],
    ['exactly at the caps', [50, 10], { maxBytes: 60, maxItemBytes: 50 }, []],
  ] as const)('%s', (_, sizes, caps, expected) => {
    const breaches = applyByteCaps(
      sizes.map((bytes, index) => ({ index, bytes })),
      caps,
    );
    expect([...breaches].map(([index, b]) => [index, b.rule])).toEqual(expected);
  });
});
