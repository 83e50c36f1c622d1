// The AVIF pixel cap reads the size a decoder uses: the primary item's associated `ispe`. Each variant is a real
// AVIF encoded by sharp (libheif + aom) whose `meta` box is rewritten; sharp, reading it back the way a browser's
// decoder does (libheif / libavif: `pitm` → `ipma` → `ipco`), is the oracle for its size.
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { imageStructure } from '../../../src/content/image/image-structure.ts';
import { decideItem } from '../decide-item.ts';
import { u32be } from '../../fixtures/make-bytes.ts';

function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([u32be(body.length + 8), Buffer.from(type, 'latin1'), body]);
}
function children(b: Buffer, from: number, to: number): { type: string; whole: Buffer; body: Buffer }[] {
  const out = [];
  for (let at = from; at < to; ) {
    const size = b.readUInt32BE(at);
    out.push({
      type: b.toString('latin1', at + 4, at + 8),
      whole: b.subarray(at, at + size),
      body: b.subarray(at + 8, at + size),
    });
    at += size;
  }
  return out;
}
const ispe = (w: number, h: number): Buffer => box('ispe', Buffer.alloc(4), u32be(w), u32be(h));

interface Parts {
  /** boxes of `meta` after its version/flags, by type, in order */
  meta: { type: string; whole: Buffer; body: Buffer }[];
  /** the `ipco` properties, in order (1-based indices in `ipma`) */
  ipco: Buffer[];
}

// a real 8×4 AVIF, taken apart: ftyp, meta (hdlr, pitm, iloc, iinf, iprp), mdat
const real = await sharp({ create: { width: 8, height: 4, channels: 3, background: '#f00' } })
  .avif({ effort: 0 })
  .toBuffer();
const top = children(real, 0, real.length);
const metaBox = top.find((b) => b.type === 'meta');
if (metaBox === undefined) throw new Error('sharp wrote no meta box');
const metaParts = children(metaBox.body, 4, metaBox.body.length);
const iprpBody = metaParts.find((b) => b.type === 'iprp')?.body ?? Buffer.alloc(0);
const ipcoBody = children(iprpBody, 0, iprpBody.length).find((b) => b.type === 'ipco')?.body ?? Buffer.alloc(0);
const realIpco = children(ipcoBody, 0, ipcoBody.length).map((b) => b.whole);

// reassembles the file with `change` applied to the meta box; the data offset in `iloc` follows the new meta size
function avif(change: (parts: Parts) => { meta: Buffer[]; before?: Buffer[] }): Buffer {
  const { meta, before = [] } = change({ meta: metaParts, ipco: realIpco });
  const newMeta = box('meta', Buffer.alloc(4), ...meta);
  const ftyp = top[0]?.whole ?? Buffer.alloc(0);
  const mdat = top.find((b) => b.type === 'mdat')?.whole ?? Buffer.alloc(0);
  const out = Buffer.concat([ftyp, ...before, newMeta, mdat]);
  const oldMdat = real.indexOf(mdat);
  const delta = out.indexOf(mdat, ftyp.length) - oldMdat;
  // iloc v0 with 4-byte sizes (what sharp writes): base offset of item 1 after the 8-byte header + 4 + 2 + 2 + 2 + 2
  const iloc = out.indexOf('iloc', 0, 'latin1') - 4;
  const base = iloc + 8 + 4 + 2 + 2 + 2 + 2;
  out.writeUInt32BE(out.readUInt32BE(base) + delta, base);
  return out;
}
const iprp = (ipco: Buffer[], ...ipma: Buffer[]): Buffer => box('iprp', box('ipco', ...ipco), ...ipma);
// ipma v0/v1, flags 0/1: one entry per item with its property indices (bit 7 / bit 15 marks essential)
function ipma(version: number, wide: boolean, entries: [number, number[]][]): Buffer {
  const rows = entries.map(([item, props]) => {
    const id = version === 0 ? Buffer.from([item >> 8, item & 0xff]) : u32be(item);
    const list = props.map((p) => (wide ? Buffer.from([0x80 | (p >> 8), p & 0xff]) : Buffer.from([0x80 | p])));
    return Buffer.concat([id, Buffer.from([props.length]), ...list]);
  });
  return box('ipma', Buffer.from([version, 0, 0, wide ? 1 : 0]), u32be(entries.length), ...rows);
}
const others = (parts: Parts): Buffer[] =>
  parts.meta.filter((b) => b.type !== 'iprp' && b.type !== 'pitm').map((b) => b.whole);
