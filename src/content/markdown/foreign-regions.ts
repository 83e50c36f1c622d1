// Where a raw `<svg>` or `<math>` may hold a rendered markdown page in foreign content (markdown-parts.ts makes no cut
// there): the browser parses what follows such a start tag as svg or mathml up to its end tag, where a `<style>`, a
// `<textarea>` or a `<title>` holds markup, not text, and `<![CDATA[` hides it; a part read on its own would be read as
// html. So from a line holding a `<svg`/`<math` that may be raw to the line whose end tag surely closes it, nothing
// is cut; a region whose end is not sure keeps the rest of the text whole.
// - An opening is any `<svg`/`<math` on a line no reading holds in a fence, outside a sure code span (as a `<style`:
//   style-regions.ts); counted, as they nest (an `</svg>` closes the nearest svg).
// - Inside a region every line is read as the browser's tokenizer reads it, and must be plain: each `<` starts a
//   complete tag of CommonMark's raw html grammar on that line, or a comment ending on it, holding no other `<` (a
//   renderer passes each through whole or escapes it: the browser sees some of them, each cut where it is here); no backtick or backslash (a code span or an escape
//   would hide part of a line), no line a raw tag over lines may hold, and no integration point (`foreignObject`,
//   `desc`, `title`, `annotation-xml`, `mi`, `mo`, `mn`, `ms`, `mtext`: html inside one may leave an html element
//   open, past which an `</svg>` is ignored) unless it holds text alone up to its end tag on the same line.
// - An end tag closes its element surely on a line no reading holds a fence open before, with at most three spaces
//   of indent and a tag, a letter or `#` first (no list item or quote that may hold an indented code block), after
//   lines since the last blank one holding no backtick or `[`, and with no `[` before it on its line (an image's alt
//   drops tags).
// A breakout tag (`<p>`, `<div>`, …) inside svg pops it: the region then ends earlier than counted, still surely.

/** Where a line is read: every reading holds it in a fence (`code`), no reading holds a fence open before it (`fencesClosed`), a raw tag over lines may hold it (`inSpan`), the lines since the last blank one hold no backtick or `[` (`paragraphClean`), and how many tags of a pattern on it may be raw (`opens`, style-regions.ts). */
export interface ForeignLineContext {
  code: boolean;
  fencesClosed: boolean;
  inSpan: boolean;
  paragraphClean: boolean;
  opens: (tag: RegExp) => number;
}

/** A `<svg` or `<math` start tag, as the html tokenizer names it (no prefix). */
export const foreignTag = /<(?:svg|math)\b/i;

const svgOpen = /<svg\b/gi;
const mathOpen = /<math\b/gi;
// a complete tag or comment of CommonMark's raw html grammar, starting at a `<`, holding no other `<` (so that however
// a renderer takes each, the browser sees a subset of them, each whole, and nothing hidden in one)
const openTag =
  /<([A-Za-z][A-Za-z0-9-]*)(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^"'=<>`\s]+|'[^'<]*'|"[^"<]*"))?)*[ \t]*\/?>/y;
const closeTag = /<\/([A-Za-z][A-Za-z0-9-]*)[ \t]*>/y;
const comment = /<!--(?:>|->|(?:[^<-]|-(?!->))*-->)/y;
// integration points: html rules apply inside them
const integrationPoint = /<(?:foreignobject|desc|title|annotation-xml|mi|mo|mn|ms|mtext)\b/i;
// one holding text alone up to its end tag, on one line
const textOnlyPoint = /<(title|desc|mi|mo|mn|ms|mtext)\b[^<>]*>[^<]*<\/\1[ \t]*>/gi;
// a line whose first character may open a list item or a quote (which may hold an indented code block)
const containerStart = /^ {0,3}[^ <A-Za-z#]/;

/** The svg and mathml elements a markdown text may leave open in its pages, read line by line. */
export class ForeignRegions {
  private svg = 0;
  private math = 0;
  private lost = false;

  /** No foreign element may be open after the lines read so far, and every region has surely ended: a cut may fall here. */
  get settled(): boolean {
    return !this.lost && this.svg === 0 && this.math === 0;
  }

  /** Reads one line (without its line break). Linear in the line. */
  read(line: string, context: ForeignLineContext): void {
    if (this.lost || context.code) return;
    const opening = this.svg + this.math === 0;
    if (opening && !foreignTag.test(line)) return;
    if (opening && context.opens(svgOpen) + context.opens(mathOpen) === 0) return;
    if (!plainLine(line, context)) {
      this.lost = true;
      return;
    }
    // opens and closes in the order they stand
    const events: [at: number, name: 'svg' | 'math', open: boolean][] = [];
    for (const [tag, name] of [
      [svgOpen, 'svg'],
      [mathOpen, 'math'],
    ] as const) {
      tag.lastIndex = 0;
      for (let m = tag.exec(line); m !== null; m = tag.exec(line)) events.push([m.index, name, true]);
    }
    for (let at = line.indexOf('<'); at !== -1; at = line.indexOf('<', at + 1)) {
      closeTag.lastIndex = at;
      const close = closeTag.exec(line);
      const name = close?.[1]?.toLowerCase();
      if ((name === 'svg' || name === 'math') && surelyCloses(line, at, context)) events.push([at, name, false]);
    }
    events.sort((a, b) => a[0] - b[0]);
    for (const [, name, open] of events) {
      if (name === 'svg') this.svg = open ? this.svg + 1 : Math.max(0, this.svg - 1);
      else this.math = open ? this.math + 1 : Math.max(0, this.math - 1);
    }
  }
}

// every `<` on the line starts a complete tag or comment, and nothing on it may hide part of it from a renderer
function plainLine(line: string, context: ForeignLineContext): boolean {
  if (context.inSpan || line.includes('`') || line.includes('\\')) return false;
  if (integrationPoint.test(line.replace(textOnlyPoint, ''))) return false;
  for (let at = line.indexOf('<'); at !== -1; ) {
    let end = -1;
    for (const pattern of [comment, closeTag, openTag]) {
      pattern.lastIndex = at;
      if (pattern.test(line)) {
        end = pattern.lastIndex;
        break;
      }
    }
    if (end === -1) return false;
    at = line.indexOf('<', end);
  }
  return true;
}

function surelyCloses(line: string, at: number, context: ForeignLineContext): boolean {
  return (
    context.fencesClosed &&
    context.paragraphClean &&
    !containerStart.test(line) &&
    !line.startsWith('    ') &&
    !line.slice(0, at).includes('[')
  );
}
