// The filter chains an object stream is written with, undone as pdf.js undoes them (its `AsciiHexStream`,
// `Ascii85Stream`, `FlateStream`, `LZWStream`, `RunLengthStream` and `PredictorStream`), in the order the `/Filter`
// array names them, each FlateDecode or LZWDecode with the predictor its `/DecodeParms` names. Each stage's output
// counts against the inflate budget.
import { constants, inflateSync } from 'node:zlib';
import { lzwDecode, runLengthDecode } from './pdf-lzw.ts';
import { type Predictor, predictedLength, unpredict } from './pdf-predictor.ts';

type Decoder = 'hex' | 'a85' | 'flate' | 'lzw' | 'rl';

// the full and abbreviated names pdf.js's `Parser.makeFilter` accepts
const decoders: ReadonlyMap<string, Decoder> = new Map([
  ['ASCIIHexDecode', 'hex'],
  ['AHx', 'hex'],
  ['ASCII85Decode', 'a85'],
  ['A85', 'a85'],
  ['FlateDecode', 'flate'],
  ['Fl', 'flate'],
  ['LZWDecode', 'lzw'],
  ['LZW', 'lzw'],
  ['RunLengthDecode', 'rl'],
  ['RL', 'rl'],
]);

/** How one filter of a chain is undone: its `/DecodeParms` as pdf.js reads them for it. */
export interface FilterParms {
  /** the predictor after a FlateDecode or LZWDecode, or null */
  predictor: Predictor | null;
  /** LZWDecode's `/EarlyChange` (default 1) */
  earlyChange: number;
}

/** No parameters: no predictor, LZW's default early change. */
export const noParms: FilterParms = Object.freeze({ predictor: null, earlyChange: 1 });

/** True when pdf.js applies `/DecodeParms` to the filter (FlateDecode and LZWDecode; the others ignore them). */
export function takesParms(filter: string): boolean {
  const decoder = decoders.get(filter);
  return decoder === 'flate' || decoder === 'lzw';
}

/** True for an LZWDecode filter name (full or abbreviated). */
export function isLzw(filter: string): boolean {
  return decoders.get(filter) === 'lzw';
}

/** Longest filter chain undone; a longer one is not read. */
export const maxFilterChain = 8;

/** True for a FlateDecode filter name (full or abbreviated). */
export function isFlate(filter: string | undefined): boolean {
  return filter !== undefined && decoders.get(filter) === 'flate';
}

/** True when every filter in the chain is one this file undoes (at most `maxFilterChain`). */
export function undoableChain(filters: readonly string[]): boolean {
  return filters.length <= maxFilterChain && filters.every((f) => decoders.has(f));
}

/** What undoing a chain made: the decoded bytes (null when a stage failed), the bytes produced, and why it stopped short. */
export interface Decoded {
  data: Buffer | null;
  /** bytes all stages produced together */
  produced: number;
  /** why the decoded bytes are not the whole stream, or null */
  short: 'over-budget' | 'cut' | 'broken' | null;
}

/** Undoes `filters` in order on `data` within `budget` output bytes (all stages together), each with its `parms` (absent: none). */
export function decodeChain(
  filters: readonly string[],
  data: Buffer,
  budget: number,
  parms: readonly FilterParms[] = [],
): Decoded {
  let bytes = data;
  let produced = 0;
  let short: Decoded['short'] = null;
  for (const [i, filter] of filters.entries()) {
    const left = budget - produced;
    if (left <= 0) return { data: null, produced: budget, short: 'over-budget' };
    const decoder = decoders.get(filter);
    const own = parms[i] ?? noParms;
    if (decoder === 'flate') {
      const stage = inflateStage(bytes, left);
      produced += stage.produced;
      if (stage.data === null) return { data: null, produced, short: stage.short };
      if (stage.short !== null) short = stage.short;
      bytes = stage.data;
    } else if (decoder === 'lzw' || decoder === 'rl') {
      const stage = decoder === 'lzw' ? lzwDecode(bytes, own.earlyChange, left) : runLengthDecode(bytes, left);
      produced += stage.produced;
      if (stage.data === null) return { data: null, produced: budget, short: 'over-budget' };
      bytes = stage.data;
    } else {
      bytes = decoder === 'hex' ? asciiHex(bytes) : ascii85(bytes);
      produced += bytes.length;
      if (produced > budget) return { data: null, produced: budget, short: 'over-budget' };
    }
    if (own.predictor !== null && takesParms(filter)) {
      // whole rows: a short last row is filled out, so the rows may be a little longer than the stage's output
      const rows = predictedLength(bytes.length, own.predictor);
      produced += Math.max(0, rows - bytes.length);
      if (produced > budget) return { data: null, produced: budget, short: 'over-budget' };
      const undone = unpredict(bytes, own.predictor);
      if (undone === null) return { data: null, produced, short: 'broken' };
      bytes = undone;
    }
  }
  return { data: bytes, produced, short };
}

