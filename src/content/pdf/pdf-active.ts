// PDF active content (DESIGN §5): the names below anywhere in the object layer, also `#xx`-escaped
// (PDF 1.2+ name escapes, `/J#61vaScript`) and inside FlateDecode object streams (PDF 1.5+ ObjStm).
// Every pass is linear in what it reads: names are found by one byte loop, the stream walk never goes
// back past the previous stream, and inflating is capped in bytes and in streams (each inflate has a
// fixed zlib set-up cost, so 100,000 tiny streams would otherwise cost as much as a large file).
import { constants, inflateSync } from 'node:zlib';
import { quoteValue } from '../../decision/quote-value.ts';
import { WorkBudget } from '../work-budget.ts';
import {
  endsToken,
  isNumberToken,
  isWhite,
  nextStreamKeyword,
  readDictionary,
  skipWhiteAndComments,
  streamDataStart,
} from './pdf-lexer.ts';

/** Names that make a PDF active: script, launch actions, attachments (the attachment stream's `/Type` is optional, so a file specification's `/EF` and a `/FileAttachment` annotation count too), rich media, XFA forms, form submission and data import. */
export const activePdfNames: ReadonlySet<string> = new Set([
  'JavaScript',
  'JS',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'EF',
  'FileAttachment',
  'RichMedia',
  'XFA',
  'SubmitForm',
  'ImportData',
]);

/** Default budget for inflating one PDF's streams, bytes (all streams together); past it the PDF is uninterpretable. */
export const defaultMaxInflateBytes = 64 * 1024 * 1024;

/** Default cap on compressed streams inflated in one PDF, streams; past it the PDF is uninterpretable. */
export const defaultMaxInflatedStreams = 10_000;

/** Work one scan did, for budgets and tests (counted, never timed). */
export interface PdfWork {
  /** `stream` keywords walked */
  streams: number;
  /** streams handed to zlib */
  inflatedStreams: number;
  /** bytes zlib produced, all streams together */
  inflatedBytes: number;
  /** bytes of the object layer and of inflated or raw object streams read for names */
  scannedBytes: number;
}

/** What a PDF scan found: the first active name, or why the file cannot be checked, and the work it took. */
export interface PdfScan {
  /** decoded active name (`JavaScript`) and where it was seen, or null */
  active: string | null;
  /** why the PDF cannot be inspected (truncated, encrypted, streams over budget), or null */
  uninterpretable: string | null;
  work: PdfWork;
}

const OVER_BUDGET = 'pdf streams inflate past the inspection budget';

// bytes that end a name: PDF delimiters and white space (PDF 32000 §7.2.3: NUL, TAB, LF, FF, CR, space; VT and
// NBSP too, as the former `\s` class had them); `#` ends it unless two hex digits follow
const nameEnd = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]) nameEnd[c] = 1;
for (const c of '/[]<>(){}%') nameEnd[c.charCodeAt(0)] = 1;
const isHex = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') isHex[c.charCodeAt(0)] = 1;
// first byte of a name that can decode to an active name or `Encrypt` (or starts with an escape)
const interestingFirst = new Uint8Array(256);
for (const c of 'JLERXSIF#') interestingFirst[c.charCodeAt(0)] = 1;
/** Longest written name that can decode to an active name or `Encrypt`: `EmbeddedFiles` with every letter escaped. */
const maxInterestingRawName = 3 * 'EmbeddedFiles'.length;

