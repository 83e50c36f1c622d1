// Lines every markdown renderer reads as an indented code block, whose text each one escapes: a `<object>` there
// (`WeakSet<object>` in a declaration file) is text in every page. A line is such a line when it is indented four
// columns or more (a tab to the next multiple of four), it follows a blank line or another such line (an indented
// line after a paragraph's line goes on with the paragraph), and no container is open: every renderer (markdown-it,
// micromark, marked, commonmark.js) starts an indented code block there, marked included (a blank line before it
// is a `space` token, so its code rule does not join the paragraph). Read with a margin:
// - containers: from a line that may start a block quote, a list item or a GFM footnote definition (`>`, `-`, `+`,
//   `*`, digits and `.` or `)`, `[^`, after at most three spaces) to a line with no indent after a blank line (a blank
//   line ends a quote, and a line with no indent after one ends every list item and footnote definition), no line
//   is taken for code: an indented line there may be a paragraph inside the item;
// - html blocks that run past blank lines (`<pre>`, `<script>`, comments) pass indented lines on raw: the caller
//   leaves out every line such a block may hold (raw-html-grammar.ts);
// - the text's start counts as after a blank line: a part is cut only after one (markdown-parts.ts).
// A fence's lines, a definition's title across a blank line (marked), text after a tag the page leaves open: the
// first two are escaped too, and the caller counts everything after an open tag whatever line it stands on.

/** Where the lines every renderer reads as indented code lie: `holds(at)` for a byte offset. */
export interface IndentedCode {
  /** whether the byte at `at` stands on a line every renderer reads as indented code */
  holds(at: number): boolean;
  /** the lines read */
  readonly lines: number;
}

/** The indented code lines of UTF-8 markdown `bytes`, read once, linear. */
export function indentedCode(bytes: Uint8Array): IndentedCode {
  const reader = new IndentedCodeReader(bytes);
  for (let start = 0; start < bytes.length; ) {
    let end = start;
    while (end < bytes.length && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
    const next = bytes[end] === 0x0d && bytes[end + 1] === 0x0a ? end + 2 : end + 1;
    reader.readLine(start, end, next);
    start = next;
  }
  return reader;
}

/** `indentedCode` read a line at a time, for a caller that walks the lines itself (markdown-parts.ts): each line in order, from the text's first, given where it starts, ends (its break) and the next one starts. */
export class IndentedCodeReader implements IndentedCode {
  // flat pairs: the start and end of each run of code lines
  private readonly runs: number[] = [];
  private container = false;
  private previousBlank = true;
  private previousCode = false;
  lines = 0;

  constructor(private readonly bytes: Uint8Array) {}

  /** Reads the line from byte `start` to `end` (its break), the next line starting at `next`. */
  readLine(start: number, end: number, next: number): void {
    const bytes = this.bytes;
    const runs = this.runs;
    this.lines++;
    let column = 0;
    let first = start;
    for (; first < end; first++) {
      const b = bytes[first];
      if (b === 0x20) column++;
      else if (b === 0x09) column += 4 - (column % 4);
      else break;
    }
    if (first === end) {
      this.previousBlank = true;
    } else if (column >= 4 && !this.container && (this.previousBlank || this.previousCode)) {
      if (runs.length > 0 && runs[runs.length - 1] === start) runs[runs.length - 1] = next;
      else runs.push(start, next);
      this.previousCode = true;
      this.previousBlank = false;
    } else {
      if (column <= 3 && startsContainer(bytes, first, end)) this.container = true;
      else if (column === 0 && this.previousBlank) this.container = false;
      this.previousCode = false;
      this.previousBlank = false;
    }
  }

  /** Whether the byte at `at` stands on a code line of the lines read so far. */
  holds(at: number): boolean {
    const runs = this.runs;
    let low = 0;
    let high = runs.length / 2 - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (at < (runs[2 * mid] ?? 0)) high = mid - 1;
      else if (at >= (runs[2 * mid + 1] ?? 0)) low = mid + 1;
      else return true;
    }
    return false;
  }
}

// a block quote mark, a bullet or ordered list marker (then white space or the line's end), or a footnote label
function startsContainer(bytes: Uint8Array, at: number, end: number): boolean {
  const b = bytes[at];
  const spaceOrEnd = (i: number): boolean => i >= end || bytes[i] === 0x20 || bytes[i] === 0x09;
  if (b === 0x3e) return true;
  if (b === 0x2d || b === 0x2b || b === 0x2a) return spaceOrEnd(at + 1);
  if (b === 0x5b) return bytes[at + 1] === 0x5e;
  let i = at;
  while (i < end && i - at < 9 && (bytes[i] ?? 0) >= 0x30 && (bytes[i] ?? 0) <= 0x39) i++;
  return i > at && (bytes[i] === 0x2e || bytes[i] === 0x29) && spaceOrEnd(i + 1);
}
