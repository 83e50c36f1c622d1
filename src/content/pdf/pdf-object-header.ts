// Object headers (`N G obj`) as pdf.js takes them: a reader finds an object wherever its xref offset points, or,
// rebuilding a broken xref, wherever a header stands. Bounded walks, every byte spent from the budget.
import type { WorkBudget } from '../work-budget.ts';
import { endsToken, isNumberToken, isWhite } from './pdf-lexer.ts';

/** Most `obj` keywords looked at going back from a stream keyword for its object header. */
const maxHeaderTries = 16;

/** The nearest `obj` in [floor, at) that pdf.js takes for an object header, or -1 (see isObjectHeader). */
export function objectHeaderBefore(s: string, floor: number, at: number, budget: WorkBudget): number {
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

/** The first `obj` keyword in [from, to) that a reader would take for an object header (isObjectHeader), or -1. */
export function findObjectHeader(s: string, from: number, to: number, budget: WorkBudget): number {
  for (let i = s.indexOf('obj', from); i !== -1 && i + 3 <= to; i = s.indexOf('obj', i + 3)) {
    budget.spend('pdf', 8);
    if (isObjectHeader(s, i, from, budget)) return i;
  }
  return -1;
}

/**
 * The two unsigned integers written just before `at` in [`floor`, `at`) (`12 0` before `obj`, JavaScript white
 * space between and after them), read back one character at a time, as `/(\d+)\s+(\d+)\s*$/` matches the same
 * text but without its retry from every digit (quadratic on a long run of digits); null when they are not there.
 */
export function numbersBefore(s: string, floor: number, at: number): [number, number] | null {
  let i = at;
  while (i > floor && isJsSpace(s.charCodeAt(i - 1))) i--;
  const genEnd = i;
  while (i > floor && isDigit(s.charCodeAt(i - 1))) i--;
  const genStart = i;
  while (i > floor && isJsSpace(s.charCodeAt(i - 1))) i--;
  const numEnd = i;
  while (i > floor && isDigit(s.charCodeAt(i - 1))) i--;
  if (genStart === genEnd || numEnd === genStart || i === numEnd) return null;
  return [Number(s.slice(i, numEnd)), Number(s.slice(genStart, genEnd))];
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

// what `\s` matches: one character at a time
function isJsSpace(c: number): boolean {
  return /\s/.test(String.fromCharCode(c));
}
