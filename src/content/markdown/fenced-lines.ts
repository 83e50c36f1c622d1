// A markdown text's lines as the cutting reads them (markdown-parts.ts), read in one pass over its UTF-8 bytes: where
// each starts and ends (as UTF-16 offsets and as byte offsets), whether it is blank, the fence readings before and
// after it (fence-readings.ts), whether it may stand in an html block, and what it holds that the cutting's other
// readings look for (a `<`, a backtick or `[`). The html block lines and the indented code lines (the screen's two
// per-line readings, raw-html-grammar.ts and indented-code.ts) are read in the same pass, line by line: before, each
// was a pass of its own, and every line was an object and a copy of its text (42% of an 8 MiB README's judgement).
// The records are flat typed arrays; a line's text is copied only for a reading that needs it (a fence line).
import { FenceReadings } from './fence-readings.ts';
import { type IndentedCode, IndentedCodeReader } from './indented-code.ts';
import { type HtmlBlockLines, HtmlBlockReader } from './raw-html-grammar.ts';

/** A line's flags (`FencedLines.flags`). */
export const LineFlag = {
  /** spaces and tabs only */
  blank: 1,
  /** the line before was blank (or there was none) */
  previousBlank: 2,
  /** it may stand in an html block */
  inBlock: 4,
  /** before it, no reading holds a fence open */
  closed: 8,
  /** before it, every reading holds a fence open */
  open: 16,
  /** every reading holds it in a fenced code block (open before it and after it) */
  code: 32,
  /** it holds a `<` */
  lt: 64,
  /** it holds a backtick or a `[` (a code span, link or image text that may go on to the next line) */
  span: 128,
} as const;

/** The lines of a text, as far as the fence readings can follow them (none after they are lost: nothing is cut there), and the html block and indented code lines of all of it. */
export interface FencedLines {
  /** how many lines were followed */
  count: number;
  /** per line: where it starts and ends (before its break), UTF-16 offsets; where it and the next line start, UTF-8 offsets */
  start: Int32Array;
  end: Int32Array;
  byte: Int32Array;
  nextByte: Int32Array;
  /** per line, `LineFlag`s */
  flags: Uint8Array;
  /** the html block lines of the whole text */
  blocks: HtmlBlockLines;
  /** the indented code lines of the whole text */
  indented: IndentedCode;
}

/** Reads the lines of `text` (`bytes`: its UTF-8 encoding) once. `onLines` is told every `perCall` lines followed, as they are (it may throw to stop the reading). `made`: the html block or indented code lines of the whole text when another pass read them already (markdown-bytes.ts), which are then not read again. Linear. */
export function fencedLines(
  text: string,
  bytes: Uint8Array,
  perCall: number,
  onLines?: (lines: number) => void,
  made: { indented: IndentedCode | undefined; blocks: HtmlBlockLines | undefined } = {
    indented: undefined,
    blocks: undefined,
  },
): FencedLines {
  const fences = new FenceReadings();
  // a reading made before answers for every line at once: asked by a search (`holds`), not as the lines are read
  let blockReader: HtmlBlockReader | undefined;
  let blocks: HtmlBlockLines;
  if (made.blocks !== undefined) blocks = made.blocks;
  else {
    blockReader = new HtmlBlockReader(bytes);
    blocks = blockReader;
  }
  let indentedReader: IndentedCodeReader | undefined;
  let indented: IndentedCode;
  if (made.indented !== undefined) indented = made.indented;
  else {
    indentedReader = new IndentedCodeReader(bytes);
    indented = indentedReader;
  }
  let capacity = 1024;
  const lines: FencedLines = {
    count: 0,
    start: new Int32Array(capacity),
    end: new Int32Array(capacity),
    byte: new Int32Array(capacity),
    nextByte: new Int32Array(capacity),
    flags: new Uint8Array(capacity),
    blocks,
    indented,
  };
  const n = bytes.length;
  const length = text.length;
  // every character one byte: the UTF-16 and UTF-8 offsets agree
  const ascii = n === length;
  // the next of each mark at or after where it was last looked for (the text's length: none), each searched forward
  // only with the string's own search, so the searches stay linear and cost a call a line at most
  let lf = -1;
  let cr = -1;
  let lt = -1;
  let tick = -1;
  let bracket = -1;
  let ticks = -1;
  let tildes = -1;
  let wideAt = -1;
  const wide = /[^\x00-\x7f]/g;
  let previousBlank = true;
  let b = 0;
  for (let start = 0; start < length; ) {
    if (lf < start) lf = nextIndex(text, '\n', start);
    if (cr < start) cr = nextIndex(text, '\r', start);
    const end = Math.min(lf, cr);
    const breakUnits = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? 2 : 1;
    // the line's bytes: as many as its characters, unless it holds one outside ASCII
    let e = b + (end - start);
    if (!ascii) {
      if (wideAt < start) {
        wide.lastIndex = start;
        wideAt = wide.exec(text)?.index ?? length;
      }
      if (wideAt < end) e = b + utf8Length(text, start, end);
    }
    const nextB = e + breakUnits;
    blockReader?.readLine(b, e);
    indentedReader?.readLine(b, e, nextB);
    const first = text.charCodeAt(start);
    const blank = start === end || ((first === 0x20 || first === 0x09) && isBlank(text, start, end));
    if (!fences.lost) {
      if (ticks < start) ticks = nextIndex(text, '``', start);
      if (tildes < start) tildes = nextIndex(text, '~~', start);
      if (lt < start) lt = nextIndex(text, '<', start);
      if (tick < start) tick = nextIndex(text, '`', start);
      if (bracket < start) bracket = nextIndex(text, '[', start);
      const marks = ticks < end || tildes < end;
      const inBlock = blockReader === undefined ? blocks.holds(b) : blockReader.holdsLast(b);
      const closed = fences.closed;
      const open = fences.open;
      fences.read(text, start, end, inBlock, previousBlank, marks);
      if (lines.count === capacity) {
        capacity *= 2;
        lines.start = grown(lines.start, capacity);
        lines.end = grown(lines.end, capacity);
        lines.byte = grown(lines.byte, capacity);
        lines.nextByte = grown(lines.nextByte, capacity);
        const flags = new Uint8Array(capacity);
        flags.set(lines.flags);
        lines.flags = flags;
      }
      const i = lines.count++;
      lines.start[i] = start;
      lines.end[i] = end;
      lines.byte[i] = b;
      lines.nextByte[i] = Math.min(n, nextB);
      lines.flags[i] =
        (lt < end ? LineFlag.lt : 0) |
        (tick < end || bracket < end ? LineFlag.span : 0) |
        (blank ? LineFlag.blank : 0) |
        (previousBlank ? LineFlag.previousBlank : 0) |
        (inBlock ? LineFlag.inBlock : 0) |
        (closed ? LineFlag.closed : 0) |
        (open ? LineFlag.open : 0) |
        (open && fences.open ? LineFlag.code : 0);
      if (lines.count % perCall === 0) onLines?.(perCall);
    }
    previousBlank = blank;
    b = nextB;
    start = end + breakUnits;
  }
  return lines;
}

// where `search` next stands in the text at or after `from`, the text's length when it does not
function nextIndex(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}

// whether the text from `start` to `end` is spaces and tabs only
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

// the length in UTF-8 of the text from `start` to `end`, as `Buffer.from` encodes it (a lone surrogate as U+FFFD)
function utf8Length(text: string, start: number, end: number): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes++;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function grown(array: Int32Array, capacity: number): Int32Array {
  const larger = new Int32Array(capacity);
  larger.set(array);
  return larger;
}
