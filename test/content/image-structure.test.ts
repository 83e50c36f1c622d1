import { describe, expect, test } from 'vitest';
import { imageStructure } from '../../src/content/image-structure.ts';
import { makeAvif, makeBmp, makeGif, makeJpeg, makePng, makeWebp } from '../fixtures/make-bytes.ts';

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

  test('other kinds have no image structure', () => {
    expect(imageStructure('pdf', Buffer.from('%PDF-'))).toBeNull();
  });
});
