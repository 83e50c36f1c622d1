import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeCharacterReferences, decodeReferenceAt } from '../../src/content/decode-entities.ts';

// the grammar the hand-written decoder follows, as one pattern: the oracle for the property below
const referencePattern = /&(?:#[xX]0*([0-9a-fA-F]{1,8});?|#0*([0-9]{1,10});?|([A-Za-z][A-Za-z0-9]{1,31});)/g;
const known: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  colon: ':',
  tab: '\t',
  newline: '\n',
  quot: '"',
};
function oracle(text: string): string {
  return text.replace(
    referencePattern,
    (whole, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
      if (hex !== undefined || dec !== undefined) {
        const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(dec ?? '', 10);
        return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
          ? '\ufffd'
          : String.fromCodePoint(code);
      }
      const key = (name ?? '').toLowerCase();
      return Object.hasOwn(known, key) ? (known[key] ?? whole) : whole;
    },
  );
}

describe('decodeCharacterReferences', () => {
  test.each([
    ['jav&#x61;script:', 'javascript:'],
    ['jav&#X61;script:', 'javascript:'],
    ['jav&#97;script:', 'javascript:'],
    ['&#106avascript:', 'javascript:'],
    ['javascript&colon;', 'javascript:'],
    ['java&Tab;script:', 'java\tscript:'],
    ['&lt;script&gt;', '<script>'],
    ['&amp;#x61;', '&#x61;'],
    ['&unknown; stays', '&unknown; stays'],
    ['&#0; &#xD800; &#x110000;', '\ufffd \ufffd \ufffd'],
    ['no references', 'no references'],
    ['&constructor; and &toString; are not references', '&constructor; and &toString; are not references'],
    // html reads every leading zero: only significant digits count toward the caps
    ['&#x0000006A9', '\u06a9'],
    ['&#00000000106', 'j'],
    ['&#x000000006A;avascript:', 'javascript:'],
    ['&#x000', '\ufffd'],
    ['&#x; &#; &;', '&#x; &#; &;'],
    [`&${'a'.repeat(32)}; &${'a'.repeat(33)};`, `&${'a'.repeat(32)}; &${'a'.repeat(33)};`],
  ])('%j → %j', (input, output) => {
    expect(decodeCharacterReferences(input)).toBe(output);
  });

  test('agrees with the reference pattern on reference-shaped text', () => {
    const piece = fc.constantFrom(
      '&',
      '#',
      'x',
      'X',
      ';',
      '0',
      '6',
      'A',
      'a',
      'f',
      'g',
      'amp',
      'lt',
      'colon',
      'Tab',
      '123456789',
      'D800',
      ' ',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.string({ maxLength: 2 })), { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(decodeCharacterReferences(text)).toBe(oracle(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('decodeReferenceAt', () => {
  test.each([
    ['x&#x6A;y', 1, { value: 'j', end: 7 }],
    ['&amp', 0, null],
    ['a&lt;', 1, { value: '<', end: 5 }],
    ['&lt;', 1, null],
  ])('%j at %i', (text, at, found) => {
    expect(decodeReferenceAt(text, at)).toEqual(found);
  });
});
