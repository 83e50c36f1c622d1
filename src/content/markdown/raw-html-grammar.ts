// Where a markdown renderer may pass a `<` on as raw HTML that runs past its line (markdown-screen.ts): every
// renderer the gate asks (markdown-it, micromark, marked, commonmark.js) passes raw HTML through in two ways only.
// - Inline, a whole tag by CommonMark's grammar (6.6; marked's tag pattern is the same grammar): a name of ASCII
//   letters, digits and `-`, then attributes each after white space (which may hold a line break), a name of
//   `[A-Za-z_:][A-Za-z0-9_.:-]*`, a value quoted or of anything but white space, quotes, `=`, `<`, `>` and a
//   backtick; `<T & {` or `<Buffer 76 26>` is no tag in any of them, so its `<` is escaped and its line is text.
// - As an html block, line by line, from a line that starts one (after the marks of block quotes, list items and
//   footnote definitions) to a blank line, or to its end marker (`-->`, `?>`, `>`, `]]>`, `</pre>` and the like).
// marked also passes on a paragraph's text unescaped after an inline `<pre`, `<code`, `<kbd` or `<script` tag (its
// `inRawBlock`), so past the first of those every `<` may be a tag in its page.
// Both are read here with a margin: anything the grammar does not rule out counts, and so does every line from a
// line that may start an html block to where the longest block it may start ends.

/** Whether the bytes from `from` (just after a `<`) to the end of their line may begin a tag that a renderer reads past the line: no byte on the line breaks CommonMark's grammar of an open or closing tag. A byte outside ASCII counts as white space (marked's `\s` takes Unicode spaces). */
export function mayGoOnAsTag(bytes: Uint8Array, from: number): boolean {
  return readTag(bytes, from) !== notATag;
}

const notATag = -1;
const pastTheLine = -2;

// A tag read by CommonMark's grammar from `from` (just after its `<`) within its line: where it ends (just after its
// `>`), `pastTheLine` when the line ends where the tag may go on, `notATag` at a byte the grammar does not allow
function readTag(bytes: Uint8Array, from: number): number {
  let i = from;
  const closing = bytes[i] === 0x2f;
  if (closing) i++;
  if (!isLetter(bytes[i] ?? 0)) return notATag;
  while (isTagNameByte(bytes[i])) i++;
  // after the name or a value: white space must come before another attribute
  let spaced = false;
  for (;;) {
    const b = bytes[i];
    if (endsLine(b)) return pastTheLine;
    if (isSpaceOrWide(b ?? 0)) {
      spaced = true;
      i++;
      continue;
    }
    if (b === 0x3e) return i + 1;
    if (closing) return notATag;
    if (b === 0x2f) return bytes[i + 1] === 0x3e ? i + 2 : endsLine(bytes[i + 1]) ? pastTheLine : notATag;
    if (!spaced || !isAttributeStart(b ?? 0)) return notATag;
    while (isAttributeByte(bytes[i])) i++;
    // an optional value: white space, `=`, white space, then a quoted or unquoted value
    let j = i;
    while (!endsLine(bytes[j]) && isSpaceOrWide(bytes[j] ?? 0)) j++;
    if (endsLine(bytes[j])) return pastTheLine;
    if (bytes[j] !== 0x3d) {
      spaced = j > i;
      i = j;
      continue;
    }
    j++;
    while (!endsLine(bytes[j]) && isSpaceOrWide(bytes[j] ?? 0)) j++;
    const v = bytes[j];
    if (endsLine(v)) return pastTheLine;
    if (v === 0x22 || v === 0x27) {
      // a quoted value may run past the line
      let close = j + 1;
      while (!endsLine(bytes[close]) && bytes[close] !== v) close++;
      if (bytes[close] !== v) return pastTheLine;
      i = close + 1;
    } else {
      if (!isUnquotedByte(v ?? 0)) return notATag;
      while (!endsLine(bytes[j]) && isUnquotedByte(bytes[j] ?? 0)) j++;
      i = j;
    }
    spaced = false;
  }
}

