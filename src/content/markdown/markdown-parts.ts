// Markdown cut where every renderer starts afresh, so that only the parts the screen passes are read: a 90 KB README
// with one `style=` in a tag was five renders of all of it. A cut is made before a line with no indent that follows
// a blank line, where nothing is open that a blank line does not end:
// - containers: a blank line ends a block quote, and a line with no indent after one ends every list item (it is not
//   indented enough to go on in one, and lazy continuation needs a paragraph line right before it);
// - leaf blocks: paragraphs, tables and html blocks of the sixth and seventh kinds end at a blank line; a fenced code
//   block at the top level does not: every way the renderers may read the fences is followed (fence-readings.ts: a
//   fence indented one to three spaces as a list item's and as a top-level one), and a cut falls only where none
//   holds one open;
// - raw html: no cut inside a tag that may run past its line and is not surely ended before a blank line
//   (`rawTagSpans` read across lines); none from a `<style>`
//   tag that may be raw to the line that surely ends it (style-regions.ts: the browser reads every later part as css
//   up to its end tag). marked passes a paragraph's text on raw after an inline `<pre>`, `<code>`, `<kbd>` or
//   `<script>` tag, but only within that block: its lexer (marked 18, `Lexer.lex`) sets `inRawBlock` off before the
//   inline text of each block, so a part starts with it off as in place (markdown-parts.test.ts checks it against
//   marked); none from an `<svg>` or `<math>` that may be raw to the line whose end tag surely closes it
//   (foreign-regions.ts: the browser parses what follows them as foreign content, where a `<style>` holds markup);
// - definitions: a link reference definition links its uses anywhere, and the renderers disagree on what one is
//   (marked takes labels past 999 characters and titles across a blank line), so a text whose live part may define
//   one to a script or `data:` url (`mayDefineActiveReference`) is read whole. A definition with an inert
//   destination makes inert links wherever its uses stand, and a use whose definition is elsewhere renders no more
//   of its part unresolved than resolved (its label and text shown as they are written, not taken into a link), so
//   a live part with such definitions and uses is read on its own; a GFM footnote definition
//   renders only where it is referenced, so a text whose live part holds a `[^` is read whole when the text may hold
//   a definition (`mayDefineFootnote`; a definition is a container that a line with no indent after a blank line
//   ends, as a list item is).
// A part is rendered as it would be in place, so each part the screen passes is read on its own.
import { fencedLines, LineFlag } from './fenced-lines.ts';
import { MarkdownBytes } from './markdown-bytes.ts';
import { ForeignRegions, foreignTag } from './foreign-regions.ts';
import { mayDefineActiveReference, mayHoldActiveMarkdown, rawTagSpans } from './markdown-screen.ts';
import { definesAcrossLines } from './multi-line-definitions.ts';
import { markTextTriggers, type ScreenWork } from '../svg-html/markup-screen.ts';
import { mayOpenStyle, rawTagCount, type StyleLineContext, styleTag, surelyClosesStyle } from './style-regions.ts';

/** An element that may load a stylesheet: `<style>`, `<link>` (and an `xml-stylesheet` instruction), any prefix. */
export const stylesheetElement = /<(?:[a-z]+:)?(?:style|link)\b|<\?xml-stylesheet/i;

/** The text cut into parts every renderer reads as it reads them in place, in order (their concatenation is the text); one part when no cut is safe. Linear. */
export function markdownParts(text: string): string[] {
  const { cuts } = cutText(text);
  const parts: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    parts.push(text.slice(from, cut));
    from = cut;
  }
  parts.push(text.slice(from));
  return parts;
}

/** Where the text is cut (`markdownParts`): before each part but the first, as UTF-16 offsets (`cuts`) and as offsets in its UTF-8 `bytes` (`byteCuts`). */
interface Cuts {
  bytes: Buffer;
  cuts: number[];
  byteCuts: number[];
}

