// What the markdown renderers may spend beyond one pass over the text, charged to the item's work budget before
// they run. Their superlinear paths all pair a delimiter with the rest of the inline text it may close against:
// micromark's attention and strikethrough resolution walk back over every open sequence for each closer, marked's
// emphasis scan runs from each `*`/`_` to the paragraph's end, link labels and destinations from each `[`/`(` to
// a closer, and marked's autolink trims trailing parentheses one at a time. Inline text never runs across a blank
// line, nor past the start of a bullet list item, nor from one row of a GFM table to the next, and an HTML block
// (a `<table>` of contributors, a `<div align=center>`) holds none, so each run of lines between those is charged its length times the delimiters it holds: ordinary prose (a few delimiters per
// line, short paragraphs) is charged a few steps per character; a paragraph of tens of thousands of delimiters is
// charged the quadratic work it would cost and runs out of budget before any renderer starts
// (`content.too-complex`). Every boundary is recognised only where every renderer that pairs delimiters sees one;
// where that is in doubt, the lines stay in one run and are charged more, never less.

/** Characters that open or close inline constructs the renderers pair up wherever they stand: link and image labels (micromark walks back over every label start for each `]`, closed ones too). */
const delimiters: ReadonlySet<number> = new Set([...'[]'].map((c) => c.charCodeAt(0)));

/** Pairs (character × delimiter) one step stands for: measured, one pair of marked's emphasis scan takes ~26 ns. */
export const pairsPerStep = 16;

/** Steps the renderers' pairing work on `text` is charged: Σ over runs of lines (between blank lines, bullet items and table rows) of length × delimiters, plus each emphasis run's reach (emphasisPairs), ÷ `pairsPerStep`. Linear in the text. */
export function pairingSteps(text: string): number {
  let steps = 0;
  let length = 0;
  let held = 0;
  let inTable = false;
  let previousLine = '';
  // whether the previous line was the first of a paragraph (after a blank line, or the text's first): only such a
  // line is taken for a table's header, since a renderer may not let a table interrupt a paragraph
  let previousStartedParagraph = false;
  let afterBlank = true;
  // inside an HTML block that runs to the next blank line (CommonMark's kind 6): raw lines, no inline text
  let inHtmlBlock = false;
  let atBlockStart = true;
  // the emphasis delimiter runs of the current run of lines, and where that run starts
  let emphasis: number[] = [];
  let runFrom = 0;
  const close = (): void => {
    steps += (length * held + emphasisPairs(emphasis, runFrom, runFrom + length)) / pairsPerStep;
    length = 0;
    held = 0;
    emphasis = [];
  };
  let start = 0;
  while (start < text.length) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
    // CR LF is one line ending
    const next = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
    const line = text.slice(start, end);
    const blank = line.trim() === '';
    if (blank) inHtmlBlock = false;
    else if (atBlockStart && htmlBlockToBlankLine.test(line)) inHtmlBlock = true;
    // a comment that closes on the line it opens is a whole block: the next line starts a block again
    const wholeComment: boolean = atBlockStart && /^ {0,3}<!--/.test(line) && line.includes('-->');
    atBlockStart = blank || wholeComment;
    if (inHtmlBlock || wholeComment) {
      close();
      previousLine = line;
      previousStartedParagraph = false;
      afterBlank = false;
      start = next;
      continue;
    }
    if (blank) inTable = false;
    else if (inTable) inTable = isTableRow(line);
    else if (previousStartedParagraph && isDelimiterRow(line, previousLine)) inTable = true;
    // a new run starts at a blank line, a bullet item, a table row (the header row ended the run before it)
    if (blank || inTable || startsBulletItem(line)) close();
    if (length === 0) runFrom = start;
    held += pairingDelimiters(text, start, end, emphasis);
    length += next - start;
    if (inTable) close();
    previousLine = line;
    previousStartedParagraph = afterBlank && !blank;
    afterBlank = blank;
    start = next;
  }
  close();
  return Math.ceil(steps);
}

// a line that starts a bullet list item with text in it: up to three spaces, `-`, `+` or `*`, a space or tab,
// then something other than white space (every renderer starts an item there, even inside a paragraph)
function startsBulletItem(line: string): boolean {
  const match = /^ {0,3}[-+*][ \t]/.exec(line);
  return match !== null && line.slice(match[0].length).trim() !== '';
}

