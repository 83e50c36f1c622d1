import { describe, expect, test } from 'vitest';
import { embeddedArchive, trailingFormat, trailingFormatWith } from '../../src/content/polyglot.ts';
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
