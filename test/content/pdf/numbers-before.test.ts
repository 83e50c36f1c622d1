// The object number and generation before `obj`, read back one character at a time (numbersBefore), give what the
// pattern they replace gave on every short text, and stay linear where the pattern was quadratic (a long run of
// digits: regex-linearity.test.ts).
import { describe, expect, test } from 'vitest';
import { numbersBefore } from '../../../src/content/pdf/pdf-object-header.ts';

const pattern = /(\d+)\s+(\d+)\s*$/;
const alphabet = ['1', '0', '7', ' ', '\n', '\r', '\t', '\u00a0', 'x', '<', '/'];

// every text of up to `length` characters over `alphabet`, as a generator
function* texts(length: number): Generator<string> {
  if (length === 0) {
    yield '';
    return;
  }
  for (const shorter of texts(length - 1)) for (const c of alphabet) yield shorter + c;
}

describe('numbersBefore reads what /(\\d+)\\s+(\\d+)\\s*$/ matches', () => {
  test('on every text of up to five characters, with a floor', () => {
    let compared = 0;
    for (let length = 0; length <= 5; length++) {
      for (const text of texts(length)) {
        for (const floor of [0, 1]) {
          const match = pattern.exec(text.slice(floor));
          const expected = match === null ? null : [Number(match[1]), Number(match[2])];
          expect(numbersBefore(text, Math.min(floor, text.length), text.length), JSON.stringify(text)).toEqual(
            expected,
          );
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(300_000);
  });

  test('object headers as pdfs write them', () => {
    expect(numbersBefore('endobj\n12 0 ', 0, 12)).toEqual([12, 0]);
    expect(numbersBefore('x 3 1', 0, 5)).toEqual([3, 1]);
    expect(numbersBefore('3 1', 1, 3)).toBeNull();
    expect(numbersBefore('/Type 1', 0, 7)).toBeNull();
  });
});
