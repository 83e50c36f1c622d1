import { describe, expect, test } from 'vitest';
import { imageStructure } from '../../../src/content/image/image-structure.ts';
import { makeAvif, makeBmp, makeGif, makeJpeg, makePng, makeWebp } from '../../fixtures/make-bytes.ts';

describe('imageStructure', () => {
  test.each([
    ['png', makePng({ width: 3, height: 5 }), 3, 5],
    ['apng', makePng({ width: 4, height: 2, apng: true }), 4, 2],
    ['jpeg', makeJpeg({ width: 640, height: 480 }), 640, 480],
    ['gif', makeGif({ width: 7, height: 9 }), 7, 9],
    ['webp', makeWebp({ width: 300, height: 200 }), 300, 200],
    ['bmp', makeBmp({ width: 5, height: 3 }), 5, 3],
    ['avif', makeAvif({ width: 1920, height: 1080 }), 1920, 1080],
  ])('%s: dimensions and end', (kind, bytes, width, height) => {
    expect(imageStructure(kind, bytes)).toEqual({ width, height, end: bytes.length });
  });

  test.each([
    ['png', makePng({ omitEnd: true })],
    ['jpeg', makeJpeg({ omitEnd: true })],
    ['gif', makeGif({ omitEnd: true })],
    ['webp', makeWebp().subarray(0, 20)],
    ['png', makePng().subarray(0, 30)],
  ])('%s: truncated has no end', (kind, bytes) => {
    expect(imageStructure(kind, bytes)?.end).toBeNull();
  });

  test.each([
    ['png', makePng()],
    ['jpeg', makeJpeg()],
    ['gif', makeGif()],
    ['webp', makeWebp()],
    ['avif', makeAvif()],
  ])('%s: the end stops before appended data', (kind, bytes) => {
    const appended = Buffer.concat([bytes, Buffer.from('appended data')]);
    expect(imageStructure(kind, appended)?.end).toBe(bytes.length);
  });

  // a second frame header (progressive, or a later frame) may claim more than the first: the largest counts
  test.each([
    ['a larger later frame', 20_000, 20_000, 20_000, 20_000],
    ['a smaller later frame', 4, 4, 8, 8],
  ])('jpeg with %s', (_, w, h, width, height) => {
    const jpeg = makeJpeg({ width: 8, height: 8 });
    const sof = Buffer.from([0xff, 0xc2, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
    sof.writeUInt16BE(h, 5);
    sof.writeUInt16BE(w, 7);
    const sos = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    const bytes = Buffer.concat([jpeg.subarray(0, sos), sof, jpeg.subarray(sos)]);
    expect(imageStructure('jpeg', bytes)).toEqual({ width, height, end: bytes.length });
  });

  test('other kinds have no image structure', () => {
    expect(imageStructure('pdf', Buffer.from('%PDF-'))).toBeNull();
  });
});
