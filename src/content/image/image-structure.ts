// Raster image structure from headers and chunk walks: dimensions (for the pixel cap) and where the
// image ends (to find data appended after it). Nothing is decoded or rendered.
import { WorkBudget } from '../work-budget.ts';
import { heifPrimaryExtents } from './heif-boxes.ts';

/** An image's header facts; `end` is the offset just past its last byte by its own structure, null when truncated. */
export interface ImageStructure {
  width: number | null;
  height: number | null;
  end: number | null;
  /** why the structure a decoder reads the size from does not parse (the image is uninterpretable) */
  malformed?: string;
}

/** Most chunks, segments or boxes walked in one image before giving up as uninterpretable. */
export const maxImageParts = 1_000_000;

/** Walks a PNG/APNG/JPEG/GIF/WebP/BMP/AVIF image; null for other kinds. Never throws on malformed input. */
export function imageStructure(
  kind: string,
  bytes: Buffer,
  budget: WorkBudget = WorkBudget.unlimited(),
): ImageStructure | null {
  try {
    switch (kind) {
      case 'png':
      case 'apng':
        return png(bytes);
      case 'jpeg':
        return jpeg(bytes);
      case 'gif':
        return gif(bytes);
      case 'webp':
        return webp(bytes);
      case 'bmp':
        return bmp(bytes);
      case 'avif':
      case 'heic':
        return isoBmff(bytes, budget);
      default:
        return null;
    }
  } catch {
    // a read past the end is a truncated image
    return { width: null, height: null, end: null };
  }
}

// chunk type `IEND` as a big-endian number: compared without making a string per chunk
const IEND = 0x49454e44;

const fcTL = 0x6663544c;

// an APNG frame (`fcTL`: sequence, width, height, x offset, y offset) is drawn on a canvas of its own extent
function png(b: Buffer): ImageStructure {
  const size = new LargestFrame();
  if (b.length >= 24) size.frame(b.readUInt32BE(16), b.readUInt32BE(20));
  let at = 8;
  for (let n = 0; n < maxImageParts && at + 12 <= b.length; n++) {
    const length = b.readUInt32BE(at);
    const next = at + 12 + length;
    if (next > b.length) break;
    const type = b.readUInt32BE(at + 4);
    if (type === IEND) return size.structure(next);
    if (type === fcTL && length >= 20)
      size.frame(b.readUInt32BE(at + 12) + b.readUInt32BE(at + 20), b.readUInt32BE(at + 16) + b.readUInt32BE(at + 24));
    at = next;
  }
  return size.structure(null);
}

// the largest of an image's frames by pixel count: a decoder allocates for each frame it draws
class LargestFrame {
  width: number | null = null;
  height: number | null = null;
  frame(width: number, height: number): void {
    if (this.width === null || this.height === null || width * height > this.width * this.height) {
      this.width = width;
      this.height = height;
    }
  }
  structure(end: number | null): ImageStructure {
    return { width: this.width, height: this.height, end };
  }
}

// SOF markers carry the frame size; entropy-coded data runs until a marker other than RSTn or a stuffed 0xFF00
function jpeg(b: Buffer): ImageStructure {
  let width: number | null = null;
  let height: number | null = null;
  let at = 2;
  for (let n = 0; n < maxImageParts && at + 2 <= b.length; n++) {
    if (b[at] !== 0xff) return { width, height, end: null };
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd9) return { width, height, end: at + 2 };
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > b.length) return { width, height, end: null };
    const length = b.readUInt16BE(at + 2);
    const segmentEnd = at + 2 + length;
    if (segmentEnd > b.length) return { width, height, end: null };
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    // a later frame header may claim more pixels than the first (a decoder that honours it allocates for it):
    // the largest one counts against the pixel cap
    if (isSof && length >= 7) {
      const h = b.readUInt16BE(at + 5);
      const w = b.readUInt16BE(at + 7);
      if (width === null || height === null || w * h > width * height) {
        height = h;
        width = w;
      }
    }
    at = segmentEnd;
    if (marker === 0xda) {
      // scan data: find the next real marker
      for (;;) {
        const ff = b.indexOf(0xff, at);
        if (ff === -1 || ff + 1 >= b.length) return { width, height, end: null };
        const next = b[ff + 1] ?? 0;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
          at = ff + (next === 0xff ? 1 : 2);
          continue;
        }
        at = ff;
        break;
      }
    }
  }
  return { width, height, end: null };
}

// each image descriptor (left, top, width, height) is a frame with its own size, which may exceed the logical screen
function gif(b: Buffer): ImageStructure {
  if (b.length < 13) return { width: null, height: null, end: null };
  const size = new LargestFrame();
  size.frame(b.readUInt16LE(6), b.readUInt16LE(8));
  const flags = b[10] ?? 0;
  let at = 13 + ((flags & 0x80) !== 0 ? 3 * (1 << ((flags & 0x07) + 1)) : 0);
  const subBlocks = (): boolean => {
    for (let n = 0; n < maxImageParts; n++) {
      if (at >= b.length) return false;
      const size = b[at] ?? 0;
      at += 1 + size;
      if (size === 0) return true;
    }
    return false;
  };
  for (let n = 0; n < maxImageParts && at < b.length; n++) {
    const block = b[at];
    if (block === 0x3b) return size.structure(at + 1);
    if (block === 0x21) {
      at += 2;
      if (!subBlocks()) break;
    } else if (block === 0x2c) {
      if (at + 10 > b.length) break;
      size.frame(b.readUInt16LE(at + 1) + b.readUInt16LE(at + 5), b.readUInt16LE(at + 3) + b.readUInt16LE(at + 7));
      const local = b[at + 9] ?? 0;
      at += 10 + ((local & 0x80) !== 0 ? 3 * (1 << ((local & 0x07) + 1)) : 0);
      at += 1; // LZW minimum code size
      if (!subBlocks()) break;
    } else {
      break;
    }
  }
  return size.structure(null);
}