/** Whether marked may pass the text at a position on raw, asked in increasing order: after an inline `<pre`, `<code`, `<kbd` or `<script` tag (then white space or `>`) marked leaves the rest of its block's inline text unescaped, so any `<` after one may be a tag in its page whatever the grammar says; marked 18 sets that state off before each block's inline text (`Lexer.lex`), so only an opening since the last blank line counts. Linear in the text over all the asks. */
export function markedRawText(bytes: Uint8Array): (at: number) => boolean {
  let opening = -1;
  let next = markedRawOpening(bytes, 0);
  // where the lines before the asked position were read to, whether that line holds anything but white space, and
  // where the last blank line ended
  let read = 0;
  let content = false;
  let blankEnd = 0;
  // the next `\n` and `\r` at or after `read`, each searched forward only (a search from every line for a break the
  // text lacks reads to its end: quadratic)
  let lf = -2;
  let cr = -2;
  return (at) => {
    while (next !== -1 && next < at) {
      opening = next;
      next = markedRawOpening(bytes, next + 1);
    }
    if (opening === -1) return false;
    for (; read < at; read++) {
      const b = bytes[read] ?? 0;
      if (b === 0x0a || (b === 0x0d && bytes[read + 1] !== 0x0a)) {
        if (!content) blankEnd = read + 1;
        content = false;
      } else if (b !== 0x20 && b !== 0x09 && b !== 0x0d) {
        // the rest of a line holding something is not read: its break is searched for
        content = true;
        if (lf !== -1 && lf < read) lf = bytes.indexOf(0x0a, read);
        if (cr !== -1 && cr < read) cr = bytes.indexOf(0x0d, read);
        const end = Math.min(lf === -1 ? bytes.length : lf, cr === -1 ? bytes.length : cr);
        read = Math.min(end, at) - 1;
      }
    }
    return opening >= blankEnd;
  };
}

// the first inline opening of marked's raw text at or after `from`, or -1
function markedRawOpening(bytes: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(0x3c, from); at !== -1; at = bytes.indexOf(0x3c, at + 1)) {
    for (const name of markedRawNames) {
      if (!startsFolded(bytes, at + 1, name)) continue;
      const after = bytes[at + 1 + name.length] ?? 0;
      if (after === 0x20 || after === 0x3e || (after >= 0x09 && after <= 0x0d) || after >= 0x80) return at;
    }
  }
  return -1;
}

// the tags after which marked passes a paragraph's text on unescaped (its `startPreScriptTag`)
const markedRawNames = ['pre', 'code', 'kbd', 'script'];

/** The lines of a markdown text that may stand in an html block, as a renderer reads one. */
export interface HtmlBlockLines {
  /** whether the line holding the byte at `at` may be a line of an html block */
  holds(at: number): boolean;
  /** the lines read */
  readonly lines: number;
}

/** Every line that may stand in an html block: from each line that may start one to the blank line or end marker the longest block it may start ends at (a line holding that marker included). Linear in the text. */
export function htmlBlockLines(bytes: Uint8Array): HtmlBlockLines {
  const reader = new HtmlBlockReader(bytes);
  for (let start = 0; start < bytes.length; ) {
    const end = lineEndFrom(bytes, start);
    reader.readLine(start, end);
    start = nextLineStart(bytes, end);
  }
  return reader;
}

/** `htmlBlockLines` read a line at a time, for a caller that walks the lines itself (markdown-parts.ts): each line in order, from the text's first, given where it starts and ends (its break). Once a line is read, `holds` answers for it and every line before it. */
export class HtmlBlockReader implements HtmlBlockLines {
  // flat pairs: the start of a block's first line, the end of its last line
  private readonly blocks: number[] = [];
  // where the next occurrence of each marker at or after where it was last asked for stands (-1: none)
  private readonly markers = new Map<string, number>();
  private nextBlank = -2;
  // whether a list item or footnote definition may be open (a line since the last reset may start one), and whether
  // the line before was blank
  private listMayBeOpen = false;
  private afterBlank = true;
  lines = 0;

  constructor(private readonly bytes: Uint8Array) {}

  /** Reads the line from byte `start` to `end` (its break). */
  readLine(start: number, end: number): void {
    const bytes = this.bytes;
    this.lines++;
    if (!this.startsWithinList(start, end)) return;
    const kind = blockStartAt(bytes, start, end);
    if (kind === null) return;
    let last: number;
    if (kind === '') {
      // to the first blank line after this one
      if (this.nextBlank !== -1 && this.nextBlank <= start)
        this.nextBlank = blankLineFrom(bytes, nextLineStart(bytes, end));
      last = this.nextBlank === -1 ? bytes.length : this.nextBlank;
    } else last = this.endOf(kind, start);
    // the block's lines, merged with the block before when they meet
    const blocks = this.blocks;
    const previousEnd = blocks[blocks.length - 1];
    if (previousEnd !== undefined && previousEnd >= start) blocks[blocks.length - 1] = Math.max(previousEnd, last);
    else blocks.push(start, last);
  }