const pitm = (version: number, item: number): Buffer =>
  box('pitm', Buffer.from([version, 0, 0, 0]), version === 0 ? Buffer.from([item >> 8, item & 0xff]) : u32be(item));
// the real properties with the primary's ispe replaced: av1C, ispe, pixi
const withIspe = (parts: Parts, w: number, h: number): Buffer[] =>
  parts.ipco.map((p) => (p.toString('latin1', 4, 8) === 'ispe' ? ispe(w, h) : p));

// 8192 × 8192 = 67 megapixels, over default.yaml's 50
const W = 8192;
const H = 8192;
const oversized: [string, Buffer][] = [
  [
    'a decoy 8×4 ispe first in ipco, unassociated',
    avif((p) => ({
      meta: [...others(p), pitm(0, 1), iprp([ispe(8, 4), ...withIspe(p, W, H)], ipma(0, false, [[1, [2, 3, 4]]]))],
    })),
  ],
  [
    'a decoy ispe in a free box before meta',
    avif((p) => ({
      meta: [...others(p), pitm(0, 1), iprp(withIspe(p, W, H), ipma(0, false, [[1, [1, 2, 3]]]))],
      before: [box('free', ispe(8, 4))],
    })),
  ],
  [
    'a decoy ispe associated with another item listed first',
    avif((p) => ({
      meta: [
        ...others(p),
        pitm(0, 1),
        iprp(
          [ispe(8, 4), ...withIspe(p, W, H)],
          ipma(0, false, [
            [2, [1]],
            [1, [2, 3, 4]],
          ]),
        ),
      ],
    })),
  ],
  [
    'wide (16-bit) property indices',
    avif((p) => ({
      meta: [...others(p), pitm(0, 1), iprp([ispe(8, 4), ...withIspe(p, W, H)], ipma(0, true, [[1, [2, 3, 4]]]))],
    })),
  ],
  [
    'ipma version 1 (32-bit item ids) and pitm version 1',
    avif((p) => ({
      meta: [...others(p), pitm(1, 1), iprp([ispe(8, 4), ...withIspe(p, W, H)], ipma(1, false, [[1, [2, 3, 4]]]))],
    })),
  ],
];

describe('avif: the pixel cap reads the primary item’s ispe, as a decoder does', () => {
  test.each(oversized)('%s', async (_, bytes) => {
    const oracle = await sharp(bytes).metadata();
    expect([oracle.width, oracle.height]).toEqual([W, H]);
    const structure = imageStructure('avif', bytes);
    expect([structure?.width, structure?.height]).toEqual([oracle.width, oracle.height]);
    const { effect, codes } = await decideItem(bytes, 'image/avif');
    expect(effect).toBe('deny');
    expect(codes).toContain('content.image-too-large');
  });

  test('the real avif itself is allowed at its size', async () => {
    const oracle = await sharp(real).metadata();
    expect(imageStructure('avif', real)).toMatchObject({ width: oracle.width, height: oracle.height });
    expect((await decideItem(real, 'image/avif')).effect).toBe('allow');
  });

  const broken: [string, Buffer][] = [
    [
      'an ipma index past ipco',
      avif((p) => ({ meta: [...others(p), pitm(0, 1), iprp(p.ipco, ipma(0, false, [[1, [1, 2, 9]]]))] })),
    ],
    ['no pitm', avif((p) => ({ meta: [...others(p), iprp(p.ipco, ipma(0, false, [[1, [1, 2, 3]]]))] }))],
    [
      'a primary item without ispe',
      avif((p) => ({ meta: [...others(p), pitm(0, 1), iprp(p.ipco, ipma(0, false, [[1, [1, 3]]]))] })),
    ],
    [
      'ipma entries running past the box',
      avif((p) => ({
        meta: [...others(p), pitm(0, 1), iprp(p.ipco, ipma(0, false, [[1, [1, 2, 3]]]).subarray(0, 16))],
      })),
    ],
  ];
  test.each(broken)('a box structure that does not parse is partial: %s', async (_, bytes) => {
    await expect(sharp(bytes).metadata()).rejects.toThrow();
    const { effect, codes } = await decideItem(bytes, 'image/avif');
    expect(effect).toBe('partial');
    expect(codes).toContain('content.uninterpretable');
  });
});
