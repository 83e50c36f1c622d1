// Markdown judged by the HTML its renderers produce (DESIGN §5): every renderer in markdown-renderers.ts renders
// the item as its users run it, and each page is read by the HTML parser as a browser reads it (past the same
// screen the text passes, which every active construct of a page must spell); the item is active when any page
// is. Code blocks and code spans come out as escaped text, so a README showing `<script>` in an example stays
// inert. The renderers disagree at the edges (precedence of emphasis, links and `<!…>` declarations, which
// reference definitions parse, what ends a table cell, what the tag filter escapes), which is why every one of
// them is asked, on every body.
//
// markdown-it's tokens are read besides the pages: a link or image destination as the most lenient renderer trims
// it, and reference definitions nobody uses yet (another renderer or a later edit links them).
import type Token from 'markdown-it/lib/token.mjs';
import { findActiveHtml, findActiveRenderedHtml } from '../svg-html/active-html.ts';
import { activeUrl, svgImageUrl } from '../svg-html/markup-url.ts';
import {
  htmlBlockNanosPerChar,
  htmlBlockNanosPerLine,
  markdownNanosPerBlankLine,
  markdownNanosPerCall,
  markdownNanosPerChar,
  markdownNanosPerLine,
  partsNanosPerChar,
  partsNanosPerLine,
  screenNanosPerChar,
  markdownScreenNanosPerCall,
  markdownScreenNanosPerChar,
  markdownScreenNanosPerLine,
  markdownScreenNanosPerMark,
} from '../parser-nanos.ts';
import { WorkBudget } from '../work-budget.ts';
import { markdownLines, pairingSteps } from './markdown-cost.ts';
import { MarkdownBytes } from './markdown-bytes.ts';
import { markdownRuns, newPartsWork, type PartsWork, stylesheetElement } from './markdown-parts.ts';
import { mayHoldActiveMarkdown } from './markdown-screen.ts';
import { mayHoldActiveMarkup, type ScreenWork } from '../svg-html/markup-screen.ts';
import {
  commonMark,
  type MarkdownEnv,
  type MarkdownRenderer,
  markdownRenderers,
  maxMarkdownNesting,
  micromarkGfmName,
  renderWith,
} from './markdown-renderers.ts';
import { htmlBlocksLines, htmlBlocksPageNanos } from './html-blocks-page.ts';

/** The rules a rendered page is judged by: `rendered` (frames, forms, a meta refresh and `base` count as active too, none being in a page a renderer makes of ordinary markdown), or `page` (a browser page's rules alone: for a body that is a page by its name, whose own markup holds them). */
export type PageRules = 'rendered' | 'page';

/** What the screen and the cutting make of a markdown text, worked out once: whether a renderer's page may hold something active (`live`), and the runs a reading renders (markdown-parts.ts; none when nothing needs rendering). */
export interface MarkdownPlan {
  live: boolean;
  runs: readonly string[];
}

/** Screens `text` and, when the screen passes it or `stylesheets` asks for the parts naming a stylesheet element, cuts it into the runs a reading renders (the whole text when the screen passed it and no part passes on its own); both are charged to `budget`'s parser time as they are counted (characters, lines, marks looked at), each right after it ran. */
export function planMarkdown(text: string, budget: WorkBudget, stylesheets = false): MarkdownPlan {
  const screened = { marks: 0 };
  // the text's bytes and line readings, made once for the screen and the cutting (markdown-bytes.ts)
  const shared = new MarkdownBytes(text);
  // its characters before it starts, the marks and lines it counted when it is done
  const before = markdownScreenNanosPerCall + markdownScreenNanosPerChar * text.length;
  budget.spendTime('markdown screen', before);
  const live = mayHoldActiveMarkdown(text, screened, shared);
  budget.spendTime('markdown screen', markdownScreenNanosPerCall + screenNanos(text.length, screened) - before);
  if (!live && !stylesheets) return { live, runs: [] };
  const runs = cutMarkdown(text, budget, stylesheets ? stylesheetPart : undefined, shared);
  return { live, runs: live && runs.length === 0 ? [text] : runs };
}

/** What `planMarkdown` charges `text` for its screen, and for its cutting when the screen passes it (0 when it does not), calibrated ns. */
export function planCharges(text: string): { screen: number; parts: number } {
  const screened = { marks: 0 };
  const shared = new MarkdownBytes(text);
  const live = mayHoldActiveMarkdown(text, screened, shared);
  const screen = markdownScreenNanosPerCall + screenNanos(text.length, screened);
  if (!live) return { screen, parts: 0 };
  const work = newPartsWork();
  markdownRuns(text, undefined, work, shared);
  return { screen, parts: partsNanos(text.length, work) };
}