function inflateStage(data: Buffer, budget: number): Decoded {
  try {
    const out = inflateSync(data, { maxOutputLength: budget });
    return { data: out, produced: out.length, short: null };
  } catch (error) {
    // zlib stops at `maxOutputLength`: the whole remaining budget is spent
    if (error instanceof RangeError) return { data: null, produced: budget, short: 'over-budget' };
  }
  try {
    // data cut short keeps what it yields, marked as cut
    const out = inflateSync(data, { maxOutputLength: budget, finishFlush: constants.Z_SYNC_FLUSH });
    return { data: out, produced: out.length, short: 'cut' };
  } catch (error) {
    if (error instanceof RangeError) return { data: null, produced: budget, short: 'over-budget' };
    return { data: null, produced: 0, short: 'broken' };
  }
}

// pdf.js `AsciiHexStream`: hex digits in pairs, `>` ends the data, anything else is skipped; a lone last digit
// is the high half of a byte
function asciiHex(data: Buffer): Buffer {
  const out = Buffer.alloc(Math.ceil(data.length / 2));
  let n = 0;
  let high = -1;
  for (const c of data) {
    let digit: number;
    if (c >= 0x30 && c <= 0x39) digit = c & 0x0f;
    else if ((c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)) digit = (c & 0x0f) + 9;
    else if (c === 0x3e) break;
    else continue;
    if (high < 0) high = digit;
    else {
      out[n++] = (high << 4) | digit;
      high = -1;
    }
  }
  if (high >= 0) out[n++] = high << 4;
  return out.subarray(0, n);
}

// pdf.js's white space for ASCII85 (`isWhiteSpace`: space, TAB, CR, LF)
function isA85White(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

// pdf.js `Ascii85Stream`: white space skipped, `~` or the end stops, `z` is four zero bytes, a short last group is
// padded with `u` and yields one byte fewer than it has characters
function ascii85(data: Buffer): Buffer {
  const out = Buffer.alloc(data.length * 4 + 4);
  let n = 0;
  let i = 0;
  const next = (): number => {
    while (isA85White(data[i])) i++;
    return i < data.length ? (data[i++] ?? -1) : -1;
  };
  const group = [0, 0, 0, 0, 0];
  for (;;) {
    const c = next();
    if (c === -1 || c === 0x7e) break;
    if (c === 0x7a) {
      n += 4;
      continue;
    }
    group[0] = c;
    let k = 1;
    for (; k < 5; k++) {
      const d = next();
      group[k] = d;
      if (d === -1 || d === 0x7e) break;
    }
    const count = k;
    for (; k < 5; k++) group[k] = 0x21 + 84;
    let t = 0;
    for (const g of group) t = t * 85 + (g - 0x21);
    const bytes = [0, 0, 0, 0];
    for (let b = 3; b >= 0; b--) {
      bytes[b] = t & 0xff;
      t >>= 8;
    }
    for (let b = 0; b < count - 1; b++) out[n++] = bytes[b] ?? 0;
    if (count < 5) break;
  }
  return out.subarray(0, n);
}
