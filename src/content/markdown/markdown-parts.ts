// Markdown cut where every renderer starts afresh, so that only the parts the screen passes are read: a 90 KB README
// with one `style=` in a tag was five renders of all of it. A cut is made before a line with no indent that follows
// a blank line, where nothing is open that a blank line does not end:
// - containers: a blank line ends a block quote, and a line with no indent after one ends every list item (it is not
//   indented enough to go on in one, and lazy continuation needs a paragraph line right before it);
// - leaf blocks: paragraphs, tables and html blocks of the sixth and seventh kinds end at a blank line; a fenced code
//   block at the top level does not. Fences are followed at the top level only, where they are unambiguous: a fence
//   line with no indent is a top-level one, one indented one to three spaces may be a list item's, and past the first
//   of those (or a fence line in what may be an html block, or a closing line only marked takes) nothing is cut;
// - html blocks of the first five kinds (`<pre`, `<script`, `<style`, `<textarea`, `<!--`, `<?`, `<!X`, `<![CDATA[`)
//   run to their end marker: no cut inside what may be one (raw-html-grammar.ts, read with a margin);
// - raw html: no cut inside a tag the screen reads as running past its line (`rawTagSpans`); none after a `<style>`
//   tag (the browser reads every later part as css up to its end tag). marked passes a paragraph's text on raw after
//   an inline `<pre>`, `<code>`, `<kbd>` or `<script>` tag, but only within that block: its lexer (marked 18,
//   `Lexer.lex`) sets `inRawBlock` off before the inline text of each block, so a part starts with it off as in
//   place (markdown-parts.test.ts checks it against marked); a text naming `<svg>` or
//   `<math>` is not cut (the browser parses what follows them as foreign content, where a `<style>` holds markup);
// - definitions: a link reference definition links its uses anywhere, and the renderers disagree on what one is
//   (marked takes labels past 999 characters and titles across a blank line), so a text whose live part may define
//   one (`]:`) is read whole (a definition with an inert destination makes inert links); a GFM footnote definition
//   renders only where it is referenced, so a text whose live part holds a `[^` is read whole (a definition is a
//   container that a line with no indent after a blank line ends, as a list item is).
// A part is rendered as it would be in place, so each part the screen passes is read on its own.
import { htmlBlockLines } from './raw-html-grammar.ts';
import { mayHoldActiveMarkdown, rawTagSpans } from './markdown-screen.ts';

/** An element that may load a stylesheet: `<style>`, `<link>` (and an `xml-stylesheet` instruction), any prefix. */
export const stylesheetElement = /<(?:[a-z]+:)?(?:style|link)\b|<\?xml-stylesheet/i;

// a `<style` start tag, any prefix: what follows it to its end tag is css in the page, wherever the renderer put it
const inlineStyleTag = /<(?:[a-z]+:)?style\b/i;

/** The text cut into parts every renderer reads as it reads them in place, in order (their concatenation is the text); one part when no cut is safe. Linear. */
export function markdownParts(text: string): string[] {
  if (/<(?:svg|math)\b/i.test(text)) return [text];
  const bytes = Buffer.from(text, 'utf8');
  const spans = rawTagSpans(bytes);
  const blocks = htmlBlockLines(bytes);
  // no cut after the first `<style` tag: an inline one in a paragraph opens a style element that runs, in the
  // browser, over every later part to its end tag
  const styleAt = text.search(inlineStyleTag);
  const rawFrom = styleAt === -1 ? Number.POSITIVE_INFINITY : Buffer.byteLength(text.slice(0, styleAt), 'utf8');
  const cuts: number[] = [];
  // the open top-level fence (its character and length), and whether fences can no longer be followed
  let fence: { char: number; length: number } | null = null;
  let lost = false;
  let span = 0;
  let previousBlank = false;
  // the UTF-8 offset of the line's start
  let byte = 0;
  for (let start = 0; start < text.length && !lost; ) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++;
    const next = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
    const line = text.slice(start, end);
    const blank = /^[ \t]*$/.test(line);
    while (span < spans.length && (spans[span + 1] ?? 0) < byte) span += 2;
    const inSpan = span < spans.length && (spans[span] ?? 0) <= byte;
    const first = line.charCodeAt(0);
    if (fence === null && previousBlank && !blank && first !== 0x20 && first !== 0x09) {
      if (!inSpan && byte < rawFrom && !blocks.holds(byte)) cuts.push(start);
    }
    const fenceLine = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
    if (fenceLine !== null) {
      const [, indent = '', run = '', rest = ''] = fenceLine;
      if (blocks.holds(byte)) lost = true;
      else if (fence !== null) {
        if (run.charCodeAt(0) === fence.char && run.length >= fence.length && /^[ \t]*$/.test(rest)) fence = null;
        // a line marked takes as the closing one (the opening run, then any `~` and backticks) that CommonMark does not
        else if (run.charCodeAt(0) === fence.char && run.length >= fence.length && /^[`~]*[ \t]*$/.test(rest))
          lost = true;
      } else if (indent.length > 0) lost = true;
      else if (!(run.charCodeAt(0) === 0x60 && rest.includes('`')))
        fence = { char: run.charCodeAt(0), length: run.length };
    }
    previousBlank = blank;
    byte += Buffer.byteLength(text.slice(start, next), 'utf8');
    start = next;
  }
  const parts: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    parts.push(text.slice(from, cut));
    from = cut;
  }
  parts.push(text.slice(from));
  return parts;
}

/** The runs of the text a reading must render: neighbouring parts the screen passes (or `also` names, as a stylesheet reading does), joined; none when no part needs it. */
export function markdownRuns(text: string, also?: (part: string) => boolean): string[] {
  const runs: string[] = [];
  let run = '';
  for (const part of markdownParts(text)) {
    const live = mayHoldActiveMarkdown(part);
    // a live part that may define a link reference (`]:`): the renderers disagree on what a definition is (marked
    // takes labels past 999 characters and titles across a blank line), and a use anywhere links it, so the whole
    // text is read as one; likewise a live part holding a footnote reference or definition (`[^`), which renders
    // only with its other half
    if (live && (part.includes(']:') || part.includes('[^'))) return [text];
    if (live || also?.(part) === true) run += part;
    else if (run !== '') {
      runs.push(run);
      run = '';
    }
  }
  if (run !== '') runs.push(run);
  return runs;
}
