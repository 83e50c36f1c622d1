// A stream's dictionary as readers see it: read forward from its object header by pdf.js's rules, or the
// `<<` … `>>` before the `stream` keyword, with every key written since the header kept for the conservative
// reading; and what the dictionary says about the stream (its end, its filters, whether it holds objects).
import type { WorkBudget } from '../work-budget.ts';
import { pdfJsDictEnd } from './pdf-dict-close.ts';
import { readDictionary, skipWhiteAndComments } from './pdf-lexer.ts';
import { decodeNamesIn, nameEnd } from './pdf-names.ts';
import { findObjectHeader, numbersBefore, objectHeaderBefore } from './pdf-object-header.ts';

/** A stream's dictionary in two readings: pdf.js's and a conservative one. */
export interface StreamDict {
  /** the dictionary read forward from its object header by pdf.js's rules (strings emptied, comments blanked); else the `<<` … `>>` before the keyword */
  keys: string;
  /** everything from the object header (or the previous stream) to the keyword, comments blanked: keys a reader may see */
  span: string;
  /** true when `keys` is the dictionary pdf.js reads from the object header */
  exact: boolean;
  /** the stream's object number and generation from its header (`N G obj`), or null when it has none */
  object: [number, number] | null;
  /** true when an earlier object header's dictionary, read by pdf.js's rules, also ends at the keyword: which dictionary pdf.js reads is unknown */
  ambiguous: boolean;
}

/**
 * The dictionary before the `stream` keyword at `at`: pdf.js reads an object from its header (`N G obj`, found by
 * its xref offset) forward, so the nearest header before the keyword is lexed forward to the keyword; a
 * dictionary that does not lex to it (no header, a header inside a string) falls back to the `<<` … `>>` found
 * backwards, and `span` keeps every key written since the header for the conservative reading.
 */
export function streamDictionary(s: string, at: number, floor: number, budget: WorkBudget): StreamDict {
  const header = objectHeaderBefore(s, floor, at, budget);
  const from = header === -1 ? floor : header;
  budget.spend('pdf', at - from);
  const span = readableDict(s.slice(from, at));
  const object = header === -1 ? null : objectNumber(s, header, floor);
  const ambiguous = header !== -1 && earlierHeaderReaches(s, floor, header, at, budget);
  if (header !== -1 && !ambiguous) {
    const open = skipWhiteAndComments(s, header + 3, at, budget);
    const dict = readDictionary(s, open, at, budget);
    if (dict !== null && skipWhiteAndComments(s, dict.end, at, budget) === at)
      return { keys: readableDict(dict.keys), span, exact: true, object, ambiguous };
  }
  return { keys: readableDict(dictBefore(s, at, floor, budget)), span, exact: false, object, ambiguous };
}

// true when an object header in [floor, before) opens a dictionary that pdf.js's reading (a non-name in a key's
// place skipped, `<<` and `endobj` included) does not end before the keyword at `at`, or ends right at it: a
// decoy header (`5 0 obj << /Filter /FlateDecode /X 10 0 obj << … >> stream`, or one in a string) stands nearer
// the keyword than the header pdf.js fetches the stream from
function earlierHeaderReaches(s: string, floor: number, before: number, at: number, budget: WorkBudget): boolean {
  for (let h = findObjectHeader(s, floor, before, budget); h !== -1; h = findObjectHeader(s, h + 3, before, budget)) {
    const open = skipWhiteAndComments(s, h + 3, at, budget);
    if (!s.startsWith('<<', open)) continue;
    const end = pdfJsDictEnd(s, open, at, budget);
    if (end === -1 || skipWhiteAndComments(s, end, at, budget) === at) return true;
  }
  return false;
}

// the object number and generation written before `obj` at `header` (what a decryption key is made from)
function objectNumber(s: string, header: number, floor: number): [number, number] | null {
  return numbersBefore(s, Math.max(floor, header - 48), header);
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

/** Where a stream's data ends: a direct `/Length` only when `endstream` follows it, otherwise the keyword's offset. */
export function streamEnd(s: string, dataStart: number, dict: string): number {
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

/** True when a reader takes the stream for an object stream (`/Type /ObjStm`, or any `/First` key). */
export function isObjectStream(dict: string): boolean {
  return /\/Type\s*\/ObjStm\b/.test(dict) || /\/First(?![^\0\s/[\]<>(){}%])/.test(dict);
}

/** Filter name standing for a `/Filter` given by reference (`/Filter 9 0 R`): its names cannot be seen in the dictionary. */
export const indirectFilter = '(indirect)';

/**
 * The first `/Filter` (or `/F`, the abbreviation pdf.js also honours in stream dictionaries) entry with a value:
 * a name, an array of names up to its `]` (`indirectFilter` added for a reference in it), or a reference
 * (`indirectFilter`); one forward pass.
 */
export function filterNames(dict: string): string[] {
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
      const array = dict.slice(i, close + 1);
      const names = [...array.matchAll(/\/([^\s/[\]<>()]+)/g)].map((x) => x[1] ?? '');
      // pdf.js fetches each element by reference too (`[9 0 R]`): a filter it names cannot be seen here
      return /\d/.test(array.replace(/\/[^\s/[\]<>()]+/g, '')) ? [...names, indirectFilter] : names;
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