  // Whether the line may start an html block as far as its indent goes. A line indented four columns or more (spaces
  // and tabs only before its `<`) starts none outside a list item or footnote definition: every renderer reads it as
  // indented code or a paragraph's line (CommonMark 4.4, 4.6; marked's html block takes ` {0,3}`), so it may start one
  // only while an item may be open: from a line that may start one (a `-`, `+`, `*`, digit or `[` after spaces, tabs
  // and `>`) to a line with no indent after a blank line that starts none, which ends every item (it is not indented
  // enough to go on in one, and lazy continuation needs a paragraph line right before it).
  private startsWithinList(start: number, end: number): boolean {
    const bytes = this.bytes;
    let i = start;
    let column = 0;
    for (; i < end; i++) {
      const b = bytes[i];
      if (b === 0x20) column++;
      else if (b === 0x09) column += 4 - (column % 4);
      else break;
    }
    const blank = i >= end;
    let first = i;
    while (first < end && (bytes[first] === 0x3e || bytes[first] === 0x20 || bytes[first] === 0x09)) first++;
    const b = bytes[first] ?? 0;
    const opens = b === 0x2d || b === 0x2b || b === 0x2a || b === 0x5b || (b >= 0x30 && b <= 0x39);
    if (opens) this.listMayBeOpen = true;
    else if (!blank && this.afterBlank && i === start && bytes[i] !== 0x3e) this.listMayBeOpen = false;
    this.afterBlank = blank;
    return this.listMayBeOpen || column < 4 || bytes[i] !== 0x3c;
  }

  /** Whether the byte at `at`, on the last line read, may stand in an html block: asked for each line in order, no search. */
  holdsLast(at: number): boolean {
    return at <= (this.blocks[this.blocks.length - 1] ?? -1);
  }

  holds(at: number): boolean {
    const blocks = this.blocks;
    let low = 0;
    let high = blocks.length / 2 - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (at < (blocks[2 * mid] ?? 0)) high = mid - 1;
      else if (at > (blocks[2 * mid + 1] ?? 0)) low = mid + 1;
      else return true;
    }
    return false;
  }

  // where the next occurrence of `marker` at or after `from` ends its line (the text's end when there is none):
  // each marker is searched forward only, so the searches stay linear
  private endOf(marker: string, from: number): number {
    const bytes = this.bytes;
    let found = this.markers.get(marker) ?? -2;
    if (found !== -1 && found < from) {
      found = indexOfFolded(bytes, marker, from);
      this.markers.set(marker, found);
    }
    return found === -1 ? bytes.length : lineEndFrom(bytes, found);
  }
}

const rawTextNames = ['script', 'pre', 'style', 'textarea'];

// Whether the line from `start` to `end` may start an html block, after any marks of block quotes (`>`), list items
// (`-`, `+`, `*`, digits with `.` or `)`), indents and footnote definitions (`[^…]:`): null when it may not, else the
// marker its longest block ends at (`''` a blank line; for the first kind, its own end tag: CommonMark's renderers
// end it at the first line holding any of the four, marked (`</\1>`) at its own, which comes no earlier)
function blockStartAt(bytes: Uint8Array, start: number, end: number): string | null {
  let i = skipContainerMarks(bytes, start, end);
  if (bytes[i] === 0x5b && bytes[i + 1] === 0x5e) {
    const label = indexOfFolded(bytes, ']:', i, end);
    if (label === -1) return null;
    i = skipContainerMarks(bytes, label + 2, end);
  }
  if (bytes[i] !== 0x3c) return null;
  const b = bytes[i + 1] ?? 0;
  if (b === 0x3f) return '?>';
  if (b === 0x21) {
    if (bytes[i + 2] === 0x2d && bytes[i + 3] === 0x2d) return '-->';
    if (bytes[i + 2] === 0x5b) return ']]>';
    return '>';
  }
  for (const name of rawTextNames) {
    if (!startsFolded(bytes, i + 1, name)) continue;
    const after = bytes[i + 1 + name.length];
    if (after === undefined || after === 0x20 || after === 0x09 || after === 0x3e || endsLine(after))
      return `</${name}>`;
  }
  // the sixth kind by its name; the seventh, any other tag, only when the whole tag ends on the line (a `>` on it)
  const name = b === 0x2f ? i + 2 : i + 1;
  if (!isLetter(bytes[name] ?? 0)) return null;
  let nameEnd = name;
  while (isTagNameByte(bytes[nameEnd])) nameEnd++;
  const after = bytes[nameEnd];
  const ended = endsLine(after) || after === 0x20 || after === 0x09 || after === 0x0c || after === 0x3e;
  const known = blockNames.has(String.fromCharCode(...bytes.subarray(name, nameEnd)).toLowerCase());
  if (known && (ended || after === 0x2f || (after ?? 0) >= 0x80)) return '';
  const tag = readTag(bytes, i + 1);
  if (tag < 0) return null;
  for (let k = tag; k < end; k++) if (!isSpaceOrWide(bytes[k] ?? 0)) return null;
  return '';
}

