// A bounded ZIP directory reader (APPNOTE 6.3.10): entry names and sizes, and small entries on demand.
// Offsets are corrected for data prepended to the archive, which is how image + ZIP polyglots are built.
import { inflateRawSync } from 'node:zlib';
import { WorkBudget } from '../work-budget.ts';

/** Most entries listed from one archive; an archive with more is uninterpretable (`ZipListing.truncated`), never judged by the first ones alone. */
export const maxZipEntries = 65_536;
/** Tail searched for the end-of-central-directory record, bytes (record plus the largest comment). */
export const eocdSearchBytes = 22 + 65_535;

/** One entry of a ZIP central directory (or, as a fallback, of a local header). */
export interface ZipEntry {
  name: string;
  /** compression method: 0 stored, 8 deflate */
  method: number;
  /** compressed size, bytes */
  compressedSize: number;
  /** absolute offset of the local file header in the buffer */
  localOffset: number;
}

/** A ZIP found in a buffer: its entries and where the archive starts (bytes prepended before it). */
export interface ZipListing {
  entries: ZipEntry[];
  /** absolute offset of the archive's first byte (0 unless data was prepended) */
  start: number;
  /** true when listing stopped at `maxZipEntries` with entries left unlisted */
  truncated?: boolean;
}

const EOCD = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CEN = 0x02014b50;
const LOC = 0x04034b50;

/** Finds a ZIP by its end-of-central-directory record in the tail and lists its entries; null when there is none or it does not hold together. */
export function readZipDirectory(bytes: Buffer, budget: WorkBudget = WorkBudget.unlimited()): ZipListing | null {
  if (bytes.length < 22) return null;
  // search only the tail: a backward search over the whole buffer costs O(size) for every image without a zip
  const floor = Math.max(0, bytes.length - eocdSearchBytes);
  const tail = bytes.subarray(floor);
  let at = tail.lastIndexOf(EOCD, tail.length - 22);
  while (at !== -1) {
    budget.spend('zip', 22);
    const listing = listingAt(bytes, floor + at, budget);
    if (listing !== null) return listing;
    at = at === 0 ? -1 : tail.lastIndexOf(EOCD, at - 1);
  }
  return null;
}

/** `scanLocalHeaders` as a listing from offset 0, `truncated` when it stopped at `maxZipEntries`. */
export function scanLocalListing(bytes: Buffer, budget: WorkBudget = WorkBudget.unlimited()): ZipListing {
  const entries = scanLocalHeaders(bytes, 0, budget, maxZipEntries + 1);
  const truncated = entries.length > maxZipEntries;
  return { entries: truncated ? entries.slice(0, maxZipEntries) : entries, start: 0, truncated };
}

/** Lists entries by walking local file headers from `from` (at most `limit`); for archives whose central directory is missing or damaged. */
export function scanLocalHeaders(
  bytes: Buffer,
  from = 0,
  budget: WorkBudget = WorkBudget.unlimited(),
  limit = maxZipEntries,
): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = bytes.indexOf('PK\u0003\u0004', from, 'latin1');
  while (at !== -1 && at + 30 <= bytes.length && entries.length < limit) {
    const nameLength = bytes.readUInt16LE(at + 26);
    const extraLength = bytes.readUInt16LE(at + 28);
    const flags = bytes.readUInt16LE(at + 6);
    const compressedSize = bytes.readUInt32LE(at + 18);
    const nameEnd = at + 30 + nameLength;
    if (nameEnd > bytes.length) break;
    budget.spend('zip', 30 + nameLength);
    entries.push({
      name: decodeEntryName(bytes.subarray(at + 30, nameEnd), flags),
      method: bytes.readUInt16LE(at + 8),
      compressedSize,
      localOffset: at,
    });
    // with a data descriptor (bit 3) the sizes come after the data, so search for the next header instead
    const skip = (flags & 0x08) === 0 ? compressedSize : 0;
    at = bytes.indexOf('PK\u0003\u0004', Math.min(bytes.length, nameEnd + extraLength + skip), 'latin1');
  }
  return entries;
}