const nameToken = /\/((?:[^\0\s/[\]<>(){}%#]|#[0-9A-Fa-f]{2})+)/g;

interface ScanState {
  work: PdfWork;
  encrypted: boolean;
  budget: WorkBudget;
}

/** Scans PDF bytes for active content without rendering: object layer, then inflated non-image streams. Linear in the bytes plus the inflated bytes; every step is spent from `budget` (throws `WorkExhausted` when it runs out, nothing else). */
export function scanPdf(
  bytes: Buffer,
  maxInflateBytes: number = defaultMaxInflateBytes,
  maxInflatedStreams: number = defaultMaxInflatedStreams,
  budget: WorkBudget = WorkBudget.unlimited(),
): PdfScan {
  budget.spend('pdf', bytes.length);
  const s = bytes.toString('latin1');
  const state: ScanState = {
    work: { streams: 0, inflatedStreams: 0, inflatedBytes: 0, scannedBytes: 0 },
    encrypted: false,
    budget,
  };
  const out: PdfScan = { active: null, uninterpretable: null, work: state.work };
  const walk: Walk = { s, bytes, state, out, budget: maxInflateBytes, maxInflatedStreams };
  const found = walkObjects(walk, 0, bytes.length, 0);
  if (found !== null) return { ...out, active: found };
  if (state.encrypted && out.uninterpretable === null)
    out.uninterpretable = 'encrypted pdf: strings and streams cannot be inspected';
  const tail = s.slice(Math.max(0, s.length - 1024));
  if (!tail.includes('%%EOF') && out.uninterpretable === null) out.uninterpretable = 'truncated pdf: no `%%EOF` marker';
  return out;
}

/** Deepest nesting of objects stored inside another stream's data that is followed; deeper is uninterpretable. */
export const maxHiddenObjectDepth = 4;

interface Walk {
  s: string;
  bytes: Buffer;
  state: ScanState;
  out: PdfScan;
  /** inflate bytes left */
  budget: number;
  maxInflatedStreams: number;
}

// the object layer in [from, to) and every stream starting there (a stream's data may run past `to`). A reader
// finds an object wherever its xref offset points, or, rebuilding a broken xref, wherever `N G obj` stands:
// also inside another stream's raw data (an image's pixels, a font program, an unfiltered content stream).
// Raw stream data holding an object header is therefore walked as objects too, `depth` levels deep.
function walkObjects(w: Walk, from: number, to: number, depth: number): string | null {
  const { s, bytes, state, out } = w;
  let pos = from;
  for (;;) {
    const at = nextStreamKeyword(s, pos, to, state.budget);
    const inside = at !== -1;
    const found = findActiveName(bytes, pos, inside ? at : to, state);
    if (found !== null)
      return describeName(
        found,
        depth === 0 ? 'in the object layer' : "in an object stored inside another stream's data",
      );
    if (!inside) return null;
    state.work.streams++;
    state.budget.spend('pdf', 64);
    const dict = streamDictionary(s, at, pos, state.budget);
    const dataStart = streamDataStart(s, at + 6);
    const dataEnd = streamEnd(s, dataStart, dict.keys);
    const refuse =
      state.work.inflatedStreams < w.maxInflatedStreams
        ? null
        : `pdf has more than ${w.maxInflatedStreams} compressed streams to inspect`;
    const verdict = inspectStream(dict, bytes.subarray(dataStart, dataEnd), w.budget, refuse);
    state.budget.spend('pdf', dataEnd - dataStart);
    if (verdict.inflated !== null) {
      state.budget.spend('pdf', verdict.inflated);
      state.work.inflatedStreams++;
      state.work.inflatedBytes += verdict.inflated;
      w.budget -= verdict.inflated;
    }
    if (verdict.uninterpretable !== null && out.uninterpretable === null) out.uninterpretable = verdict.uninterpretable;
    if (verdict.data !== null) {
      const inner = findActiveName(verdict.data, 0, verdict.data.length, state);
      if (inner !== null) return describeName(inner, 'inside a compressed stream');
    }
    const hidden = findObjectHeader(s, dataStart, dataEnd, state.budget);
    if (hidden !== -1) {
      if (depth >= maxHiddenObjectDepth) {
        if (out.uninterpretable === null)
          out.uninterpretable = `pdf nests objects inside stream data more than ${maxHiddenObjectDepth} deep`;
      } else {
        const inner = walkObjects(w, hidden, dataEnd, depth + 1);
        if (inner !== null) return inner;
      }
    }
    const after = s.indexOf('endstream', dataEnd);
    pos = after === -1 ? s.length : after + 9;
  }
}

/** A stream's dictionary in two readings: pdf.js's and a conservative one. */
interface StreamDict {
  /** the dictionary read forward from its object header by pdf.js's rules (strings emptied, comments blanked); else the `<<` … `>>` before the keyword */
  keys: string;
  /** everything from the object header (or the previous stream) to the keyword, comments blanked: keys a reader may see */
  span: string;
  /** true when `keys` is the dictionary pdf.js reads from the object header */
  exact: boolean;
}

// the dictionary before the `stream` keyword at `at`: pdf.js reads an object from its header (`N G obj`, found by
// its xref offset) forward, so the nearest header before the keyword is lexed forward to the keyword; a
// dictionary that does not lex to it (no header, a header inside a string) falls back to the `<<` … `>>` found
// backwards, and `span` keeps every key written since the header for the conservative reading
function streamDictionary(s: string, at: number, floor: number, budget: WorkBudget): StreamDict {
  const header = objectHeaderBefore(s, floor, at, budget);
  const from = header === -1 ? floor : header;
  budget.spend('pdf', at - from);
  const span = readableDict(s.slice(from, at));
  if (header !== -1) {
    const open = skipWhiteAndComments(s, header + 3, at, budget);
    const dict = readDictionary(s, open, at, budget);
    if (dict !== null && skipWhiteAndComments(s, dict.end, at, budget) === at)
      return { keys: readableDict(dict.keys), span, exact: true };
  }
  return { keys: readableDict(dictBefore(s, at, floor, budget)), span, exact: false };
}

/** Most `obj` keywords looked at going back from a stream keyword for its object header. */
const maxHeaderTries = 16;

// the nearest `obj` in [floor, at) that pdf.js takes for an object header, or -1 (see isObjectHeader)
function objectHeaderBefore(s: string, floor: number, at: number, budget: WorkBudget): number {
  const region = s.slice(floor, at);
  let i = region.lastIndexOf('obj');
  for (let tries = 0; i !== -1 && tries < maxHeaderTries; tries++) {
    if (isObjectHeader(s, floor + i, floor, budget)) return floor + i;
    i = i === 0 ? -1 : region.lastIndexOf('obj', i - 1);
  }
  return -1;
}

// `obj` ending a token, after two tokens pdf.js reads as numbers (`Lexer.getNumber`: `5 -0 obj`, `5 +0 obj`,
// `5 0.0 obj` and `5 - obj` all read as object 5, generation 0); white space and comments may stand between
// them, and none is needed before `obj` (`5 0obj`: a number ends at the first byte that cannot continue it)
function isObjectHeader(s: string, i: number, floor: number, budget: WorkBudget): boolean {
  if (!endsToken(s.charCodeAt(i + 3))) return false;
  let end = i;
  for (let n = 0; n < 2; n++) {
    const j = backOverSpace(s, end, floor, budget);
    let start = j;
    while (start > floor && isNumberChar(s.charCodeAt(start - 1))) start--;
    budget.spend('pdf', j - start);
    if (start === j || !isNumberToken(s, start, j)) return false;
    end = start;
  }
  return true;
}

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e;
}

// back from `at` over white space and comment lines, never below `floor`; a line whose first `%` opens a
// comment running to `at` is stepped over (bounded: a header's tokens are near it)
function backOverSpace(s: string, at: number, floor: number, budget: WorkBudget): number {
  let i = at;
  for (let guard = 0; guard < 64; guard++) {
    const top = i;
    while (i > floor && (isWhite(s.charCodeAt(i - 1)) || s.charCodeAt(i - 1) === 0x0b)) i--;
    if (i <= floor || isNumberChar(s.charCodeAt(i - 1))) {
      budget.spend('pdf', top - i);
      return i;
    }
    let lineStart = i - 1;
    while (lineStart > floor && s.charCodeAt(lineStart - 1) !== 0x0a && s.charCodeAt(lineStart - 1) !== 0x0d)
      lineStart--;
    budget.spend('pdf', top - lineStart);
    const percent = s.slice(lineStart, i).indexOf('%');
    if (percent === -1) return i;
    i = lineStart + percent;
  }
  return i;
}

// the first `obj` keyword in [from, to) that a reader would take for an object header (isObjectHeader), or -1
function findObjectHeader(s: string, from: number, to: number, budget: WorkBudget): number {
  for (let i = s.indexOf('obj', from); i !== -1 && i + 3 <= to; i = s.indexOf('obj', i + 3)) {
    budget.spend('pdf', 8);
    if (isObjectHeader(s, i, from, budget)) return i;
  }
  return -1;
}

// the stream dictionary as a reader sees its keys: `#xx` escapes decoded, comments (outside strings) and NULs
// read as the white space they are
function readableDict(raw: string): string {
  let dict = raw.includes('#') ? decodeNamesIn(raw) : raw;
  if (dict.includes('%')) dict = withoutComments(dict);
  return dict.includes('\0') ? dict.replaceAll('\0', ' ') : dict;
}

// comments replaced by a space; a `%` inside a literal string `(…)` is text
function withoutComments(text: string): string {
  let out = '';
  let depth = 0;
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (depth > 0) {
      if (c === 0x5c) i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29) depth--;
    } else if (c === 0x28) {
      depth = 1;
    } else if (c === 0x25) {
      let end = i;
      while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
      out += `${text.slice(last, i)} `;
      last = end;
      i = end - 1;
    }
  }
  return out + text.slice(last);
}

