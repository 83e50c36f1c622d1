// Which bytes are text: valid UTF-8, UTF-16 behind a byte order mark, or (suspiciously) UTF-16 without one.
import { isUtf8 } from 'node:buffer';

/** How text bytes were encoded; `*-nobom` is a guess and makes declared text unsafe. */
export type TextEncodingName =
  | 'utf-8'
  | 'utf-8-bom'
  | 'utf-16le-bom'
  | 'utf-16be-bom'
  | 'utf-16le-nobom'
  | 'utf-16be-nobom';

/** Bytes decoded as text, with the problems of the encoding itself (odd UTF-16 length, lone surrogates, missing BOM). */
export interface DecodedText {
  /** the text without its byte order mark */
  text: string;
  encoding: TextEncodingName;
  /** one-line descriptions of encoding problems; empty when the encoding is clean */
  issues: string[];
}

/** True when bytes start with a UTF-8, UTF-16LE or UTF-16BE byte order mark. */
export function startsWithBom(bytes: Uint8Array): boolean {
  return (
    (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) ||
    (bytes[0] === 0xff && bytes[1] === 0xfe) ||
    (bytes[0] === 0xfe && bytes[1] === 0xff)
  );
}

/** Leading bytes sampled to guess UTF-16 without a BOM, bytes. */
export const utf16GuessSampleBytes = 4096;

/** Where `decodeText` finds UTF-8 text in bytes, without decoding it: 3 past a UTF-8 byte order mark, 0 for valid UTF-8 that does not look like UTF-16, -1 when the bytes are not read as UTF-8. */
export function utf8TextStart(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return isUtf8(buf.subarray(3)) ? 3 : -1;
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) return -1;
  // UTF-16 of ASCII text is also valid UTF-8 (NUL is a valid code point), so the zero pattern is checked first
  if (guessUtf16(buf) !== null) return -1;
  return isUtf8(buf) ? 0 : -1;
}

/** Decodes bytes that are text (UTF-8, UTF-16 with a BOM, UTF-16 without a BOM by a zero-byte pattern); null for bytes that are not text. */
export function decodeText(bytes: Uint8Array): DecodedText | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = utf8TextStart(buf);
  if (utf8 !== -1)
    return { text: buf.toString('utf8', utf8), encoding: utf8 === 3 ? 'utf-8-bom' : 'utf-8', issues: [] };
  if (startsWithBom(buf) && buf[0] === 0xef) return null;
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return decodeUtf16(buf.subarray(2), 'le', 'utf-16le-bom');
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return decodeUtf16(buf.subarray(2), 'be', 'utf-16be-bom');
  const guess = guessUtf16(buf);
  if (guess === null) return null;
  const decoded = decodeUtf16(buf, guess, guess === 'le' ? 'utf-16le-nobom' : 'utf-16be-nobom');
  decoded.issues.unshift('utf-16 text without a byte order mark');
  return decoded;
}

/** True when a string holds a lone UTF-16 surrogate (not representable as UTF-8). */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

function decodeUtf16(body: Buffer, order: 'le' | 'be', encoding: TextEncodingName): DecodedText {
  const issues: string[] = [];
  let even = body;
  if (body.length % 2 !== 0) {
    issues.push('utf-16 text with an odd number of bytes');
    even = body.subarray(0, body.length - 1);
  }
  // swap a copy for big-endian: Node's utf16le decoder needs no ICU, and the input stays untouched
  const le = order === 'le' ? even : Buffer.from(even).swap16();
  const text = le.toString('utf16le');
  if (hasLoneSurrogate(text)) issues.push('utf-16 text with unpaired surrogates');
  return { text, encoding, issues };
}

// ASCII-range UTF-16 has a zero in every other byte and almost none in the others
function guessUtf16(buf: Buffer): 'le' | 'be' | null {
  const n = Math.min(buf.length, utf16GuessSampleBytes) & ~1;
  if (n < 4) return null;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < n; i += 2) {
    if (buf[i] === 0) zeroEven++;
    if (buf[i + 1] === 0) zeroOdd++;
  }
  const pairs = n / 2;
  if (zeroOdd >= Math.max(2, pairs * 0.5) && zeroEven <= pairs * 0.02) return 'le';
  if (zeroEven >= Math.max(2, pairs * 0.5) && zeroOdd <= pairs * 0.02) return 'be';
  return null;
}