/** Reads one entry's data (stored or deflated) up to `maxBytes`; null when it is larger, uses another method, or is damaged. */
export function readZipEntry(bytes: Buffer, entry: ZipEntry, maxBytes: number): Buffer | null {
  const at = entry.localOffset;
  if (at < 0 || at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOC) return null;
  const dataStart = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > bytes.length) return null;
  const data = bytes.subarray(dataStart, dataEnd);
  if (entry.method === 0) return data.length <= maxBytes ? data : null;
  if (entry.method !== 8) return null;
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch {
    return null;
  }
}

function listingAt(bytes: Buffer, eocd: number, budget: WorkBudget): ZipListing | null {
  let count = bytes.readUInt16LE(eocd + 10);
  let cdSize = bytes.readUInt32LE(eocd + 12);
  let cdOffset = bytes.readUInt32LE(eocd + 16);
  let cdEnd = eocd;
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const zip64 = zip64Record(bytes, eocd);
    if (zip64 === null) return null;
    ({ count, cdSize, cdOffset, cdEnd } = zip64);
  }
  const cdStart = cdEnd - cdSize;
  const start = cdStart - cdOffset;
  if (cdStart < 0 || start < 0) return null;
  if (count === 0 && cdSize === 0) return { entries: [], start, truncated: false };
  if (cdStart + 46 > bytes.length || bytes.readUInt32LE(cdStart) !== CEN) return null;
  const entries: ZipEntry[] = [];
  let at = cdStart;
  // the entry count may lie (0, or fewer than there are) while readers such as `java -jar` walk the whole
  // directory: every header up to the directory's end is listed, whatever the count says
  let truncated = false;
  for (;;) {
    if (at + 46 > cdEnd || bytes.readUInt32LE(at) !== CEN) break;
    if (entries.length >= maxZipEntries) {
      truncated = true;
      break;
    }
    const flags = bytes.readUInt16LE(at + 8);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const nameEnd = at + 46 + nameLength;
    if (nameEnd > cdEnd) break;
    budget.spend('zip', 46 + nameLength);
    let compressedSize = bytes.readUInt32LE(at + 20);
    let localOffset = bytes.readUInt32LE(at + 42);
    if (compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      ({ compressedSize, localOffset } = zip64Extra(
        bytes.subarray(nameEnd, Math.min(cdEnd, nameEnd + extraLength)),
        bytes.readUInt32LE(at + 24),
        compressedSize,
        localOffset,
      ));
    }
    entries.push({
      name: decodeEntryName(bytes.subarray(at + 46, nameEnd), flags),
      method: bytes.readUInt16LE(at + 10),
      compressedSize,
      localOffset: start + localOffset,
    });
    at = nameEnd + extraLength + commentLength;
  }
  return { entries, start, truncated };
}

function zip64Record(
  bytes: Buffer,
  eocd: number,
): { count: number; cdSize: number; cdOffset: number; cdEnd: number } | null {
  const locator = eocd - 20;
  if (locator < 0 || bytes.readUInt32LE(locator) !== 0x07064b50) return null;
  // the record sits right before its locator; its stored offset is relative to the archive start, which prepended data shifts
  const record = locator - 56;
  if (record < 0 || bytes.readUInt32LE(record) !== 0x06064b50) return null;
  const count = Number(bytes.readBigUInt64LE(record + 32));
  const cdSize = Number(bytes.readBigUInt64LE(record + 40));
  const cdOffset = Number(bytes.readBigUInt64LE(record + 48));
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(cdSize) || !Number.isSafeInteger(cdOffset)) return null;
  return { count, cdSize, cdOffset, cdEnd: record };
}

function zip64Extra(
  extra: Buffer,
  uncompressed: number,
  compressedSize: number,
  localOffset: number,
): { compressedSize: number; localOffset: number } {
  let at = 0;
  while (at + 4 <= extra.length) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const end = field + size;
      const next = (): number | null => {
        if (field + 8 > end || field + 8 > extra.length) return null;
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (uncompressed === 0xffffffff) next();
      const c = compressedSize === 0xffffffff ? next() : compressedSize;
      const o = localOffset === 0xffffffff ? next() : localOffset;
      return { compressedSize: c ?? compressedSize, localOffset: o ?? localOffset };
    }
    at += 4 + size;
  }
  return { compressedSize, localOffset };
}

function decodeEntryName(raw: Buffer, flags: number): string {
  return raw.toString((flags & 0x0800) !== 0 ? 'utf8' : 'latin1');
}
