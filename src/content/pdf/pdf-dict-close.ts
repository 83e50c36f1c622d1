// Where pdf.js's `Parser.getObj` ends a dictionary: a key must be a name, anything else in a key's place (a number,
// `obj`, `endobj`, `<<`, `[`, a string) is skipped one token at a time, so the first `>>` in a key's place ends it;
// a value is read whole (a nested dictionary or array to its own end, any other token as itself, `>>` included).
import type { WorkBudget } from '../work-budget.ts';
import { endsToken, skipWhiteAndComments } from './pdf-lexer.ts';

/** Deepest nesting of values followed; deeper reads as not closing (the caller takes that as ambiguous: withheld). */
export const maxDictCloseDepth = 64;

/** After the `>>` ending, by pdf.js's rules, the dictionary whose `<<` is at `open`; -1 when it does not end before `to`. */
export function pdfJsDictEnd(s: string, open: number, to: number, budget: WorkBudget): number {
  const reader = { s, to, budget };
  return dictionary(reader, open + 2, 0);
}

interface Reader {
  s: string;
  to: number;
  budget: WorkBudget;
}

// the token at `at` (after white space and comments): its start and end, or null at `to`
function token(r: Reader, from: number): [number, number] | null {
  const at = skipWhiteAndComments(r.s, from, r.to, r.budget);
  if (at >= r.to) return null;
  const s = r.s;
  const c = s.charCodeAt(at);
  let end = at + 1;
  if (c === 0x28) {
    let depth = 0;
    for (end = at; end < r.to; end++) {
      const d = s.charCodeAt(end);
      if (d === 0x5c) end++;
      else if (d === 0x28) depth++;
      else if (d === 0x29 && --depth === 0) break;
    }
    if (end >= r.to) return null;
    end++;
  } else if ((c === 0x3c || c === 0x3e) && s.charCodeAt(at + 1) === c) {
    end = at + 2;
  } else if (c === 0x3c) {
    const close = s.indexOf('>', at + 1);
    if (close === -1 || close >= r.to) return null;
    end = close + 1;
  } else if (c === 0x2f) {
    while (end < r.to && !endsToken(s.charCodeAt(end))) end++;
  } else if (!(c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x3e || c === 0x29)) {
    while (end < r.to && !endsToken(s.charCodeAt(end))) end++;
  }
  r.budget.spend('pdf', end - at);
  return [at, end];
}

function is(r: Reader, t: [number, number], text: string): boolean {
  return t[1] - t[0] === text.length && r.s.startsWith(text, t[0]);
}

// from after `<<`: keys (names) and their values until `>>` in a key's place; anything else there is skipped
function dictionary(r: Reader, from: number, depth: number): number {
  if (depth > maxDictCloseDepth) return -1;
  let at = from;
  for (;;) {
    const t = token(r, at);
    if (t === null) return -1;
    if (is(r, t, '>>')) return t[1];
    if (r.s.charCodeAt(t[0]) !== 0x2f) {
      at = t[1];
      continue;
    }
    at = value(r, t[1], depth + 1);
    if (at === -1) return -1;
  }
}

// after the value starting at or after `from`: a dictionary or array read to its end, any other token itself
function value(r: Reader, from: number, depth: number): number {
  if (depth > maxDictCloseDepth) return -1;
  const t = token(r, from);
  if (t === null) return -1;
  if (is(r, t, '<<')) return dictionary(r, t[1], depth);
  if (!is(r, t, '[')) return t[1];
  let at = t[1];
  for (;;) {
    const e = token(r, at);
    if (e === null) return -1;
    if (is(r, e, ']')) return e[1];
    at = value(r, at, depth + 1);
    if (at === -1) return -1;
  }
}
