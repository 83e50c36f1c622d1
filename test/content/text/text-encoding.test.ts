import { describe, expect, test } from 'vitest';
import { decodeText, hasLoneSurrogate } from '../../../src/content/text/text-encoding.ts';
import { seededBytes, utf16, utf8Bom } from '../../fixtures/make-bytes.ts';

describe('decodeText', () => {
  test.each([
    ['utf-8', Buffer.from('héllo wörld', 'utf8'), 'utf-8', 'héllo wörld', []],
    ['utf-8 behind a bom', utf8Bom('hello'), 'utf-8-bom', 'hello', []],
    ['utf-16le behind a bom', utf16('hello'), 'utf-16le-bom', 'hello', []],
    ['utf-16be behind a bom', utf16('hello', { order: 'be' }), 'utf-16be-bom', 'hello', []],
    [
      'utf-16le without a bom',
      utf16('hello, plain ascii text', { bom: false }),
      'utf-16le-nobom',
      'hello, plain ascii text',
      ['utf-16 text without a byte order mark'],
    ],
    [
      'utf-16be without a bom',
      utf16('hello, plain ascii text', { order: 'be', bom: false }),
      'utf-16be-nobom',
      'hello, plain ascii text',
      ['utf-16 text without a byte order mark'],
    ],
    [
      'utf-16 with an odd length',
      Buffer.concat([utf16('hi'), Buffer.from([0x41])]),
      'utf-16le-bom',
      'hi',
      ['utf-16 text with an odd number of bytes'],
    ],
    [
      'utf-16 with a lone surrogate',
      Buffer.concat([utf16('a'), Buffer.from([0x00, 0xd8])]),
      'utf-16le-bom',
      'a\ud800',
      ['utf-16 text with unpaired surrogates'],
    ],
  ])('%s', (_, bytes, encoding, text, issues) => {
    const decoded = decodeText(bytes);
    expect(decoded?.encoding).toBe(encoding);
    expect(decoded?.text).toBe(text);
    expect(decoded?.issues).toEqual(issues);
  });

  test.each([
    ['latin-1 bytes', Buffer.from('caf\xe9', 'latin1')],
    ['random bytes', seededBytes(256)],
    ['invalid utf-8 after a utf-8 bom', Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe, 0xfd])],
  ])('returns null for %s', (_, bytes) => {
    expect(decodeText(bytes)).toBeNull();
  });

  test.each([
    ['a\ud800b', true],
    ['\udc00', true],
    ['😀', false],
    ['plain', false],
  ])('hasLoneSurrogate(%j) = %s', (text, expected) => {
    expect(hasLoneSurrogate(text)).toBe(expected);
  });
});
