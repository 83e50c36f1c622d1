import { fileTypeFromBuffer } from 'file-type';
import { describe, expect, test } from 'vitest';
import { binaryKind, knownSignatureKind } from '../../src/content/binary-kind.ts';
import { kindOfFileType } from '../../src/content/kinds.ts';
import * as make from '../fixtures/make-bytes.ts';

describe('binaryKind', () => {
  // our fast path for common formats must answer exactly what file-type 21 answers
  test.each([
    ['png', make.makePng()],
    ['apng', make.makePng({ apng: true })],
    ['jpeg', make.makeJpeg()],
    ['gif', make.makeGif()],
    ['webp', make.makeWebp()],
    ['pdf', make.makePdf()],
    ['bmp', make.makeBmp()],
    ['avif', make.makeAvif()],
    ['elf', make.makeElf()],
    ['pe', make.makePe()],
    ['macho', make.makeMacho()],
    ['wasm', make.makeWasm()],
    ['lnk', make.makeLnk()],
    ['gzip', make.makeGzip()],
    ['deb', make.makeDeb()],
  ])('%s agrees with file-type', async (kind, bytes) => {
    const found = await fileTypeFromBuffer(bytes);
    expect(found === undefined ? null : kindOfFileType(found.ext, found.mime)).toBe(kind);
    expect(await binaryKind(bytes)).toBe(kind);
  });

  test.each([
    ['crx', make.makeCrx()],
    ['dex', Buffer.from('dex\n035\0', 'latin1')],
    ['shell-script', Buffer.from('#!/bin/sh\n\0', 'latin1')],
    ['reg', Buffer.from('REGEDIT4\r\n', 'latin1')],
    ['zip', make.makeZip([{ name: 'a', data: 'b' }])],
    ['cfb', make.makeCfb({ names: ['x'] })],
  ])('own signature: %s', async (kind, bytes) => {
    expect(await binaryKind(bytes)).toBe(kind);
  });

  test('unknown bytes name nothing', async () => {
    expect(await binaryKind(make.seededBytes(300))).toBeNull();
  });

  test.each([
    ['png', make.makePng()],
    ['apng', make.makePng({ apng: true })],
    ['jpeg', make.makeJpeg()],
    ['gif', make.makeGif()],
    ['webp', make.makeWebp()],
    ['bmp', make.makeBmp()],
    ['pdf', make.makePdf()],
  ])('our own check answers %s synchronously, as file-type does', async (kind, bytes) => {
    expect(knownSignatureKind(bytes)).toBe(kind);
    const found = await fileTypeFromBuffer(bytes);
    expect(found === undefined ? null : kindOfFileType(found.ext, found.mime)).toBe(kind);
  });

  test.each([
    ['pe', make.makePe()],
    ['elf', make.makeElf()],
    ['avif', make.makeAvif()],
    ['gzip', make.makeGzip()],
    ['one byte', Buffer.from([0x89])],
    ['a png signature cut short', make.makePng().subarray(0, 7)],
    ['unknown', make.seededBytes(64)],
  ])('leaves %s to file-type', (_, bytes) => {
    expect(knownSignatureKind(bytes)).toBeUndefined();
  });
});
