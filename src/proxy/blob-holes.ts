import { isAscii } from 'node:buffer';

// An 8 MiB png read is an 11 MB line that is almost all one base64 string. `JSON.parse` of that line scanned and
// copied all of it (a fifth of the proxy's CPU per read), and the decoder then copied the parsed string whole again
// (Node 20 decodes base64 in place only from an external string). Here the line's long strings are found in its
// bytes, the rest of the line (a few hundred bytes) is parsed, and each long string is put in as an external string
// of its own bytes. A line this reader cannot read exactly so is parsed whole, as before.
//
// Why the value is the one `JSON.parse` makes of the whole line. Each hole is the bytes between two `"` that hold no
// `"` and no `\`, and that are base64 only (every byte decoded: no control character, space, non-ASCII byte). Its
// bytes are replaced by `\u0000` and the hole's digit, and the text outside the holes spells no `\u0000`, so the
// string U+0000 + digit can only be the token `"\u0000<digit>"` made of that hole with its two quotes as delimiters.
// When the parsed value holds that string where the hole's path leads, the whole line lexes the same with the hole's
// own bytes in that token (they hold no quote or backslash), so its value is the parsed one with that string replaced.
// Anything else (the text not JSON, a duplicate member that took the hole's place, a path the scan got wrong) leaves
// some sentinel missing, and the line is parsed whole.

/** Lines from this many bytes are looked at for long strings (shorter ones are parsed whole). */
export const holedLineBytes = 256 * 1024;

/** A string value from this many bytes is cut out of the text `JSON.parse` reads. */
export const holeBytes = 64 * 1024;

// at most ten holes: each sentinel is U+0000 and one digit
const maxHoles = 10;
const quote = 0x22;
const backslash = 0x5c;
// base64 characters checked per slice, and the buffer they are decoded into
const sliceChars = 256 * 1024;
const scratch = Buffer.allocUnsafeSlow((sliceChars / 4) * 3 + 3);
const sentinelSpelling = Buffer.from('\\u0000', 'latin1');

/** A line with its long base64 strings cut out. */
export interface HoledLine {
  /** the line's text with each long string's content replaced by `\u0000` and its digit (the same member names) */
  readonly text: string;
  /** puts each long string into `value` (`JSON.parse(text)`) where its sentinel is; false: one is not where it was cut */
  fill(value: unknown): boolean;
}

interface Hole {
  readonly start: number;
  readonly end: number;
  readonly path: readonly (string | number)[];
  /** its bytes as a string (over about 1 MB Node makes it an external one: the decision's decode reads it in place) */
  readonly value: string;
}

/**
 * `line` (one line's bytes) with its long base64 string values cut out, or null when it holds none this reader can
 * take (the caller parses the line whole). `minHoleBytes`: the shortest string cut out (`holeBytes`; tests use less).
 */
export function holedLine(line: Buffer, minHoleBytes = holeBytes): HoledLine | null {
  const holes = longStrings(line, minHoleBytes);
  if (holes === null || holes.length === 0) return null;
  const pieces: Buffer[] = [];
  let last = 0;
  for (const [i, hole] of holes.entries()) {
    const piece = line.subarray(last, hole.start);
    if (piece.indexOf(sentinelSpelling) !== -1) return null;
    pieces.push(piece, Buffer.from(`\\u0000${i}`, 'latin1'));
    last = hole.end;
  }
  const tail = line.subarray(last);
  if (tail.indexOf(sentinelSpelling) !== -1) return null;
  pieces.push(tail);
  const rest = Buffer.concat(pieces);
  const text = isAscii(rest) ? rest.toString('latin1') : rest.toString('utf8');
  return {
    text,
    fill(value) {
      for (const [i, hole] of holes.entries()) {
        const parent = parentAt(value, hole.path);
        const key = hole.path[hole.path.length - 1] as string | number;
        if (parent === null || parent[key] !== `\u0000${i}`) return false;
        parent[key] = hole.value;
      }
      return true;
    },
  };
}

