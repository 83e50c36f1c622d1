import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  embeddedArchive,
  mayStartScript,
  mayStartScriptIn,
  scriptReadings,
  trailingFormat,
  trailingFormatWith,
  windows1252,
} from '../../src/content/polyglot.ts';
import { makeElf, makeGif, makeJar, makePdf, makePng, makeZip, utf16 } from '../fixtures/make-bytes.ts';

describe('embeddedArchive', () => {
  test.each([
    ['a jar appended to a png', Buffer.concat([makePng(), makeJar()]), /runnable java archive/],
    [
      'a zip appended to a pdf',
      Buffer.concat([makePdf(), makeZip([{ name: 'a', data: 'b' }])]),
      /zip archive \(1 entry\)/,
    ],
  ])('finds %s', (_, bytes, message) => {
    expect(embeddedArchive(bytes)).toMatch(message);
  });

  test('finds local headers after the image end when the directory is missing', () => {
    const png = makePng();
    const zip = makeZip([{ name: 'a.txt', data: 'a' }]);
    const bytes = Buffer.concat([png, zip.subarray(0, zip.indexOf('PK\u0001\u0002', 0, 'latin1'))]);
    expect(embeddedArchive(bytes, png.length)).toMatch(/zip archive/);
  });

  test('a plain image holds no archive', () => {
    expect(embeddedArchive(makeGif())).toBeNull();
  });
});

describe('trailingFormat', () => {
  test.each([
    ['an elf', makeElf(), /`elf` data/],
    ['a png', makePng(), /`png` data/],
    ['html with script', Buffer.from('<html><script>alert(1)</script></html>'), /`html` text/],
    ['text with an event handler', Buffer.from('hi <img src=x onerror=alert(1)>'), /event-handler/],
    ['a shell script', Buffer.from('#!/bin/sh\nrm -rf ~\n'), /`shell-script`/],
    ['a utf-16 registry file', utf16('REGEDIT4\r\n'), /`reg`/],
  ])('names %s', (_, bytes, message) => {
    return expect(trailingFormat(bytes)).resolves.toMatch(message);
  });

  test.each([
    ['zero padding', Buffer.alloc(64)],
    ['0xff padding and newlines', Buffer.from([0xff, 0xff, 0x0a, 0x0d])],
    ['plain text', Buffer.from('exported by camera v1.2')],
    ['json', Buffer.from('{"comment": "<b>x</b>"}')],
    ['nothing', Buffer.alloc(0)],
  ])('ignores %s', (_, bytes) => {
    return expect(trailingFormat(bytes)).resolves.toBeNull();
  });
});

describe('trailingFormatWith', () => {
  test.each([
    [
      'binary bytes only file-type can name',
      Buffer.concat([Buffer.from([0x01, 0x00]), Buffer.alloc(8, 7)]),
      () => undefined,
      undefined,
    ],
    [
      'the same bytes once file-type named them',
      Buffer.concat([Buffer.from([0x01, 0x00]), Buffer.alloc(8, 7)]),
      () => 'mp3',
      '`mp3` data',
    ],
    [
      'the same bytes when nothing names them',
      Buffer.concat([Buffer.from([0x01, 0x00]), Buffer.alloc(8, 7)]),
      () => null,
      null,
    ],
    ['text never asks', Buffer.from('<script>x</script>'), () => undefined, '`html` text'],
  ])('%s', (_, bytes, kindOf, expected) => {
    expect(trailingFormatWith(bytes, kindOf)).toBe(expected);
  });
});

describe('mayStartScriptIn: the script probe decided from a short head', () => {
  // bytes that decide or straddle the cut at 16: openers, controls, C1 controls, UTF-8 leads and continuations
  const byte = fc.oneof(
    fc.constantFrom(0x2f, 0x22, 0x27, 0x60, 0x00, 0x09, 0x0a, 0x1a, 0x20, 0x41, 0x7f, 0x80, 0x89, 0x9f, 0xa0),
    fc.constantFrom(0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff),
    fc.integer({ min: 0, max: 255 }),
  );
  test('answers as the 256-character reading does, for every reading', () => {
    fc.assert(
      fc.property(fc.nat({ max: 20 }), fc.array(byte, { maxLength: 40 }), (printable, tail) => {
        // a printable run first moves the deciding bytes across the cut
        const bytes = Buffer.concat([Buffer.alloc(printable, 0x61), Buffer.from(tail)]);
        for (const read of scriptReadings) expect(mayStartScriptIn(bytes, read)).toBe(mayStartScript(read(bytes, 256)));
      }),
      { numRuns: 20000 },
    );
  });
});

describe('windows1252', () => {
  const high =
    '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
    '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
  // the WHATWG index byte by byte, as the reference
  const byByte = (bytes: Buffer, chars: number) =>
    [...bytes.subarray(0, chars)]
      .map((b) => (b >= 0x80 && b <= 0x9f ? high[b - 0x80] : String.fromCharCode(b)))
      .join('');
  test('decodes every byte as the index says, short heads and long texts alike', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.constantFrom(16, 256, 4096), (raw, chars) => {
        const bytes = Buffer.from(raw);
        expect(windows1252(bytes, chars)).toBe(byByte(bytes, chars));
      }),
      { numRuns: 3000 },
    );
  });
});
