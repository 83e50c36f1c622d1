// A font's `/FontMatrix` as pdf.js reads it: pdf.js before 4.2.67 (and the viewers built on it) writes the matrix
// into the source of the function it compiles for each glyph outline, so a matrix holding a string runs that string
// as script (CVE-2024-4367). A matrix is six numbers written inline (`[0.001 0 0 0.001 0 0]`, or `{…}` in a Type 1
// font program); anything else (a string, a name, a nested array, a reference to an object elsewhere) is active.
import type { WorkBudget } from '../work-budget.ts';

const space = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) space[c] = 1;
const number = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Longest `/FontMatrix` array read, characters: six numbers with generous spacing; a longer one is not a matrix (active). */
export const maxMatrixChars = 512;

/** True when the `/FontMatrix` value after byte `from` (just past the name) is an inline array of numbers; false for anything else. */
export function isNumericFontMatrix(b: Buffer, from: number, to: number, budget: WorkBudget): boolean {
  let i = from;
  while (i < to && space[b[i] ?? 0] === 1) i++;
  const open = b[i];
  if (open !== 0x5b && open !== 0x7b) return false;
  const close = open === 0x5b ? 0x5d : 0x7d;
  const end = b.indexOf(close, i + 1);
  if (end === -1 || end >= to || end - i > maxMatrixChars) return false;
  budget.spend('pdf', end - i);
  const body = b.toString('latin1', i + 1, end).replace(/%[^\r\n]*/g, ' ');
  const tokens = body.split(/[\0\t\n\v\f\r ]+/).filter((t) => t !== '');
  return tokens.length > 0 && tokens.every((t) => number.test(t));
}