/** Decodes `#xx` escapes of a PDF name (without its slash). */
export function decodeName(raw: string): string {
  return raw.includes('#')
    ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : raw;
}

interface FoundName {
  name: string;
  raw: string;
}

function describeName(found: FoundName, where: string): string {
  return `pdf active content \`/${found.name}\`${found.raw !== found.name ? ` (written ${quoteValue(`/${found.raw}`)})` : ''} ${where}`;
}

// the first active name in bytes [from, to), as the `nameToken` pattern would find it; notes `/Encrypt` on the
// way. One pass: every byte is looked at once, as part of a name or on the way to the next `/`
function findActiveName(b: Buffer, from: number, to: number, state: ScanState): FoundName | null {
  if (to > from) {
    state.work.scannedBytes += to - from;
    state.budget.spend('pdf', to - from);
  }
  let i = from;
  while (i < to) {
    if (b[i] !== 0x2f) {
      i++;
      continue;
    }
    const slash = i;
    let end = slash + 1;
    while (end < to) {
      const c = b[end] ?? 0;
      if (nameEnd[c] === 1) break;
      if (c === 0x23) {
        if (end + 2 < to && isHex[b[end + 1] ?? 0] === 1 && isHex[b[end + 2] ?? 0] === 1) end += 3;
        else break;
      } else {
        end++;
      }
    }
    const length = end - slash - 1;
    if (length > 0 && length <= maxInterestingRawName && interestingFirst[b[slash + 1] ?? 0] === 1) {
      const raw = b.toString('latin1', slash + 1, end);
      const name = decodeName(raw);
      if (activePdfNames.has(name)) return { name, raw };
      if (name === 'Encrypt') state.encrypted = true;
    }
    i = length > 0 ? end : slash + 1;
  }
  return null;
}