function webp(b: Buffer): ImageStructure {
  if (b.length < 12) return { width: null, height: null, end: null };
  const riffEnd = 8 + b.readUInt32LE(4);
  const size = new LargestFrame();
  const chunk = b.toString('latin1', 12, 16);
  const data = 20;
  if (chunk === 'VP8X' && b.length >= data + 10) {
    size.frame(1 + b.readUIntLE(data + 4, 3), 1 + b.readUIntLE(data + 7, 3));
  } else if (chunk === 'VP8 ' && b.length >= data + 10) {
    size.frame(b.readUInt16LE(data + 6) & 0x3fff, b.readUInt16LE(data + 8) & 0x3fff);
  } else if (chunk === 'VP8L' && b.length >= data + 5) {
    const bits = b.readUInt32LE(data + 1);
    size.frame(1 + (bits & 0x3fff), 1 + ((bits >>> 14) & 0x3fff));
  }
  // animation frames (`ANMF`: x/2, y/2, width-1, height-1, 24 bits each) have sizes of their own
  let at = 12;
  for (let n = 0; at + 8 <= Math.min(b.length, riffEnd); n++) {
    // the cap fails closed: chunks left unwalked were never looked at
    if (n >= maxImageParts) return size.structure(null);
    const length = b.readUInt32LE(at + 4);
    if (b.toString('latin1', at, at + 4) === 'ANMF' && at + 20 <= b.length)
      size.frame(
        2 * b.readUIntLE(at + 8, 3) + 1 + b.readUIntLE(at + 14, 3),
        2 * b.readUIntLE(at + 11, 3) + 1 + b.readUIntLE(at + 17, 3),
      );
    at += 8 + length + (length % 2);
  }
  if (riffEnd > b.length) return size.structure(null);
  // RIFF chunks are padded to even sizes
  return size.structure(Math.min(b.length, riffEnd + (riffEnd % 2)));
}

function bmp(b: Buffer): ImageStructure {
  if (b.length < 26) return { width: null, height: null, end: null };
  const headerSize = b.readUInt32LE(14);
  const width = headerSize === 12 ? b.readUInt16LE(18) : Math.abs(b.readInt32LE(18));
  const height = headerSize === 12 ? b.readUInt16LE(20) : Math.abs(b.readInt32LE(22));
  const declared = b.readUInt32LE(2);
  const pixelOffset = b.readUInt32LE(10);
  if (pixelOffset > b.length) return { width, height, end: null };
  // the file-size field is unreliable in the wild (0 or short); only a size beyond the buffer means truncation
  const end = declared > b.length ? null : declared >= pixelOffset && declared > 0 ? declared : b.length;
  return { width, height, end };
}

// top-level ISO-BMFF boxes (ISO/IEC 14496-12, HEIF); anything else at the top level is data after the file
const topLevelBoxes = new Set([
  'ftyp',
  'meta',
  'mdat',
  'moov',
  'free',
  'skip',
  'uuid',
  'pdin',
  'moof',
  'mfra',
  'styp',
  'sidx',
  'ssix',
  'prft',
  'emsg',
  'meco',
  'idat',
  'wide',
]);

// ISO-BMFF (AVIF, HEIF): top-level boxes cover the file; the size is the primary item's `ispe` (heif-boxes.ts)
function isoBmff(b: Buffer, budget: WorkBudget): ImageStructure {
  const end = topLevelEnd(b);
  if (end === null) return { width: null, height: null, end };
  const primary = heifPrimaryExtents(b, end, budget);
  if (!primary.ok) return { width: null, height: null, end, malformed: `avif/heif box structure: ${primary.why}` };
  return { width: primary.width, height: primary.height, end };
}

// where the top-level boxes end (data after it is another format's), or null when the last one is cut short
function topLevelEnd(b: Buffer): number | null {
  let at = 0;
  for (let n = 0; at < b.length; n++) {
    // the cap fails closed: boxes left unwalked make the image truncated, not data after it
    if (n >= maxImageParts) return null;
    if (at + 8 > b.length) return at;
    if (!topLevelBoxes.has(b.toString('latin1', at + 4, at + 8))) return at;
    let size = b.readUInt32BE(at);
    if (size === 1) {
      if (at + 16 > b.length) return null;
      size = Number(b.readBigUInt64BE(at + 8));
    } else if (size === 0) {
      return b.length;
    }
    if (size < 8) return at;
    if (at + size > b.length) return null;
    at += size;
  }
  return at;
}