// the container `path` (all but its last step) leads to in `value`, or null
function parentAt(value: unknown, path: readonly (string | number)[]): Record<string | number, unknown> | null {
  let at = value;
  for (let i = 0; i < path.length - 1; i += 1) {
    if (at === null || typeof at !== 'object') return null;
    at = (at as Record<string | number, unknown>)[path[i] as string | number];
  }
  return at !== null && typeof at === 'object' ? (at as Record<string | number, unknown>) : null;
}

// the long base64 string values of `line` and their paths (keys as JSON reads them, array indices), in order; null
// when a long string is not base64 or there are too many: the line is then parsed whole
function longStrings(line: Buffer, minHoleBytes: number): Hole[] | null {
  const n = line.length;
  const holes: Hole[] = [];
  const path: (string | number)[] = [];
  const inObject: boolean[] = [];
  let expectKey = false;
  let nextBackslash = line.indexOf(backslash);
  let pos = 0;
  while (pos < n) {
    const c = line[pos] as number;
    if (c === quote) {
      const start = pos + 1;
      let p = start;
      let escaped = false;
      let end: number;
      // the next quote is searched again only once an escape has passed it (`\"`): searched after each escape, a
      // string of k escapes was read k times to its end (a 1 MiB line of `\n` took 4 s)
      let q = line.indexOf(quote, p);
      for (;;) {
        if (q === -1) return null;
        if (nextBackslash !== -1 && nextBackslash < p) nextBackslash = line.indexOf(backslash, p);
        if (nextBackslash === -1 || nextBackslash > q) {
          end = q;
          break;
        }
        // an escape: the character after the backslash is never the string's end
        escaped = true;
        p = nextBackslash + 2;
        if (q < p) q = line.indexOf(quote, p);
      }
      pos = end + 1;
      const depth = path.length;
      if (expectKey && depth > 0) {
        const key = keyOf(line, start, end, escaped);
        if (key === null) return null;
        path[depth - 1] = key;
        expectKey = false;
      } else if (!escaped && depth > 0 && end - start >= minHoleBytes) {
        const bytes = line.subarray(start, end);
        if (holes.length === maxHoles || bytes.length % 4 !== 0 || !isAscii(bytes)) return null;
        const value = bytes.toString('latin1');
        if (!isBase64(value)) return null;
        holes.push({ start, end, path: path.slice(), value });
      }
    } else if (c === 0x7b) {
      path.push('');
      inObject.push(true);
      expectKey = true;
      pos += 1;
    } else if (c === 0x5b) {
      path.push(0);
      inObject.push(false);
      expectKey = false;
      pos += 1;
    } else if (c === 0x7d || c === 0x5d) {
      path.pop();
      inObject.pop();
      expectKey = false;
      pos += 1;
    } else if (c === 0x2c) {
      const depth = path.length;
      if (inObject[depth - 1] === true) expectKey = true;
      else if (depth > 0) path[depth - 1] = (path[depth - 1] as number) + 1;
      pos += 1;
    } else pos += 1;
  }
  return holes;
}

// a member name as JSON reads it; null when it cannot be read (the line is then parsed whole)
function keyOf(line: Buffer, start: number, end: number, escaped: boolean): string | null {
  const key = escaped ? null : line.toString('utf8', start, end);
  if (key !== null) return key === '__proto__' ? null : key;
  try {
    const read = JSON.parse(line.toString('utf8', start - 1, end + 1)) as unknown;
    return typeof read === 'string' && read !== '__proto__' ? read : null;
  } catch {
    return null;
  }
}

// every character of `text` (ASCII, length a multiple of 4) is base64 (`A-Z a-z 0-9 + / - _`, then at most two `=`):
// Node's decoder skips any other character and stops at an `=`, so the count it writes falls short of the count the
// length gives. Decoded a slice at a time into one small buffer kept for it (8 MiB: ~1.3 ms; into 6 MB of new
// pages ~7 ms, the page faults)
function isBase64(text: string): boolean {
  const length = text.length;
  for (let at = 0; at < length; at += sliceChars) {
    const slice = text.slice(at, at + sliceChars);
    let pads = 0;
    if (at + sliceChars >= length && slice.charCodeAt(slice.length - 1) === 0x3d)
      pads += slice.charCodeAt(slice.length - 2) === 0x3d ? 2 : 1;
    if (scratch.write(slice, 'base64') !== (slice.length / 4) * 3 - pads) return false;
  }
  return true;
}
