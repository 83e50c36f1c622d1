// PDF lexing as pdf.js reads it (its `Lexer`): which bytes are white space, delimiters or regular, how a comment,
// a literal or hex string and a number end, what follows the `stream` keyword. pdf-active.ts judges; this file
// only says where tokens are. Every function is linear in the bytes it passes and spends them from the budget.
import type { WorkBudget } from '../work-budget.ts';

// pdf.js `specialChars`: 1 white space (NUL, TAB, LF, FF, CR, space), 2 delimiter; everything else is regular
// (VT and NBSP too: `stream\v` is one command to pdf.js, not the keyword)
const special = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) special[c] = 1;
for (const c of '()<>[]{}/%') special[c.charCodeAt(0)] = 2;

/** True for a byte pdf.js reads as white space. */
export function isWhite(c: number): boolean {
  return special[c & 0xff] === 1;
}

// the keyword search also lets VT and NBSP stand between `>>` and `stream` (older scanners did): an extra
// candidate only means one more stream inspected
function isLooseWhite(c: number): boolean {
  return isWhite(c) || c === 0x0b || c === 0xa0;
}

/** True for a byte that ends a command or name to pdf.js (white space, a delimiter), or the end of the data (NaN). */
export function endsToken(c: number): boolean {
  return Number.isNaN(c) || special[c & 0xff] !== 0;
}

/** The offset after white space and comments from `at` (a comment runs to CR or LF). */
export function skipWhiteAndComments(s: string, at: number, to: number, budget: WorkBudget): number {
  let i = at;
  while (i < to) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      while (i < to && s.charCodeAt(i) !== 0x0a && s.charCodeAt(i) !== 0x0d) i++;
    } else if (isWhite(c)) {
      i++;
    } else {
      break;
    }
  }
  budget.spend('pdf', i - at);
  return i;
}

/** Where a stream's data starts: pdf.js skips whatever follows the `stream` keyword up to and including the first CR, LF or CR LF. */
export function streamDataStart(s: string, keywordEnd: number): number {
  const lf = s.indexOf('\n', keywordEnd);
  const cr = s.indexOf('\r', keywordEnd);
  if (cr !== -1 && (lf === -1 || cr < lf)) return s.charCodeAt(cr + 1) === 0x0a ? cr + 2 : cr + 1;
  return lf === -1 ? s.length : lf + 1;
}

/** A dictionary read from its `<<`: where it ends (after `>>`) and its text with strings emptied and comments blanked, so a key written inside a string or comment is not read as one. */
export interface LexedDict {
  end: number;
  keys: string;
}

/** Reads the dictionary opening at `at` (`<<`) as pdf.js does: nested dictionaries and arrays, literal strings with nested parentheses and backslash escapes, hex strings, comments; null when it does not close before `to`. */
export function readDictionary(s: string, at: number, to: number, budget: WorkBudget): LexedDict | null {
  if (!s.startsWith('<<', at)) return null;
  let depth = 0;
  let keys = '';
  let last = at;
  let i = at;
  const cut = (from: number, replacement: string, resume: number): void => {
    keys += s.slice(last, from) + replacement;
    last = resume;
  };
  try {
    while (i < to) {
      const c = s.charCodeAt(i);
      if (c === 0x3c && s.charCodeAt(i + 1) === 0x3c) {
        depth++;
        i += 2;
      } else if (c === 0x3e && s.charCodeAt(i + 1) === 0x3e) {
        depth--;
        i += 2;
        if (depth === 0) {
          keys += s.slice(last, i);
          return { end: i, keys };
        }
      } else if (c === 0x28) {
        const end = literalStringEnd(s, i, to);
        if (end === -1) return null;
        cut(i, '()', end);
        i = end;
      } else if (c === 0x3c) {
        const end = s.indexOf('>', i + 1);
        if (end === -1 || end >= to) return null;
        cut(i, '<>', end + 1);
        i = end + 1;
      } else if (c === 0x25) {
        let end = i;
        while (end < to && s.charCodeAt(end) !== 0x0a && s.charCodeAt(end) !== 0x0d) end++;
        cut(i, ' ', end);
        i = end;
      } else {
        i++;
      }
    }
    return null;
  } finally {
    budget.spend('pdf', i - at);
  }
}

// after the `)` closing the literal string opening at `at`, or -1; pdf.js counts nested parentheses and skips the
// byte after a backslash
function literalStringEnd(s: string, at: number, to: number): number {
  let depth = 0;
  for (let i = at; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return i + 1;
  }
  return -1;
}

/** True when the bytes [from, to) are one token pdf.js reads as a number (`Lexer.getNumber`: a sign, even doubled, a lone sign or dot reading as 0, digits with one dot). */
export function isNumberToken(s: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return false;
  }
  return true;
}

/**
 * The first `stream` keyword in [from, to) that may follow a dictionary's `>>`, or -1. pdf.js reads `>>`, then
 * white space and comments, then the command `stream` ending at white space or a delimiter. Two readings are
 * kept in one forward pass, since a `%` may sit in a string rather than open a comment: one reading takes every
 * `%` as a comment, the other none; a keyword either reading puts right after `>>` counts.
 */
export function nextStreamKeyword(s: string, from: number, to: number, budget: WorkBudget): number {
  let withComments = false;
  let inComment = false;
  let withoutComments = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x73 && s.startsWith('stream', i) && i + 6 <= to && endsToken(s.charCodeAt(i + 6))) {
      const keyword = i === 0 || endsToken(s.charCodeAt(i - 1)) || s.charCodeAt(i - 1) === 0x3e;
      if (keyword && ((withComments && !inComment) || withoutComments)) {
        budget.spend('pdf', i - from);
        return i;
      }
    }
    const closes = c === 0x3e && i > from && s.charCodeAt(i - 1) === 0x3e;
    if (inComment) {
      if (c === 0x0a || c === 0x0d) inComment = false;
    } else if (c === 0x25) {
      inComment = true;
    } else if (closes) {
      withComments = true;
    } else if (!isLooseWhite(c)) {
      withComments = false;
    }
    if (closes) withoutComments = true;
    else if (!isLooseWhite(c)) withoutComments = false;
  }
  budget.spend('pdf', to - from);
  return -1;
}
