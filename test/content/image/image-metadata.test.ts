import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { findActiveMetadata } from '../../../src/content/image/image-metadata.ts';
import * as make from '../../fixtures/make-bytes.ts';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([latin1(type), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([head, body, crc]);
}
function png(...extra: Buffer[]): Buffer {
  const base = make.makePng();
  const idat = base.indexOf('IDAT', 0, 'latin1') - 4;
  return Buffer.concat([base.subarray(0, idat), ...extra, base.subarray(idat)]);
}
function jpeg(marker: number, data: Buffer): Buffer {
  const base = make.makeJpeg();
  return Buffer.concat([
    base.subarray(0, 2),
    Buffer.from([0xff, marker, (data.length + 2) >> 8, (data.length + 2) & 0xff]),
    data,
    base.subarray(2),
  ]);
}
function gif(label: number, text: string): Buffer {
  const base = make.makeGif();
  return Buffer.concat([
    base.subarray(0, base.length - 1),
    Buffer.from([0x21, label, text.length]),
    latin1(text),
    Buffer.from([0, 0x3b]),
  ]);
}
const script = '<script>alert(1)</script>';

describe('findActiveMetadata', () => {
  test.each([
    ['png tEXt', 'png', png(chunk('tEXt', latin1(`Comment\0${script}`))), /`tEXt` chunk holds a `<script>`/],
    [
      'png zTXt',
      'png',
      png(chunk('zTXt', Buffer.concat([latin1('Comment\0\0'), deflateSync(latin1(script))]))),
      /`zTXt`/,
    ],
    [
      'png compressed iTXt',
      'png',
      png(
        chunk(
          'iTXt',
          Buffer.concat([
            latin1('XML:com.adobe.xmp\0\x01\0en\0\0'),
            deflateSync(latin1(`<x:xmpmeta onload=alert(1)/>`)),
          ]),
        ),
      ),
      /`iTXt`.*`onload`/,
    ],
    ['png eXIf with a pe', 'png', png(chunk('eXIf', make.makePe())), /pe executable/],
    [
      'png iCCP with an elf',
      'png',
      png(chunk('iCCP', Buffer.concat([latin1('icc\0\0'), deflateSync(make.makeElf())]))),
      /elf/,
    ],
    ['jpeg COM', 'jpeg', jpeg(0xfe, latin1(script)), /`COM` segment/],
    [
      'jpeg APP1 xmp with a javascript url',
      'jpeg',
      jpeg(0xe1, latin1('http://ns.adobe.com/xap/1.0/\0<a href="javascript:alert(1)">')),
      /`APP1`.*javascript/,
    ],
    [
      'jpeg APP2 with wasm',
      'jpeg',
      jpeg(0xe2, Buffer.concat([latin1('ICC_PROFILE\0'), make.makeWasm()])),
      /webassembly/,
    ],
    ['gif comment', 'gif', gif(0xfe, script), /comment extension/],
    ['gif application extension', 'gif', gif(0xff, `XMP DataXMP${script}`), /application extension/],
  ])('%s', (_, kind, bytes, message) => {
    expect(findActiveMetadata(kind, bytes)).toMatch(message);
  });

  test.each([
    ['plain png', 'png', make.makePng()],
    ['png with a plain comment', 'png', png(chunk('tEXt', latin1('Comment\0taken at 5 < 6 pm')))],
    [
      'png with xmp',
      'png',
      png(
        chunk('iTXt', latin1('XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')),
      ),
    ],
    ['jpeg with jfif', 'jpeg', make.makeJpeg()],
    ['gif with a plain comment', 'gif', gif(0xfe, 'hello')],
    ['a kind without metadata walks', 'webp', make.makeWebp()],
    ['a png whose compressed text is damaged', 'png', png(chunk('zTXt', latin1('Comment\0\0not zlib')))],
  ])('finds nothing in %s', (_, kind, bytes) => {
    expect(findActiveMetadata(kind, bytes)).toBeNull();
  });
});
