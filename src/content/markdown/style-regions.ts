// Where an inline `<style` tag may hold a rendered markdown page in css (markdown-parts.ts makes no cut there): a
// `<style>` a renderer passes through raw opens a style element, and the browser reads everything after it, the
// renderers' markup of later blocks included, as css up to a `</style`. So from a line holding a `<style` that may be
// raw to the line that surely ends it, nothing is cut.
// - A `<style` is surely not raw when every reading holds a fence open on its line (code), or when it stands in a
//   code span of a line that is a whole block's inline text (an ATX heading, or a line between blank lines, neither
//   in what may be an html block or a raw tag): no `<` (a tag or autolink may swallow the backtick), `\` (an escape),
//   `:`, `@` or `www.` (marked's and GFM's bare urls run over backticks) before the span's opening backticks, whose
//   closing run is the next one of the same length, as CommonMark and marked pair them.
// - A `</style>` surely ends it when it starts a line with no indent (no list item's fence holds it) while no reading
//   holds a fence open, after lines since the last blank one holding no backtick (a code span) and no `[` (a link or
//   image title or text, an image's alt): every renderer passes that closing tag through as it is.

/** A `<style` start tag, any prefix: what follows it to its end tag is css in the page, wherever the renderer put it. */
export const styleTag = /<(?:[a-z]+:)?style\b/i;

// the same, for every one on a line
const inlineStyleTag = /<(?:[a-z]+:)?style\b/gi;

const closingStyleLine = /^<\/style\s*>/i;
const atxHeading = /^ {0,3}#{1,6}(?:[ \t]|$)/;
// a code span's pairing is only worked out on lines this long (longer ones: not surely code)
const maxSpanLine = 64 * 1024;

/** Where the line is read: every reading holds a fence open on it (`inFence`), it may be in an html block or a raw tag (`raw`), and the lines before and after it are blank (or there are none). */
export interface StyleLineContext {
  inFence: boolean;
  raw: boolean;
  blankAround: () => boolean;
}

/** Whether some `<style` tag on `line` may be passed through raw by a renderer (it then opens a style element); false for a line without one. Linear in the line. */
export function mayOpenStyle(line: string, context: StyleLineContext): boolean {
  return styleTag.test(line) && rawTagCount(line, context, inlineStyleTag) > 0;
}

/** How many of the tags `tags` (a global pattern) finds on `line` a renderer may pass through raw: every one, unless every reading holds the line in a fence or it stands in a sure code span (as a `<style` above). Linear in the line. */
export function rawTagCount(line: string, context: StyleLineContext, tags: RegExp): number {
  const found: number[] = [];
  tags.lastIndex = 0;
  for (let m = tags.exec(line); m !== null; m = tags.exec(line)) found.push(m.index);
  if (found.length === 0 || context.inFence) return 0;
  if (context.raw || !(atxHeading.test(line) || context.blankAround()) || line.length > maxSpanLine)
    return found.length;
  const spans = codeSpans(line);
  // both in order: one pass
  let raw = 0;
  let span = 0;
  for (const at of found) {
    while (span < spans.length && (spans[span]?.[1] ?? 0) <= at) span++;
    const [from = 0, to = 0] = spans[span] ?? [];
    if (!(span < spans.length && at >= from && at < to)) raw++;
  }
  return raw;
}

/** Whether `line` surely ends an open style element in every renderer's page: a `</style>` starting it, no fence possibly open (`fencesClosed`), and the lines since the last blank one free of backticks and `[` (`paragraphClean`). */
export function surelyClosesStyle(line: string, fencesClosed: boolean, paragraphClean: boolean): boolean {
  return fencesClosed && paragraphClean && closingStyleLine.test(line);
}

// the code spans of one line of inline text (content from just after the opening run to its closing run), as far as
// they are sure: up to the first `<`, `\`, `:`, `@` or `www.` outside a span
function codeSpans(line: string): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < line.length; ) {
    if (line.charCodeAt(i) !== 0x60) {
      i++;
      continue;
    }
    let j = i;
    while (line.charCodeAt(j) === 0x60) j++;
    runs.push([i, j - i]);
    i = j;
  }
  // each run's index among the runs of its length, to find the next run of the same length in constant time
  const byLength = new Map<number, number[]>();
  for (let r = 0; r < runs.length; r++) {
    const length = runs[r]?.[1] ?? 0;
    const list = byLength.get(length);
    if (list === undefined) byLength.set(length, [r]);
    else list.push(r);
  }
  const position = new Map<number, number>();
  const spans: [number, number][] = [];
  let text = 0;
  for (let r = 0; r < runs.length; ) {
    const [start = 0, length = 0] = runs[r] ?? [];
    if (unsure(line.slice(text, start))) break;
    const same = byLength.get(length) ?? [];
    let p = position.get(length) ?? 0;
    while (p < same.length && (same[p] ?? 0) <= r) p++;
    position.set(length, p);
    const close = same[p];
    if (close === undefined) {
      // no closing run: the backticks are text
      text = start;
      r++;
      continue;
    }
    const [closeStart = 0] = runs[close] ?? [];
    spans.push([start + length, closeStart]);
    text = closeStart + length;
    r = close + 1;
  }
  return spans;
}

function unsure(text: string): boolean {
  return /[<\\:@]|www\./i.test(text);
}
