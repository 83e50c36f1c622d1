// Payloads hidden in image metadata: PNG text and profile chunks (tEXt, iTXt, zTXt, eXIf, iCCP) and every chunk
// outside the allow-list of chunks whose data is numbers (private, rare and unknown chunks are read as raw
// bytes), JPEG comment and APPn segments (EXIF, XMP, ICC) before, between and after the scans, every GIF
// extension but graphic control (comment, application, plain text, unknown labels), and every WebP chunk but
// pixels and frames (XMP, EXIF, ICCP, private); each segment alone and all of them joined. A viewer never runs them, but a
// host that sniffs the file as HTML (the classic image-with-script upload) or a carver that extracts them does.
// Walks are bounded by `maxImageParts`, reads by the item's size, inflating by `maxMetadataInflateBytes`.
import { constants, inflateSync } from 'node:zlib';
import { findActiveMarkup } from '../svg-html/active-markup.ts';
import { maxImageParts } from './image-structure.ts';

/** Budget for inflating compressed metadata (zTXt, compressed iTXt, iCCP) of one image, bytes (all chunks together). */
export const maxMetadataInflateBytes = 1024 * 1024;

/** What the metadata of an image hides, as a one-line message; null when nothing active was found. Linear in the bytes. */
export function findActiveMetadata(kind: string, bytes: Buffer): string | null {
  return readMetadata(kind, bytes).active;
}

/** `findActiveMetadata`, and why part of the metadata could not be inspected (compressed metadata past `maxMetadataInflateBytes`), or null. */
export function readMetadata(kind: string, bytes: Buffer): { active: string | null; uninterpretable: string | null } {
  const over: MetadataLimits = { exceeded: false, damaged: false };
  const segments =
    kind === 'png' || kind === 'apng'
      ? pngSegments(bytes, over)
      : kind === 'jpeg'
        ? jpegSegments(bytes)
        : kind === 'gif'
          ? gifSegments(bytes)
          : kind === 'webp'
            ? webpSegments(bytes)
            : [];
  for (const segment of segments) {
    const markup = findActiveMarkup(segment.data.toString(segment.utf8 ? 'utf8' : 'latin1'), 'text');
    if (markup !== null) return { active: `${segment.where} holds ${markup}`, uninterpretable: null };
    const program = executableInside(segment.data);
    if (program !== null) return { active: `${segment.where} holds ${program}`, uninterpretable: null };
  }
  // markup split across segments (`<img onerror="/*` in one chunk, `*/alert(1)//">` in the next) is whole to a
  // carver that joins them and to a sniffer reading the file as HTML, which skips the bytes between as text
  if (segments.length > 1) {
    const joined = segments.map((x) => x.data.toString(x.utf8 ? 'utf8' : 'latin1')).join('');
    const markup = findActiveMarkup(joined, 'text');
    if (markup !== null)
      return { active: `${kind} metadata segments read together hold ${markup}`, uninterpretable: null };
  }
  // the cap fails closed: metadata left compressed was never looked at
  const uninterpretable = over.exceeded
    ? `${kind} compressed metadata inflates past the ${maxMetadataInflateBytes} byte inspection budget`
    : over.damaged
      ? `${kind} compressed metadata does not inflate`
      : null;
  return { active: null, uninterpretable };
}

// what reading the metadata could not do: inflate past the budget, or inflate damaged data at all
interface MetadataLimits {
  exceeded: boolean;
  damaged: boolean;
}

interface Segment {
  where: string;
  data: Buffer;
  utf8: boolean;
}

// PNG chunk types as big-endian numbers
const tEXt = 0x74455874;
const iTXt = 0x69545874;
const zTXt = 0x7a545874;
const iCCP = 0x69434350;
const IEND = 0x49454e44;

// chunks whose data is numbers or pixels (PNG 3rd edition, APNG): nothing in them is ever shown as text
const numericChunkNames: readonly string[] = [
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'cHRM',
  'gAMA',
  'sBIT',
  'sRGB',
  'cICP',
  'mDCv',
  'cLLi',
  'bKGD',
  'hIST',
  'pHYs',
  'tIME',
  'acTL',
  'fcTL',
  'fdAT',
  'oFFs',
  'sTER',
];
// the same as big-endian numbers, the form the walk reads a type in: a numeric chunk (the pixels' megabytes among
// them) is passed over with no view, name or search made of it
const numericChunks: ReadonlySet<number> = new Set(
  numericChunkNames.map((name) => Buffer.from(name, 'latin1').readUInt32BE(0)),
);

