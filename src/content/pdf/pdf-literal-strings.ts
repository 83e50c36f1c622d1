// Literal strings of the object layer as every reader's lexer reads them (PDF 32000 §7.3.4.2, pdf.js `Lexer.getString`:
// balanced parentheses, a backslash taking the next byte), so a name written inside one (a link's
// `(https://developer.mozilla.org/en-US/docs/Web/JavaScript/…)`) is not read as a name. pdf.js does not lex the
// object layer from its start: it lexes each object from its xref offset, and resumes after a stream wherever its own
// reading of the stream's end puts it. A string is passed over only where every such reading agrees it is one; where
// one may not (an unbalanced string, a string holding an object header or a stream's end, a comment or hex string
// that may have desynchronised the lexer, an inline image), nothing more is passed over in the file: fail closed.
import type { WorkBudget } from '../work-budget.ts';
import { endsToken } from './pdf-lexer.ts';
import { findObjectHeader } from './pdf-object-header.ts';

/** Whether one scan may still pass over literal strings; once `off`, never again in that scan. */
export interface StringSkipState {
  off: boolean;
}

const isHexOrWhite = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') isHexOrWhite[c.charCodeAt(0)] = 1;
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) isHexOrWhite[c] = 1;

// text in a string where a reader may start or resume lexing: the cross-reference table and trailer (`xref`,
// `trailer`, which a rebuild finds anywhere), the end of a stream's data (pdf.js searches `endstream`, `endstrea`
// and `endsteam`) and of an inline image's (`EI` before white space)
const resumeMarks = ['xref', 'trailer', 'endst'];

/**
 * The literal strings of one range [from, to) of the object layer, read forward from `from`. `at` is called with every
 * byte offset outside names and outside the strings it passed over, in order.
 */
export class RangeStrings {
  private quietUntil: number;
  private firstEol = -2;
  private firstGt = -2;

  constructor(
    private readonly b: Buffer,
    private readonly from: number,
    private readonly to: number,
    private readonly budget: WorkBudget,
    private readonly skip: StringSkipState,
  ) {
    this.quietUntil = from;
  }

  /** After the `)` of the literal string opening at `i` when every reading takes it for one, else -1 (and, where the readings may part, `off` from here on). */
  at(i: number): number {
    if (this.skip.off || i < this.quietUntil) return -1;
    const b = this.b;
    const c = b[i];
    if (c === 0x28) return this.literal(i);
    // a `)` outside a string is an error to every reader, and where one may close a string this reading never opened
    if (c === 0x29) this.skip.off = true;
    else if (c === 0x25) this.comment(i);
    else if (c === 0x3c) {
      if (b[i + 1] === 0x3c) this.quietUntil = i + 2;
      else this.hex(i);
    } else if (c === 0x42 && b[i + 1] === 0x49 && endsToken(b[i + 2] ?? Number.NaN)) {
      // `BI` opens an inline image to pdf.js's parser wherever it reads an object: its data is not lexed
      if (i === this.from || endsToken(b[i - 1] ?? Number.NaN)) this.skip.off = true;
    }
    return -1;
  }

  // a comment runs to CR or LF; one holding a parenthesis or angle bracket is text a reader lexing from another
  // start (an object header inside it, a stream's end read elsewhere) may take for a string's end or start
  private comment(i: number): void {
    let end = i + 1;
    while (end < this.to && this.b[end] !== 0x0a && this.b[end] !== 0x0d) {
      const c = this.b[end];
      if (c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e) this.skip.off = true;
      end++;
    }
    this.budget.spend('pdf', end - i);
    this.quietUntil = end;
  }

  // a hex string runs to `>`; pdf.js skips any other byte in it, which another reader may not: only hex digits and
  // white space keep the readings together
  private hex(i: number): void {
    let end = i + 1;
    while (end < this.to && this.b[end] !== 0x3e) {
      if (isHexOrWhite[this.b[end] ?? 0] !== 1) {
        this.skip.off = true;
        break;
      }
      end++;
    }
    this.budget.spend('pdf', end - i);
    if (end >= this.to) this.skip.off = true;
    this.quietUntil = end + 1;
  }

  private literal(i: number): number {
    const b = this.b;
    let depth = 0;
    let end = -1;
    for (let k = i; k < this.to; k++) {
      const c = b[k];
      if (c === 0x5c) k++;
      else if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) {
        end = k + 1;
        break;
      }
    }
    this.budget.spend('pdf', (end === -1 ? this.to : end) - i);
    // unbalanced before the range ends (at a `stream` keyword, or the data's end): no reading is sure
    if (end === -1 || !this.passable(i, end)) {
      this.skip.off = true;
      return -1;
    }
    return end;
  }

  // whether no reader lexes from inside the string [at, end): no object header, cross-reference, trailer or stream end
  // in it, and it spans neither the range's first line end nor its first `>` (a reader that resumed after the
  // previous stream elsewhere may be in a comment until the first, in a hex string until the second)
  private passable(at: number, end: number): boolean {
    const b = this.b;
    if (this.firstEol === -2) {
      const range = b.subarray(this.from, this.to);
      const lf = range.indexOf(0x0a);
      const cr = range.indexOf(0x0d);
      const eol = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      const gt = range.indexOf(0x3e);
      this.firstEol = eol === -1 ? -1 : this.from + eol;
      this.firstGt = gt === -1 ? -1 : this.from + gt;
      this.budget.spend('pdf', (eol === -1 || gt === -1 ? range.length : Math.max(eol, gt)) + 1);
    }
    if ((this.firstEol > at && this.firstEol < end) || (this.firstGt > at && this.firstGt < end)) return false;
    const text = b.toString('latin1', at, end);
    this.budget.spend('pdf', 4 * (end - at));
    if (resumeMarks.some((mark) => text.includes(mark))) return false;
    if (/EI[\0\t\n\f\r ]/.test(text)) return false;
    return !text.includes('obj') || findObjectHeader(text, 0, text.length, this.budget) === -1;
  }
}