// GFM's delimiter row under a header row with as many cells: `| --- | :-: |`; a header holding a backslash or a
// backtick (escaped pipes, code spans) is not taken for one, nor a line that may start another block
function isDelimiterRow(line: string, header: string): boolean {
  if (!line.includes('|') || !header.includes('|') || /[\\`]/.test(header) || !isTableRow(header)) return false;
  const cells = tableCells(line);
  return cells.length === tableCells(header).length && cells.every((c) => /^ *:?-+:? *$/.test(c));
}

// the start of an HTML block that only a blank line ends (CommonMark's kind 6), for the common block tags; read
// only where a block starts (after a blank line), since a renderer's reading of one that interrupts a paragraph
// is left to the charge
const htmlBlockToBlankLine =
  /^ {0,3}<\/?(?:address|article|aside|blockquote|center|details|div|dl|figure|footer|h[1-6]|header|hr|li|nav|ol|p|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)(?:[ >]|\/>|$)/i;

// the start of a block that may end a table: a quote, a fence, html, a heading, a list item, indented code
const blockStart = /^ {0,3}(?:[>`~<]|#{1,6}(?:[ \t]|$)|[*+-](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))|^ {4}|^\t/;

// a line inside a table that every renderer reads as a row: it holds a pipe and starts no other block
function isTableRow(line: string): boolean {
  return line.includes('|') && !blockStart.test(line);
}

function tableCells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|')) row = row.slice(0, -1);
  return row.split('|');
}

// The delimiters of one line (`start` to `end`) the renderers may pair with the rest of the run:
// - `*`, `_`, `~` runs that are left- or right-flanking (CommonMark 6.2: a run that is neither, such as the ` * `
//   of a comment block or `a _ b`, can neither open nor close, and no renderer pairs it), kept in `emphasis`;
// - `(` and `)` only on a line that may hold a link destination (`](`) or an autolink literal (`www.`, `://`), the
//   only places a renderer balances parentheses (destinations and autolinks never run across a line ending);
// - `<` where a tag, comment or declaration may run past the line: a `<!` or `<?`, or a `<` with no `>` after it
//   on the line (`Array<string>` and `<a href="x">` end where they start);
// - link labels wherever they stand.
function pairingDelimiters(text: string, start: number, end: number, emphasis: number[]): number {
  let held = 0;
  let parens = 0;
  // the line's last `>` (before `start` when it has none), searched within the line only
  let lastClose = end - 1;
  while (lastClose >= start && text.charCodeAt(lastClose) !== 0x3e) lastClose--;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (delimiters.has(c)) held++;
    else if (c === 0x3c) {
      const next = text.charCodeAt(i + 1);
      if (next === 0x21 || next === 0x3f || lastClose < i) held++;
    } else if (c === 0x28 || c === 0x29) parens++;
    else if (c === 0x2a || c === 0x5f || c === 0x7e) {
      let after = i + 1;
      while (after < end && text.charCodeAt(after) === c) after++;
      const flags = flanking(text, i, after, start, end);
      if (flags !== 0) emphasis.push(i, after - i, c, flags);
      i = after - 1;
    }
  }
  if (parens > 0 && mayHoldDestination(text.slice(start, end))) held += parens;
  return held;
}

// A run of `*`, `_` or `~` that may open (left-flanking) or close (right-flanking) emphasis or strikethrough is kept
// as four numbers (few objects for a paragraph of many): where it starts, its length, its character, its flags
const opensFlag = 1;
const closesFlag = 2;

// whether the delimiter run from `from` to `to` is left-flanking (may open: `opensFlag`) and right-flanking (may
// close: `closesFlag`), the line's ends counting as white space; `_` is taken to open and close as `*` does (more
// pairing, never less)
function flanking(text: string, from: number, to: number, lineStart: number, lineEnd: number): number {
  const before = from > lineStart ? text.charAt(from - 1) : ' ';
  const after = to < lineEnd ? text.charAt(to) : ' ';
  const opens = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
  const closes = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
  return (opens ? opensFlag : 0) | (closes ? closesFlag : 0);
}