/** The screen in front of the renderers on `chars` characters that did `work`, calibrated ns (its cost per call aside). */
export function screenNanos(chars: number, work: ScreenWork): number {
  return (
    markdownScreenNanosPerChar * chars +
    markdownScreenNanosPerMark * work.marks +
    markdownScreenNanosPerLine * (work.lines ?? 0)
  );
}

/** `markdownRuns` of the text, its cutting and the screens of its parts charged to `budget` as they were counted; `shared`: the text's bytes and line readings when the screen made them. */
export function cutMarkdown(
  text: string,
  budget: WorkBudget,
  also?: (part: string) => boolean,
  shared = new MarkdownBytes(text),
): string[] {
  // its characters before it starts, its lines as they are read (a text of line breaks past the bound stops there),
  // the rest when it is done
  budget.spendTime('markdown parts', partsNanosPerChar * text.length);
  let charged = 0;
  const work = newPartsWork();
  work.onLines = (lines) => {
    charged += lines;
    budget.spendTime('markdown parts', partsNanosPerLine * lines);
  };
  const runs = markdownRuns(text, also, work, shared);
  budget.spendTime(
    'markdown parts',
    partsNanos(text.length, work) - partsNanosPerChar * text.length - partsNanosPerLine * charged,
  );
  return runs;
}

/** What cutting `chars` characters into parts (`markdownRuns`) that did `work` costs, calibrated ns. */
export function partsNanos(chars: number, work: PartsWork): number {
  return partsNanosPerChar * chars + partsNanosPerLine * work.cutLines + screenNanos(work.screened, work);
}

/** The first active construct any of `renderers` (default: every markdown renderer) yields from the text (script, handler, frame, form, plugin, refresh, base, script or markup url), a script destination in markdown-it's reading, or nesting past the cap, as a one-line message; null when none. Only the parts of the text the screen passes are read (markdown-parts.ts). `seePage` is handed each distinct page a renderer made, for a caller that reads the pages for stylesheets: the parts naming a stylesheet element are rendered for it too. `plan`: the text's plan (`planMarkdown`, with `stylesheets` when `seePage` is given) when the caller made it already; `pageRules`: the rules each page is judged by. */
export function findActiveMarkdown(
  text: string,
  budget: WorkBudget = WorkBudget.unlimited(),
  renderers: readonly MarkdownRenderer[] = markdownRenderers,
  seePage?: (page: string) => void,
  plan: MarkdownPlan = planMarkdown(text, budget, seePage !== undefined),
  pageRules: PageRules = 'rendered',
): string | null {
  // nothing any renderer's page may hold is spelled (markdown-screen.ts): no renderer runs
  if (!plan.live) return null;
  const runs = plan.runs;
  // the renderers' superlinear pairing of delimiters, and the measured time of the token read and of every renderer
  // per character and per render, charged for every run before any of them runs: what will not fit is not started
  for (const run of runs) budget.spend('markdown', pairingSteps(run));
  budget.spendTime('markdown', runsNanos(runs, renderers));
  for (const run of runs) {
    const found = readRun(run, budget, renderers, seePage, pageRules);
    if (found !== null) return found;
  }
  return null;
}

/** What `findActiveMarkdown` charges for rendering the runs of `plan` with `renderers`, calibrated ns (the pages' parse5 reads are charged as they are read). */
export function planCharge(plan: MarkdownPlan, renderers: readonly MarkdownRenderer[] = markdownRenderers): number {
  return runsNanos(plan.runs, renderers);
}

function runsNanos(runs: readonly string[], renderers: readonly MarkdownRenderer[]): number {
  let nanos = 0;
  for (const run of runs) nanos += markdownNanos(run, renderers);
  return nanos;
}

function stylesheetPart(part: string): boolean {
  return stylesheetElement.test(part);
}

