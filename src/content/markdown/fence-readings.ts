// Which top-level fenced code block a markdown text may hold open at each line, in every way the renderers may read
// it (markdown-parts.ts cuts only where no reading holds one open). A fence line with no indent opens or closes a
// top-level fence. One indented one to three spaces is read both ways when it may be a list item's: as a top-level
// fence, and as a list item's, which needs no following, since a line with no indent ends every list item (and the
// fence in it) when nothing is a paragraph it could continue lazily, and a cut falls only before such a line after a
// blank one. It is read as a list item's only when a list item is certainly open with its content at or left of the
// fence (a `- ` or `1. ` line with no indent, every line since at its content column or blank): an ordinary README's
// code blocks in lists are then followed as they are. A fence line that may stand in an html block is read both as
// the fence and as the block's text, and a closing line only marked takes (the opening run, then any `~` and
// backticks) both as closing and not. The readings are few (deduplicated by the fence they hold); past
// `maxReadings` the text is not followed further (nothing more is cut).

/** An open top-level fence: its character and the length of its opening run. */
interface Fence {
  readonly char: number;
  readonly length: number;
}

// readings beyond which the text is no longer followed: crafted text only (runs of fences of growing lengths)
const maxReadings = 16;

const fenceLine = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const blankRest = /^[ \t]*$/;
// a closing line marked (18) takes and CommonMark does not: the opening run, then more fence characters
const markedClosingRest = /^[`~]*[ \t]*$/;

/** Follows a text line by line: which top-level fences may be open before each line. */
export class FenceReadings {
  private readings = new Map<string, Fence | null>([['', null]]);
  // the content column of a list item the reading with no fence open is certainly in, null when not known
  private listColumn: number | null = null;
  /** True once the readings are too many to follow: nothing after may be cut. */
  lost = false;

  /** True when no reading holds a top-level fence open (before the next line). */
  get closed(): boolean {
    return !this.lost && this.readings.size === 1 && this.readings.has('');
  }

  /** True when every reading holds a top-level fence open (before the next line): a line that closes none is code. */
  get open(): boolean {
    return !this.lost && !this.readings.has('');
  }

  /** Reads the line of `text` from `start` to `end` (no line break). `inHtmlBlock`: the line may be in an html block; `previousBlank`: the line before was blank (or there was none); `marks`: it holds two backticks or two tildes in a row (the caller read its characters; a line without is no fence line). */
  read(text: string, start: number, end: number, inHtmlBlock: boolean, previousBlank: boolean, marks: boolean): void {
    if (this.lost) return;
    // most lines are no fence line: the readings stay as they are, and the line is read where it stands
    const fence = marks ? fenceLine.exec(text.slice(start, end)) : null;
    if (fence === null) {
      this.listColumn = nextListColumn(this.listColumn, text, start, end, inHtmlBlock, previousBlank);
      return;
    }
    const next = new Map<string, Fence | null>();
    // a reading with no fence open that a closing line made: its list state is not known
    let reopened = false;
    const keep = (reading: Fence | null): void => {
      next.set(reading === null ? '' : `${reading.char}:${reading.length}`, reading);
    };
    for (const reading of this.readings.values()) {
      // as the text of an html block
      if (inHtmlBlock) keep(reading);
      const [, indent = '', run = '', rest = ''] = fence;
      const char = run.charCodeAt(0);
      if (reading !== null) {
        const closing = char === reading.char && run.length >= reading.length;
        if (closing && blankRest.test(rest)) {
          keep(null);
          reopened = true;
        } else {
          keep(reading);
          if (closing && markedClosingRest.test(rest)) {
            keep(null);
            reopened = true;
          }
        }
      } else if (char === 0x60 && rest.includes('`')) keep(null);
      else {
        const opened = { char, length: run.length };
        if (indent.length === 0) keep(opened);
        else {
          // a list item's fence: closed, at the latest, by the next line with no indent
          keep(null);
          if (this.listColumn === null || indent.length < this.listColumn) keep(opened);
        }
      }
    }
    this.readings = next;
    this.listColumn = reopened ? null : nextListColumn(this.listColumn, text, start, end, inHtmlBlock, previousBlank);
    if (next.size > maxReadings) this.lost = true;
  }
}

// the content column of the list item certainly open after the line from `start` to `end` (in the reading with no
// fence open), null when none is known: a list item's first line with no indent starts one; a line with no indent
// ends every list item; an indented line left of the column may be a lazy continuation or end it (not known). Read
// where the line stands, character by character: no copy of it, no pattern run on it
function nextListColumn(
  column: number | null,
  text: string,
  start: number,
  end: number,
  inHtml: boolean,
  previousBlank: boolean,
): number | null {
  // its indent, tabs to stops of 4
  let indent = 0;
  let i = start;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) indent++;
    else if (c === 0x09) indent += 4 - (indent % 4);
    else break;
  }
  // a blank line
  if (i === end) return column;
  if (i > start) return column !== null && indent >= column ? column : null;
  if (inHtml || isThematicBreak(text, start, end)) return null;
  return listItemColumn(text, start, end, previousBlank);
}

// whether the line (no indent) is three or more of one of `-`, `*`, `_`, with only spaces and tabs between and after
function isThematicBreak(text: string, start: number, end: number): boolean {
  const mark = text.charCodeAt(start);
  if (mark !== 0x2d && mark !== 0x2a && mark !== 0x5f) return false;
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === mark) count++;
    else if (c !== 0x20 && c !== 0x09) return false;
  }
  return count >= 3;
}

// the content column of the list item the line (no indent) starts with content on it, null when it starts none: a
// bullet, or 1 as the number when it may interrupt a paragraph (another number only after a blank line); 1 to 4
// spaces after the mark (5 or more make indented code in the item, a tab a tab stop)
function listItemColumn(text: string, start: number, end: number, previousBlank: boolean): number | null {
  let i = start;
  const first = text.charCodeAt(i);
  if (first === 0x2d || first === 0x2b || first === 0x2a) i++;
  else {
    while (i < end && i - start < 10 && isDigit(text.charCodeAt(i))) i++;
    const digits = i - start;
    const c = text.charCodeAt(i);
    if (digits === 0 || digits > 9 || (c !== 0x2e && c !== 0x29)) return null;
    // an ordered item numbered other than 1 does not interrupt a paragraph
    if (!previousBlank && !(digits === 1 && first === 0x31)) return null;
    i++;
  }
  let spaces = 0;
  while (i + spaces < end && text.charCodeAt(i + spaces) === 0x20) spaces++;
  if (spaces === 0) return null;
  // as the pattern takes them: up to four spaces, then content that is no space or tab
  const taken = Math.min(spaces, 4);
  const after = i + taken;
  if (after >= end) return null;
  const c = text.charCodeAt(after);
  if (c === 0x20 || c === 0x09) return null;
  return after - start;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