// How far the renderers reach from each emphasis run, in (character × delimiter) pairs: marked scans from a run
// that may open to a closer, micromark walks back from a run that may close to an opener. A run that only closes
// always matches an earlier one that only opens (the rule of three binds only runs that do both), so a scan ends at
// the nearest such run of the same character at the latest; with none, it reaches the end (or the start) of the
// run of lines. Each run is charged its length times that reach: `*a* _b_` is charged the few characters between,
// a paragraph of openers that never close the quadratic work the renderers would do.
function emphasisPairs(runs: readonly number[], from: number, to: number): number {
  let pairs = 0;
  const nextCloser = new Map<number, number>();
  for (let i = runs.length - 4; i >= 0; i -= 4) {
    const [at, length, char, flags] = [runs[i] ?? 0, runs[i + 1] ?? 0, runs[i + 2] ?? 0, runs[i + 3] ?? 0];
    if ((flags & opensFlag) !== 0) pairs += length * ((nextCloser.get(char) ?? to) - at);
    if (flags === closesFlag) nextCloser.set(char, at);
  }
  const previousOpener = new Map<number, number>();
  for (let i = 0; i < runs.length; i += 4) {
    const [at, length, char, flags] = [runs[i] ?? 0, runs[i + 1] ?? 0, runs[i + 2] ?? 0, runs[i + 3] ?? 0];
    if ((flags & closesFlag) !== 0) pairs += length * (at - (previousOpener.get(char) ?? from));
    if (flags === opensFlag) previousOpener.set(char, at);
  }
  return pairs;
}

// ASCII characters by class: 1 white space, 2 punctuation (CommonMark's ASCII punctuation characters)
const asciiClass = new Uint8Array(128);
for (const c of ' \t\n\v\f\r') asciiClass[c.charCodeAt(0)] = 1;
for (const c of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') asciiClass[c.charCodeAt(0)] = 2;

// Unicode white space as the renderers read it (CommonMark: Zs, tab, line feed, form feed, carriage return)
function isSpace(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 128 ? asciiClass[code] === 1 : /^\s$/.test(c);
}

// ASCII punctuation and Unicode P and S classes (CommonMark 0.31); a lone surrogate half counts as punctuation,
// which makes a run more flanking, never less
function isPunctuation(c: string): boolean {
  const code = c.charCodeAt(0);
  return code < 128 ? asciiClass[code] === 2 : /^[\p{P}\p{S}]$/u.test(c) || (code >= 0xd800 && code <= 0xdfff);
}

function mayHoldDestination(line: string): boolean {
  return line.includes('](') || line.includes('www.') || line.includes('://');
}

/** A text's lines as the renderers' time grows with them: lines of inline text and blank lines, and the lines and characters of html blocks every renderer passes through raw (the rest of the text's characters are inline text's). */
export interface MarkdownLines {
  inline: number;
  blank: number;
  block: number;
  blockChars: number;
}

// an html block every renderer starts on a line of its own after a blank line and ends at the next blank one, at no
// indent (in no list item or quote, whose lines cost their containers): CommonMark's sixth kind for the common block
// tags, or its seventh, a line of one complete open or closing tag (by the grammar every renderer shares: marked takes
// no name starting `script`, `pre`, `style` or `textarea` there, and only spaces between attributes)
const topLevelBlockStart =
  /^(?:<\/?(?:address|article|aside|blockquote|center|details|div|dl|figure|footer|h[1-6]|header|hr|li|nav|ol|p|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)(?:[ >]|\/>|$)|<(?!(?:script|pre|style|textarea))[A-Za-z][A-Za-z0-9-]*(?: +[A-Za-z_:][A-Za-z0-9_.:-]*(?: *= *(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)* *\/?>[ \t]*$|<\/(?!(?:script|pre|style|textarea))[A-Za-z][A-Za-z0-9-]*[ \t]*>[ \t]*$)/i;
// a comment or processing instruction (an xml declaration) that ends on the line it opens, at no indent: a whole block
const wholeLineBlock = /^(?:<!--.*-->|<\?.*\?>)[ \t]*$/;
// a fence: a text holding one gets no html-block rate (a fence may hold what looks like a block start)
const fenceLine = /^ {0,3}(?:```|~~~)/m;

/** The lines of `text` (see `MarkdownLines`). Linear in the text. */
export function markdownLines(text: string): MarkdownLines {
  const lines: MarkdownLines = { inline: 0, blank: 0, block: 0, blockChars: 0 };
  const blocks = !fenceLine.test(text);
  let inBlock = false;
  let atBlockStart = true;
  let start = 0;
  while (start < text.length) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
    const next = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
    const line = text.slice(start, end);
    const blank = /^[ \t]*$/.test(line);
    if (blank) {
      inBlock = false;
      lines.blank++;
    } else {
      const whole: boolean = blocks && atBlockStart && wholeLineBlock.test(line);
      if (blocks && atBlockStart && !whole && topLevelBlockStart.test(line)) inBlock = true;
      if (inBlock || whole) {
        lines.block++;
        lines.blockChars += next - start;
      } else lines.inline++;
      atBlockStart = whole;
    }
    if (blank) atBlockStart = true;
    start = next;
  }
  return lines;
}