// one run read whole, charged already: markdown-it's tokens, then every renderer's page through parse5
function readRun(
  text: string,
  budget: WorkBudget,
  renderers: readonly MarkdownRenderer[],
  seePage: ((page: string) => void) | undefined,
  pageRules: PageRules,
): string | null {
  const env: MarkdownEnv = { budget };
  const tokens = commonMark().parse(text, env);
  const svgImages = new Set<string>();
  for (const block of tokens) {
    if (block.level >= maxMarkdownNesting) return nestedTooDeep;
    if (block.children === null) continue;
    for (const inline of block.children) {
      if (block.level + inline.level >= maxMarkdownNesting) return nestedTooDeep;
      const found = inspectInline(inline, svgImages);
      if (found !== null) return found;
    }
  }
  for (const reference of Object.values(env.references ?? {})) {
    // a definition an image uses for an svg `data:` url is inert there; a link made of it is on the link's token and
    // on every renderer's page, both read; one no image uses stays active (another renderer or an edit links it)
    if (svgImages.has(reference.href)) continue;
    const url = activeUrl(asAnyRendererReads(reference.href));
    if (url !== null) return `a markdown link reference definition with ${url}`;
  }
  // renderers often agree to the byte on ordinary prose: a page read once is not parsed (nor charged) again
  const read = new Set<string>();
  for (const renderer of renderers) {
    const page = renderWith(renderer, text);
    if (read.has(page)) continue;
    read.add(page);
    seePage?.(page);
    budget.spendTime('html screen', screenNanosPerChar * page.length);
    const judge = pageRules === 'rendered' ? findActiveRenderedHtml : findActiveHtml;
    const found = mayHoldActiveMarkup(page) ? judge(page, budget) : null;
    if (found !== null) return `markdown renders to html with ${found} (${renderer.name})`;
  }
  return null;
}

/** What reading all of `text` once with `renderers` costs, the token read included, calibrated ns (the charge of one run; the pages' parse5 reads are charged as they are read). */
export function markdownNanos(text: string, renderers: readonly MarkdownRenderer[] = markdownRenderers): number {
  // micromark does not run on a text of html blocks only: its page is written as micromark writes it
  // (html-blocks-page.ts), at that writing's cost; every other renderer is charged as on any text
  const blockLines = renderers.some((r) => r.name === micromarkGfmName) ? htmlBlocksLines(text) : 0;
  const run = blockLines > 0 ? renderers.filter((r) => r.name !== micromarkGfmName) : renderers;
  const written = blockLines > 0 ? htmlBlocksPageNanos(text.length, blockLines) : 0;
  // the renderers' time grows with characters and with lines: inline text is charged the larger of the two, never
  // less than by its characters; an html block's lines, passed through raw, cost a tenth of prose's
  const lines = markdownLines(text);
  const inline = Math.max(
    markdownNanosPerChar(run) * (text.length - lines.blockChars),
    markdownNanosPerLine(run) * lines.inline + markdownNanosPerBlankLine * lines.blank,
  );
  const block = Math.max(htmlBlockNanosPerChar * lines.blockChars, htmlBlockNanosPerLine * lines.block);
  return markdownNanosPerCall(run) + inline + block + written;
}

// white space any renderer may trim from a destination's ends: marked trims with `String.prototype.trim` (every
// Unicode space separator, U+FEFF, U+2028/2029), which CommonMark keeps as part of the destination; the zero-width
// characters and U+180E (once a space separator) are taken off too, in case a renderer still trims them. Tested
// one character at a time from each end: a regular expression anchored at the end (`[\s…]+$`) retries from
// every position of a run of spaces inside the text, quadratic in the run (300 KB: 20 s).
const trimmedByARenderer = /^[\s\u180e\u200b-\u200d\u2060]$/;

// a destination as the most lenient renderer hands it to the URL parser
function asAnyRendererReads(destination: string): string {
  let start = 0;
  let end = destination.length;
  while (start < end && trimmedByARenderer.test(destination.charAt(start))) start++;
  while (end > start && trimmedByARenderer.test(destination.charAt(end - 1))) end--;
  return destination.slice(start, end);
}

const nestedTooDeep = `markdown nested deeper than ${maxMarkdownNesting} levels`;

// `svgImages` collects the svg `data:` urls of images, which a reference definition may hold inertly
function inspectInline(token: Token, svgImages: Set<string>): string | null {
  const destination =
    token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
  if (destination === null) return null;
  // every renderer draws a markdown image as an `<img>`, where a browser runs an svg with script off and loads
  // nothing from it (the SVG Integration spec's secure animated mode): an svg `data:` url is inert there, as in an
  // html `<img src>` (lead's design call, session 14); as a link target it is a document and stays active
  if (token.type === 'image' && svgImageUrl('img', 'src', asAnyRendererReads(destination))) {
    svgImages.add(destination);
    return null;
  }
  const url = activeUrl(asAnyRendererReads(destination));
  return url === null ? null : `a markdown ${token.type === 'image' ? 'image' : 'link'} with ${url}`;
}