function cutText(text: string, work: PartsWork = newPartsWork(), shared = new MarkdownBytes(text)): Cuts {
  const bytes = shared.bytes;
  const lines = fencedLines(text, bytes, linesPerCall, work.onLines, shared.made);
  const { count, start: starts, end: ends, byte: byteStarts, nextByte, flags } = lines;
  work.cutLines += count;
  // a `<` on a line every reading holds in a fenced code block is code, no tag
  let line = 0;
  const code = (at: number): boolean => {
    while (line + 1 < count && (byteStarts[line + 1] ?? 0) <= at) line++;
    return line < count && ((flags[line] ?? 0) & LineFlag.code) !== 0 && at < (nextByte[line] ?? 0);
  };
  const spans = rawTagSpans(bytes, true, code, work, lines);
  const cuts: number[] = [];
  const byteCuts: number[] = [];
  let span = 0;
  // the lines since the last blank one hold no backtick or `[`
  let paragraphClean = true;
  // a `<style>` that may be raw is open (style-regions.ts); none is when the text names none
  let style = false;
  const styled = styleTag.test(text);
  // the svg and mathml elements that may be open (none when the text names neither)
  const foreign = foreignTag.test(text) ? new ForeignRegions() : null;
  for (let i = 0; i < count; i++) {
    const start = starts[i] ?? 0;
    const byte = byteStarts[i] ?? 0;
    const lineFlags = flags[i] ?? 0;
    const blank = (lineFlags & LineFlag.blank) !== 0;
    const previousBlank = (lineFlags & LineFlag.previousBlank) !== 0;
    const closed = (lineFlags & LineFlag.closed) !== 0;
    const inBlock = (lineFlags & LineFlag.inBlock) !== 0;
    while (span < spans.length && (spans[span + 1] ?? 0) < byte) span += 2;
    const inSpan = span < spans.length && (spans[span] ?? 0) <= byte;
    const first = text.charCodeAt(start);
    if (start > 0 && closed && !style && previousBlank && !blank && first !== 0x20 && first !== 0x09) {
      if (!inSpan && !inBlock && (foreign === null || foreign.settled)) {
        cuts.push(start);
        byteCuts.push(byte);
      }
    }
    // the line's text, for the readings of style and foreign regions: only a line holding a `<`, or one read while a
    // region is open, is looked at by them
    const lt = (lineFlags & LineFlag.lt) !== 0;
    if ((styled && (style || lt)) || (foreign !== null && (lt || !foreign.settled))) {
      const content = text.slice(start, ends[i] ?? start);
      const context = (): StyleLineContext => ({
        inFence: (lineFlags & LineFlag.open) !== 0,
        raw: inSpan || inBlock,
        blankAround: () => previousBlank && (i + 1 >= count || ((flags[i + 1] ?? 0) & LineFlag.blank) !== 0),
      });
      if (style) style = !surelyClosesStyle(content, closed, paragraphClean);
      else if (styled) style = mayOpenStyle(content, context());
      foreign?.read(content, {
        code: (lineFlags & LineFlag.code) !== 0,
        fencesClosed: closed,
        // a tag that starts before the line and ends on it or after
        inSpan: inSpan && (spans[span] ?? 0) < byte,
        paragraphClean,
        opens: (tag) => rawTagCount(content, context(), tag),
      });
    }
    paragraphClean = blank || (paragraphClean && (lineFlags & LineFlag.span) === 0);
  }
  return { bytes, cuts, byteCuts };
}

/** Work the cutting did, for a caller that charges it (active-markdown.ts): the text's lines cut, the marks looked at (tags read, the screens' marks) and lines read besides, the characters of the parts screened. */
export interface PartsWork extends ScreenWork {
  /** the text's lines cut */
  cutLines: number;
  screened: number;
  /** told every `linesPerCall` lines cut, as they are (a caller that charges them may stop the cutting there) */
  onLines?: (lines: number) => void;
}