function pngSegments(b: Buffer, over: MetadataLimits): Segment[] {
  const out: Segment[] = [];
  let budget = maxMetadataInflateBytes;
  const inflate = (data: Buffer): Buffer => {
    if (budget <= 0) {
      over.exceeded = true;
      return Buffer.alloc(0);
    }
    try {
      const inflated = inflateSync(data, { maxOutputLength: budget });
      budget -= inflated.length;
      return inflated;
    } catch (error) {
      // past the budget the rest is unread (reported)
      if (error instanceof RangeError) {
        over.exceeded = true;
        budget = 0;
        return Buffer.alloc(0);
      }
    }
    // data cut short or damaged part way: what zlib yields before the damage is what a carver gets; data that
    // yields nothing at all is reported (fails closed), and later chunks are still read
    try {
      const inflated = inflateSync(data, { maxOutputLength: budget, finishFlush: constants.Z_SYNC_FLUSH });
      budget -= inflated.length;
      return inflated;
    } catch (error) {
      if (error instanceof RangeError) {
        over.exceeded = true;
        budget = 0;
      } else over.damaged = true;
      return Buffer.alloc(0);
    }
  };
  let at = 8;
  for (let n = 0; n < maxImageParts && at + 12 <= b.length; n++) {
    const length = b.readUInt32BE(at);
    const type = b.readUInt32BE(at + 4);
    const dataStart = at + 8;
    const dataEnd = dataStart + length;
    if (dataEnd + 4 > b.length || type === IEND) break;
    if (numericChunks.has(type)) {
      at = dataEnd + 4;
      continue;
    }
    const data = b.subarray(dataStart, dataEnd);
    const name = b.toString('latin1', at + 4, at + 8);
    const keywordEnd = data.indexOf(0);
    if (type === tEXt) {
      out.push({
        where: `png \`${name}\` chunk`,
        data: keywordEnd === -1 ? data : data.subarray(keywordEnd + 1),
        utf8: false,
      });
    } else if (type === zTXt || type === iCCP) {
      // keyword, NUL, compression method, zlib data
      if (keywordEnd !== -1)
        out.push({ where: `png \`${name}\` chunk`, data: inflate(data.subarray(keywordEnd + 2)), utf8: false });
    } else if (type === iTXt && keywordEnd !== -1) {
      // keyword, NUL, compressed flag, method, language tag, NUL, translated keyword, NUL, text
      const compressed = data[keywordEnd + 1] === 1;
      const language = data.indexOf(0, keywordEnd + 3);
      const translated = language === -1 ? -1 : data.indexOf(0, language + 1);
      if (translated !== -1) {
        const text = data.subarray(translated + 1);
        out.push({ where: `png \`${name}\` chunk`, data: compressed ? inflate(text) : text, utf8: true });
      }
    } else {
      // eXIf, private (`prVt`), rare (`pCAL`, `sPLT`, `gIFx`) and unknown chunks: their raw bytes
      out.push({ where: `png \`${name}\` chunk`, data, utf8: false });
    }
    at = dataEnd + 4;
  }
  return out;
}

function jpegSegments(b: Buffer): Segment[] {
  const out: Segment[] = [];
  let at = 2;
  for (let n = 0; n < maxImageParts && at + 4 <= b.length; n++) {
    if (b[at] !== 0xff) break;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd9) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const end = at + 2 + b.readUInt16BE(at + 2);
    if (end > b.length) break;
    if (marker === 0xfe || (marker >= 0xe0 && marker <= 0xef)) {
      const name = marker === 0xfe ? 'COM' : `APP${marker - 0xe0}`;
      out.push({ where: `jpeg \`${name}\` segment`, data: b.subarray(at + 4, end), utf8: true });
    }
    // a scan's entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart
    // marker; segments (a comment, APPn) may follow between scans and after the last one, up to EOI
    at = marker === 0xda ? nextMarker(b, end) : end;
  }
  return out;
}

// the first marker at or after `from` outside entropy-coded data (0xFF followed by neither 0x00, 0xFF nor RSTn)
function nextMarker(b: Buffer, from: number): number {
  for (let at = b.indexOf(0xff, from); at !== -1 && at + 1 < b.length; at = b.indexOf(0xff, at + 1)) {
    const next = b[at + 1] ?? 0;
    if (next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) return at;
  }
  return b.length;
}

