import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isJsonText } from '../../../src/content/text/json-syntax.ts';

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('isJsonText', () => {
  test.each([
    ['{"a": [1, -0.5e+3, true, false, null, "x\\u00e9\\n"]}', true],
    [' \n[]\t', true],
    ['"just a string"', true],
    ['-0', true],
    ['{"a":1,}', false],
    ['[1,]', false],
    ['01', false],
    ['1.', false],
    ['.5', false],
    ['"raw\u0001control"', false],
    ['"bad \\x escape"', false],
    ['"\\u12"', false],
    ['{"a" 1}', false],
    ['[1] [2]', false],
    ['\u00a0[]', false],
    ['', false],
    ['tru', false],
  ])('%j → %s', (text, expected) => {
    expect(isJsonText(text)).toBe(expected);
    expect(parses(text)).toBe(expected);
  });

  test.each([
    ['deep nesting', '['.repeat(200_000) + ']'.repeat(200_000), true],
    ['unterminated nesting', '['.repeat(200_000), false],
    ['many empty objects', `[${'{},'.repeat(100_000)}{}]`, true],
  ])('%s without building values', (_, text, expected) => {
    expect(isJsonText(text)).toBe(expected);
  });

  test('agrees with JSON.parse on json and on damaged json', () => {
    const damaged = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom('', ' ', ',', ']', '}', '"', '\\', '0', '-', 'e', '.', '\u0000'))
      .map(([json, at, insert]) => {
        const i = at % (json.length + 1);
        return json.slice(0, i) + insert + json.slice(i + (at % 2));
      });
    fc.assert(
      fc.property(fc.oneof(fc.json(), damaged), (text) => {
        expect(isJsonText(text)).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });
});