/** How many lines the cutting reads between calls to `PartsWork.onLines`. */
export const linesPerCall = 4096;

/** No work yet. */
export function newPartsWork(): PartsWork {
  return { cutLines: 0, marks: 0, lines: 0, screened: 0 };
}

/** The runs of the text a reading must render: neighbouring parts the screen passes (or `also` names, as a stylesheet reading does), joined; none when no part needs it. `work`: counts what the cutting and the screens of the parts did; `shared`: the text's bytes and line readings when the screen of the whole text made them (markdown-bytes.ts). */
export function markdownRuns(
  text: string,
  also?: (part: string) => boolean,
  work = newPartsWork(),
  shared = new MarkdownBytes(text),
): string[] {
  const { bytes, cuts, byteCuts } = cutText(text, work, shared);
  // a part in which no trigger of the markup screen stands, read anywhere, passes nothing on its own: only the parts
  // holding one are screened (a part's screen has a fixed cost, and 8 MiB of READMEs is 46,000 parts)
  const triggers = Buffer.alloc(bytes.length);
  markTextTriggers(bytes, triggers, work);
  let trigger = triggers.indexOf(1);
  // a definition over more than one line may take a fence line into itself and pair every later fence the other way
  // (multi-line-definitions.ts): no cut holds, and a text with anything live (or that `also` reads) is read whole
  if ((trigger !== -1 || also?.(text) === true) && definesAcrossLines(text)) return [text];
  const runs: string[] = [];
  let run = '';
  // whether the text may define a footnote, asked once a read part holds a `[^`
  let footnotes: boolean | undefined;
  for (let i = 0; i <= cuts.length; i++) {
    const part = text.slice(cuts[i - 1] ?? 0, cuts[i] ?? text.length);
    const end = byteCuts[i] ?? bytes.length;
    if (trigger !== -1 && trigger < (byteCuts[i - 1] ?? 0)) trigger = triggers.indexOf(1, byteCuts[i - 1] ?? 0);
    const candidate = trigger !== -1 && trigger < end;
    if (candidate) work.screened += part.length;
    const live = candidate && mayHoldActiveMarkdown(part, work);
    // a live part that may define a link reference to a script or `data:` url: the renderers disagree on what a
    // definition is (marked takes labels past 999 characters and titles across a blank line), and a use anywhere
    // links it, so the whole text is read as one; likewise a live part holding a footnote reference or definition
    // (`[^`), which renders only with its other half, when the text may define one (with no definition a `[^x]` is no
    // footnote call, nor a link, to any renderer: its part renders as in place); the same for a part `also` reads (a
    // stylesheet in a footnote)
    const read = live || also?.(part) === true;
    if (
      read &&
      ((part.includes('[^') && (footnotes ??= mayDefineFootnote(text))) || mayDefineActiveReference(part, work))
    )
      return [text];
    if (read) run += part;
    else if (run !== '') {
      runs.push(run);
      run = '';
    }
  }
  if (run !== '') runs.push(run);
  return runs;
}

/** Whether `text` may hold a GFM footnote definition, or a link reference definition whose label starts with `^`: a `[^` followed by `]:` with no space, tab or line break between (micromark-extension-gfm-footnote takes none in a label). Linear. */
export function mayDefineFootnote(text: string): boolean {
  const space = /[ \t\n\r]/g;
  // the next `]:` and the next white space, each searched forward only (the `[^`s are read in order)
  let colon = -1;
  let gap = -1;
  for (let open = text.indexOf('[^'); open !== -1; open = text.indexOf('[^', open + 2)) {
    if (colon < open + 2) {
      colon = text.indexOf(']:', open + 2);
      if (colon === -1) return false;
    }
    if (gap < open + 2) {
      space.lastIndex = open + 2;
      gap = space.exec(text)?.index ?? text.length;
    }
    if (colon < gap) return true;
  }
  return false;
}
