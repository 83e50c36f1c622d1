import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  findInvisibleText,
  findInvisibleUtf8,
  findUnsafeText,
  findUnsafeUtf8,
} from '../../../src/content/text/unsafe-text.ts';

describe('findUnsafeText', () => {
  test.each([
    ['tab, lf and cr are fine', 'a\tb\nc\r\n', []],
    ['unicode text is fine', 'grüße 😀 — ok', []],
    ['nul', 'a\u0000b', [/nul/]],
    ['csi colour sequence', 'ok \u001b[31mred', [/terminal escape sequences \(csi/]],
    [
      'osc 52 clipboard write',
      'x\u001b]52;c;ZWNobw==\u0007',
      [/terminal escape sequences \(osc/, /control characters/],
    ],
    ['bare esc', 'x\u001bc', [/terminal escape sequences \(esc/]],
    ['c1 csi', 'x\u009b31m', [/c1 control/]],
    ['bell', 'ding\u0007', [/control characters other than tab/]],
    ['form feed', 'page\u000cbreak', [/control characters other than tab/]],
    // DEL is inert (issue 23): terminals and renderers ignore it
    ['delete', 'x\u007f', []],
    ['delete runs in csv fields', 'a,b\u007f\u007f,c\n1,2,\u007f\n', []],
  ])('%s', (_, text, expected) => {
    const found = findUnsafeText(text);
    expect(found).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(found[i]).toMatch(pattern));
  });
});

describe('findUnsafeUtf8', () => {
  test('reports exactly what the string scan reports (property)', () => {
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)) },
      { weight: 1, arbitrary: fc.constantFrom('\u001b[', '\u001b]', '\u001bP', '\u00a9', '\u00c2') },
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        expect(findUnsafeUtf8(Buffer.from(text, 'utf8'))).toEqual(findUnsafeText(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('findInvisibleUtf8', () => {
  test('reports exactly what the string scan reports (property)', () => {
    const unit = fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '\u061c',
          '\u0600',
          '\u180e',
          '\u1800',
          '\u200b',
          '\u200f',
          '\u2010',
          '\u2014',
          '\u201c',
          '\u2026',
          '\u2028',
          '\u202a',
          '\u202e',
          '\u202f',
          '\u205f',
          '\u2060',
          '\u2064',
          '\u2065',
          '\u2066',
          '\u2069',
          '\u206a',
          '\ufeff',
          '\ufefe',
          '\u{1f600}',
        ),
      },
      { weight: 1, arbitrary: fc.integer({ min: 0x2000, max: 0x206f }).map((c) => String.fromCharCode(c)) },
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        expect(findInvisibleUtf8(Buffer.from(text, 'utf8'))).toBe(findInvisibleText(text));
        // past a byte order mark, the text starts after it
        expect(findInvisibleUtf8(Buffer.from(`\ufeff${text}`, 'utf8'), 3)).toBe(findInvisibleText(text));
      }),
      { numRuns: 5000 },
    );
  });
});
