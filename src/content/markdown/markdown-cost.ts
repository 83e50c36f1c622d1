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

/** Characters that open or close inline constructs the renderers pair up: emphasis, strikethrough, link and image labels and destinations, autolink parentheses. */
const delimiters: ReadonlySet<number> = new Set([...'*_~[]()<'].map((c) => c.charCodeAt(0)));

/** Pairs (character × delimiter) one step stands for: measured, one pair of marked's emphasis scan takes ~26 ns. */
export const pairsPerStep = 16;

/** Steps the renderers' pairing work on `text` is charged: Σ over runs of lines (between blank lines, bullet items and table rows) of length × delimiters ÷ `pairsPerStep`. Linear in the text. */
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
  const close = (): void => {
    steps += (length * held) / pairsPerStep;
    length = 0;
    held = 0;
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
    for (let i = start; i < end; i++) if (delimiters.has(text.charCodeAt(i))) held++;
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