// WebP (RIFF) chunks whose data is pixels, animation or frame parameters; every other chunk (`XMP `, `EXIF`,
// `ICCP`, private and unknown ones) is read as raw bytes
const webpPixelChunks: ReadonlySet<string> = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);

function webpSegments(b: Buffer): Segment[] {
  const out: Segment[] = [];
  let at = 12;
  for (let n = 0; n < maxImageParts && at + 8 <= b.length; n++) {
    const name = b.toString('latin1', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    const dataEnd = Math.min(b.length, at + 8 + size);
    if (!webpPixelChunks.has(name))
      out.push({ where: `webp \`${name}\` chunk`, data: b.subarray(at + 8, dataEnd), utf8: name === 'XMP ' });
    at = at + 8 + size + (size % 2);
  }
  return out;
}

function gifSegments(b: Buffer): Segment[] {
  const out: Segment[] = [];
  if (b.length < 13) return out;
  const flags = b[10] ?? 0;
  let at = 13 + ((flags & 0x80) !== 0 ? 3 * (1 << ((flags & 0x07) + 1)) : 0);
  // the sub-blocks from `at` joined, and where they end; null when truncated
  const subBlocks = (collect: boolean): Buffer | null => {
    const parts: Buffer[] = [];
    for (let n = 0; n < maxImageParts; n++) {
      if (at >= b.length) return null;
      const size = b[at] ?? 0;
      if (collect) parts.push(b.subarray(at + 1, Math.min(b.length, at + 1 + size)));
      at += 1 + size;
      if (size === 0) return Buffer.concat(parts);
    }
    return null;
  };
  for (let n = 0; n < maxImageParts && at < b.length; n++) {
    const block = b[at];
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = b[at + 1];
      at += 2;
      // only graphic control (0xF9) is numbers; comment (0xFE), application (0xFF, where XMP lives), plain
      // text (0x01) and unknown extensions carry free data
      const collect = label !== 0xf9;
      const data = subBlocks(collect);
      if (data === null) break;
      if (collect) out.push({ where: `gif ${gifExtensionName(label)} extension`, data, utf8: true });
    } else if (block === 0x2c) {
      if (at + 10 > b.length) break;
      const local = b[at + 9] ?? 0;
      at += 11 + ((local & 0x80) !== 0 ? 3 * (1 << ((local & 0x07) + 1)) : 0);
      if (subBlocks(false) === null) break;
    } else {
      break;
    }
  }
  return out;
}

function gifExtensionName(label: number | undefined): string {
  if (label === 0xfe) return 'comment';
  if (label === 0xff) return 'application';
  if (label === 0x01) return 'plain text';
  return `0x${(label ?? 0).toString(16).padStart(2, '0')}`;
}

// native programs by their headers anywhere in a metadata payload: pe (`MZ` whose `e_lfanew` points at
// `PE\0\0`), elf, mach-o (both byte orders, 32 and 64 bit) and webassembly
const headerMagics: readonly { magic: Buffer; what: string }[] = [
  { magic: Buffer.from([0x7f, 0x45, 0x4c, 0x46]), what: 'an elf executable' },
  { magic: Buffer.from([0xcf, 0xfa, 0xed, 0xfe]), what: 'a mach-o executable' },
  { magic: Buffer.from([0xce, 0xfa, 0xed, 0xfe]), what: 'a mach-o executable' },
  { magic: Buffer.from([0xfe, 0xed, 0xfa, 0xcf]), what: 'a mach-o executable' },
  { magic: Buffer.from([0xfe, 0xed, 0xfa, 0xce]), what: 'a mach-o executable' },
  { magic: Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]), what: 'a webassembly module' },
];

function executableInside(data: Buffer): string | null {
  for (let mz = data.indexOf('MZ', 0, 'latin1'); mz !== -1; mz = data.indexOf('MZ', mz + 1, 'latin1')) {
    if (mz + 0x40 > data.length) break;
    const pe = mz + data.readUInt32LE(mz + 0x3c);
    if (pe + 4 <= data.length && data.readUInt32BE(pe) === 0x50450000) return 'a windows pe executable';
  }
  for (const { magic, what } of headerMagics) if (data.indexOf(magic) !== -1) return what;
  return null;
}
