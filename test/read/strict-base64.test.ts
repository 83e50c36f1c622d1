import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { base64DecodedLength, decodeStrictBase64, isStrictBase64 } from '../../src/read/strict-base64.ts';

// the reference: RFC 4648 §4 canonical form, checked character by character (slow, obviously right)
const canonical = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const sextet = (c: string): number => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(c);
function referenceStrict(s: string): boolean {
  if (!canonical.test(s)) return false;
  if (s.endsWith('==')) return (sextet(s[s.length - 3] ?? '') & 0x0f) === 0;
  if (s.endsWith('=')) return (sextet(s[s.length - 2] ?? '') & 0x03) === 0;
  return true;
}

describe('base64DecodedLength', () => {
  test.each([
    ['', 0],
    ['QQ==', 1],
    ['QUI=', 2],
    ['QUJD', 3],
    ['QUJDRA==', 4],
    ['QUJ', null],
    ['Q', null],
  ])('%j → %j', (b64, expected) => {
    expect(base64DecodedLength(b64)).toBe(expected);
  });

  test('is computed without reading the body: only the length and the padding count', () => {
    // a body no decoder accepts still has the length its size implies: nothing between the ends was read
    const body = '!'.repeat(64 * 1024 * 1024 - 4);
    expect(base64DecodedLength(`AA${body}A=`)).toBe(48 * 1024 * 1024 - 1);
    expect(base64DecodedLength(`AA${body}==`)).toBe(48 * 1024 * 1024 - 2);
    expect(decodeStrictBase64(`AA${body}A=`)).toBeNull();
  });
});

describe('decodeStrictBase64', () => {
  test.each([
    ['canonical', 'aGVsbG8=', 'hello'],
    ['no padding needed', 'aGVsbG8h', 'hello!'],
    ['two pad characters', 'aGk=', 'hi'],
    ['empty', '', ''],
  ])('accepts %s', (_, b64, text) => {
    expect(decodeStrictBase64(b64)?.toString('latin1')).toBe(text);
  });

  test.each([
    ['missing padding', 'aGVsbG8'],
    ['url-safe alphabet', 'a-_h'],
    ['embedded newline', 'aGVs\nbG8='],
    ['embedded space', 'aGVs bG8='],
    ['padding in the middle', 'aG==bG8='],
    ['three pad characters', 'a==='],
    ['only padding', '===='],
    ['punctuation Node would skip', 'aGVs!G8='],
    ['non-zero unused bits (one pad)', 'aGVsbG9='],
    ['non-zero unused bits (two pads)', 'aGl='],
    ['non-ascii folding onto A', 'aGVsbG8\u0141'],
    ['non-ascii in the body', 'QU\u3042D'],
  ])('rejects %s', (_, b64) => {
    expect(decodeStrictBase64(b64)).toBeNull();
    expect(isStrictBase64(b64)).toBe(false);
  });

  test('round-trips every byte string (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const b64 = Buffer.from(bytes).toString('base64');
        expect(decodeStrictBase64(b64)?.equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });

  test('agrees with the character-by-character reference on arbitrary near-base64 strings (property)', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('');
    const noise = ['=', '-', '_', ' ', '\n', '\t', '!', '.', '\u0000', '\u00e9', '\u0141', '\u3042', '\uD800'];
    const char = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...alphabet) },
      { weight: 1, arbitrary: fc.constantFrom(...noise) },
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (chars) => {
        const s = chars.join('');
        expect(decodeStrictBase64(s) !== null).toBe(referenceStrict(s));
      }),
      { numRuns: 20_000 },
    );
  });

  // above 2 Mi characters the decode goes slice by slice (256 Ki characters each): a defect at either side of every
  // slice's edge, in a string as JSON.parse makes it and in one Buffer#toString made, is refused as in a short string
  test('refuses a defect at every slice edge of a long string, and decodes the clean one whole', () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 1);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 131 + (i >> 9)) & 0xff;
    const external = bytes.toString('base64');
    const parsed = (JSON.parse(JSON.stringify({ b: external })) as { b: string }).b;
    const slice = 262_144;
    for (const b64 of [external, parsed]) {
      expect(decodeStrictBase64(b64)?.equals(bytes)).toBe(true);
      const into = Buffer.alloc(bytes.length);
      expect(decodeStrictBase64(b64, () => into)).toBe(into);
      expect(into.equals(bytes)).toBe(true);
      const edges = [0, slice, 2 * slice, 8 * slice, b64.length - 8];
      for (const edge of edges)
        for (const at of [edge - 1, edge, edge + 3])
          for (const defect of ['=', '!', ' ', '\u00e9', '-', '_'])
            if (at >= 0 && at < b64.length - 4) {
              const bad = b64.slice(0, at) + defect + b64.slice(at + 1);
              expect(decodeStrictBase64(bad), `${defect} at ${at}`).toBeNull();
              expect(
                decodeStrictBase64(bad, (n) => Buffer.alloc(n)),
                `${defect} at ${at}, into`,
              ).toBeNull();
            }
    }
  });
});