function decodeNamesIn(text: string): string {
  return text.replace(nameToken, (_, raw: string) => `/${decodeName(raw)}`);
}

// JS `\s` over latin-1, as the former regex test was
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0;
}

// the stream dictionary: from the matching `<<` back from the `>>` that precedes the keyword (past white space
// and comments); never below `floor`
function dictBefore(s: string, streamAt: number, floor: number, budget: WorkBudget): string {
  let end = streamAt;
  while (end > floor && !(s.charCodeAt(end - 1) === 0x3e && s.charCodeAt(end - 2) === 0x3e)) end--;
  budget.spend('pdf', streamAt - end);
  let depth = 0;
  for (let i = end - 1; i > floor; i--) {
    budget.spend('pdf', 1);
    const c = s.charCodeAt(i);
    const prev = s.charCodeAt(i - 1);
    if (c === 0x3e && prev === 0x3e) {
      depth++;
      i--;
    } else if (c === 0x3c && prev === 0x3c) {
      depth--;
      i--;
      if (depth === 0) return s.slice(i, end);
    }
  }
  return s.slice(floor, end);
}

// trust a direct /Length only when `endstream` follows it; otherwise search for the keyword
function streamEnd(s: string, dataStart: number, dict: string): number {
  const length = /\/Length\s+(\d{1,12})(?!\s+\d+\s+R)/.exec(dict);
  if (length !== null) {
    const end = dataStart + Number(length[1]);
    if (end <= s.length && /^\s*endstream/.test(s.slice(end, end + 32))) return end;
  }
  const found = s.indexOf('endstream', dataStart);
  if (found === -1) return s.length;
  let end = found;
  if (s.charCodeAt(end - 1) === 0x0a) end--;
  if (s.charCodeAt(end - 1) === 0x0d) end--;
  return Math.max(dataStart, end);
}

interface StreamVerdict {
  /** bytes to read for names: the inflated stream, or a raw object stream; null when skipped */
  data: Buffer | null;
  /** bytes zlib produced; null when zlib was not asked */
  inflated: number | null;
  uninterpretable: string | null;
}

const skipped: StreamVerdict = Object.freeze({ data: null, inflated: null, uninterpretable: null });