// the tag names that start an html block of the sixth kind in any of the renderers (CommonMark 0.31's list, with
// `meta` from marked and `source` from earlier versions of the spec)
const blockNames: ReadonlySet<string> = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li ' +
    'link main menu menuitem meta nav noframes ol optgroup option p param search section source summary table ' +
    'tbody td tfoot th thead title tr track ul'
  ).split(' '),
);

function skipContainerMarks(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && isContainerMark(bytes[i] ?? 0)) i++;
  return i;
}

// white space, `>`, the bullets `-`, `+`, `*`, and an ordered list item's digits and `.` or `)`
function isContainerMark(b: number): boolean {
  return (
    b === 0x20 ||
    b === 0x09 ||
    b === 0x3e ||
    b === 0x2d ||
    b === 0x2b ||
    b === 0x2a ||
    b === 0x2e ||
    b === 0x29 ||
    (b >= 0x30 && b <= 0x39)
  );
}

// the start of the first blank line (only spaces and tabs) at or after `from`, -1 for none
function blankLineFrom(bytes: Uint8Array, from: number): number {
  for (let start = from; start < bytes.length; ) {
    const end = lineEndFrom(bytes, start);
    let i = start;
    while (i < end && (bytes[i] === 0x20 || bytes[i] === 0x09)) i++;
    if (i === end) return start;
    start = nextLineStart(bytes, end);
  }
  return -1;
}

// where the line holding `from` ends: its `\n` or `\r`, or the end of the text
function lineEndFrom(bytes: Uint8Array, from: number): number {
  let i = from;
  while (i < bytes.length && !endsLine(bytes[i])) i++;
  return i;
}

// the start of the line after the one ending at `end` (`\r\n` is one break)
function nextLineStart(bytes: Uint8Array, end: number): number {
  return bytes[end] === 0x0d && bytes[end + 1] === 0x0a ? end + 2 : end + 1;
}

// the first place from `from` to `to` that spells `word` (lower-case ASCII), case-insensitive; -1 for none
function indexOfFolded(bytes: Uint8Array, word: string, from: number, to = bytes.length): number {
  const first = word.charCodeAt(0);
  for (let i = from; i < to; i++) {
    if (((bytes[i] ?? 0) | (isLetter(first) ? 0x20 : 0)) === first && startsFolded(bytes, i, word)) return i;
  }
  return -1;
}

function startsFolded(bytes: Uint8Array, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const w = word.charCodeAt(k);
    const b = bytes[at + k];
    if (b === undefined || (isLetter(w) ? b | 0x20 : b) !== w) return false;
  }
  return true;
}

function endsLine(b: number | undefined): boolean {
  return b === undefined || b === 0x0a || b === 0x0d;
}

function isSpaceOrWide(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0b || b === 0x0c || b >= 0x80;
}

function isLetter(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

function isTagNameByte(b: number | undefined): boolean {
  return b !== undefined && (isLetter(b) || isDigit(b) || b === 0x2d);
}

function isAttributeStart(b: number): boolean {
  return isLetter(b) || b === 0x5f || b === 0x3a;
}

function isAttributeByte(b: number | undefined): boolean {
  return b !== undefined && (isAttributeStart(b) || isDigit(b) || b === 0x2e || b === 0x2d);
}

// a byte of an unquoted value: not white space, a quote, `=`, `<`, `>` or a backtick
function isUnquotedByte(b: number): boolean {
  return !(
    b === 0x20 ||
    b === 0x09 ||
    b === 0x0a ||
    b === 0x0b ||
    b === 0x0c ||
    b === 0x0d ||
    b === 0x22 ||
    b === 0x27 ||
    b === 0x3d ||
    b === 0x3c ||
    b === 0x3e ||
    b === 0x60
  );
}