// `refuse`: why no more streams may be inflated (the stream cap), or null
function inspectStream(stream: StreamDict, data: Buffer, budget: number, refuse: string | null): StreamVerdict {
  // an object stream is read whatever other keys claim (`/Subtype /Image` on an ObjStm hides nothing from a
  // reader), and so is any stream with a `/First` key: pdf.js reads `/N` and `/First` (signed, or by reference)
  // from whichever stream an xref entry names as the holder of compressed objects, whatever its `/Type`; either
  // reading of the dictionary makes it one
  const objectStream = isObjectStream(stream.keys) || isObjectStream(stream.span);
  // pixel data and font programs are not PDF syntax; scanning them only yields chance matches. Only the
  // dictionary pdf.js reads may say so: a key in a string or a guessed dictionary skips nothing
  const keys = stream.keys;
  if (
    objectStream || !stream.exact
      ? false
      : /\/Subtype\s*\/Image\b/.test(keys) ||
        /\/Length[123]\b/.test(keys) ||
        /\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)\b/.test(keys)
  )
    return skipped;
  if (!objectStream && stream.exact && /\/Type\s*\/XRef\b/.test(keys)) return skipped;
  const named = filterNames(keys);
  // no filter in the dictionary read: any filter written since the object header is taken (conservative)
  const dict = named.length > 0 ? keys : stream.span;
  const filters = named.length > 0 ? named : filterNames(stream.span);
  if (filters.length === 0) return objectStream ? { data, inflated: null, uninterpretable: null } : skipped;
  if (filters.length !== 1 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) {
    return objectStream
      ? {
          ...skipped,
          uninterpretable: `pdf object stream with filter ${quoteValue(filters.join(' '))} cannot be inspected`,
        }
      : skipped;
  }
  const predictor = /\/Predictor\s+(\d+)/.exec(dict);
  // parameters by reference may name a predictor we cannot see
  if ((predictor !== null && Number(predictor[1]) > 1) || /\/(?:DecodeParms|DP)\s+\d/.test(dict)) {
    return objectStream
      ? { ...skipped, uninterpretable: 'pdf object stream with a predictor cannot be inspected' }
      : skipped;
  }
  if (budget <= 0) return { ...skipped, uninterpretable: OVER_BUDGET };
  if (refuse !== null) return { ...skipped, uninterpretable: refuse };
  try {
    const inflated = inflateSync(data, { maxOutputLength: budget });
    return { data: inflated, inflated: inflated.length, uninterpretable: null };
  } catch (error) {
    // zlib stops at `maxOutputLength`: the whole remaining budget is spent
    if (error instanceof RangeError) return { data: null, inflated: budget, uninterpretable: OVER_BUDGET };
  }
  try {
    // a stream cut short (a lying `/Length`, or a fake `endstream` inside the data when the length is a
    // reference) hides the rest of its objects: Z_SYNC_FLUSH keeps what it yields, and an object stream is
    // marked uninterpretable because its end was never seen
    const inflated = inflateSync(data, { maxOutputLength: budget, finishFlush: constants.Z_SYNC_FLUSH });
    return {
      data: inflated,
      inflated: inflated.length,
      uninterpretable: objectStream ? 'pdf object stream ends before its compressed data does' : null,
    };
  } catch (error) {
    if (error instanceof RangeError) return { data: null, inflated: budget, uninterpretable: OVER_BUDGET };
    return objectStream
      ? { data: null, inflated: 0, uninterpretable: 'pdf object stream does not inflate' }
      : { data: null, inflated: 0, uninterpretable: null };
  }
}

function isObjectStream(dict: string): boolean {
  return /\/Type\s*\/ObjStm\b/.test(dict) || /\/First(?![^\0\s/[\]<>(){}%])/.test(dict);
}

/** Filter name standing for a `/Filter` given by reference (`/Filter 9 0 R`): its names cannot be seen in the dictionary. */
export const indirectFilter = '(indirect)';

// the first `/Filter` (or `/F`, the abbreviation pdf.js also honours in stream dictionaries) entry with a value:
// a name, an array of names up to its `]`, or a reference; one forward pass
function filterNames(dict: string): string[] {
  // the first `]` at or after the last `[` seen; once there is none, no later array can close either
  let close: number | null = null;
  let unclosed = false;
  for (let at = dict.indexOf('/F'); at !== -1; at = dict.indexOf('/F', at + 2)) {
    const key = dict.startsWith('/Filter', at) ? 7 : 2;
    // `/F` alone: the next byte must end the name (`/First`, `/FDecodeParms` are other keys)
    if (key === 2 && !(at + 2 >= dict.length || nameEnd[dict.charCodeAt(at + 2) & 0xff] === 1)) continue;
    if (key === 7 && at + 7 < dict.length && nameEnd[dict.charCodeAt(at + 7) & 0xff] !== 1) continue;
    let i = at + key;
    while (i < dict.length && isSpace(dict.charCodeAt(i))) i++;
    const c = dict.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) return [indirectFilter];
    if (c === 0x5b) {
      if (unclosed) continue;
      if (close === null || close < i) close = dict.indexOf(']', i);
      if (close === -1) {
        unclosed = true;
        continue;
      }
      return [...dict.slice(i, close + 1).matchAll(/\/([^\s/[\]<>()]+)/g)].map((x) => x[1] ?? '');
    }
    if (c === 0x2f) {
      const name = /\/([^\s/[\]<>()]+)/y;
      name.lastIndex = i;
      const m = name.exec(dict);
      if (m !== null) return [m[1] ?? ''];
    }
  }
  return [];
}
