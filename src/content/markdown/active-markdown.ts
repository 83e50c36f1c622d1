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
import { findActiveRenderedHtml } from '../svg-html/active-html.ts';
import { activeUrl } from '../svg-html/markup-url.ts';
import { markdownNanosPerCall, markdownNanosPerChar } from '../parser-nanos.ts';
import { WorkBudget } from '../work-budget.ts';
import { pairingSteps } from './markdown-cost.ts';
import { mayHoldActiveMarkdown } from './markdown-screen.ts';
import { mayHoldActiveMarkup } from '../svg-html/markup-screen.ts';
import {
  commonMark,
  type MarkdownEnv,
  type MarkdownRenderer,
  markdownRenderers,
  maxMarkdownNesting,
  renderWith,
} from './markdown-renderers.ts';

/** The first active construct any of `renderers` (default: every markdown renderer) yields from the text (script, handler, frame, form, plugin, refresh, base, script or markup url), a script destination in markdown-it's reading, or nesting past the cap, as a one-line message; null when none. `seePage` is handed each distinct page a renderer made (none when the screen passes nothing), for a caller that reads the pages for more. */
export function findActiveMarkdown(
  text: string,
  budget: WorkBudget = WorkBudget.unlimited(),
  renderers: readonly MarkdownRenderer[] = markdownRenderers,
  seePage?: (page: string) => void,
): string | null {
  // nothing any renderer's page may hold is spelled (markdown-screen.ts): no renderer runs, nothing is charged
  if (!mayHoldActiveMarkdown(text)) return null;
  const md = commonMark();
  const env: MarkdownEnv = { budget };
  // the renderers' superlinear pairing of delimiters, charged once before any of them runs
  budget.spend('markdown', pairingSteps(text));
  // the measured time of the token read and of every renderer, per character and per render, charged at once:
  // what will not fit is not started
  budget.spendTime('markdown', markdownNanos(text, renderers));
  const tokens = md.parse(text, env);
  for (const block of tokens) {
    if (block.level >= maxMarkdownNesting) return nestedTooDeep;
    if (block.children === null) continue;
    for (const inline of block.children) {
      if (block.level + inline.level >= maxMarkdownNesting) return nestedTooDeep;
      const found = inspectInline(inline);
      if (found !== null) return found;
    }
  }
  for (const reference of Object.values(env.references ?? {})) {
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
    const found = mayHoldActiveMarkup(page) ? findActiveRenderedHtml(page, budget) : null;
    if (found !== null) return `markdown renders to html with ${found} (${renderer.name})`;
  }
  return null;
}

/** What `findActiveMarkdown` charges for reading `text` with `renderers` before any of them runs, calibrated ns (the pages' parse5 reads are charged as they are read). */
export function markdownNanos(text: string, renderers: readonly MarkdownRenderer[] = markdownRenderers): number {
  return markdownNanosPerCall(renderers) + markdownNanosPerChar(renderers) * text.length;
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

function inspectInline(token: Token): string | null {
  const destination =
    token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
  if (destination === null) return null;
  const url = activeUrl(asAnyRendererReads(destination));
  return url === null ? null : `a markdown ${token.type === 'image' ? 'image' : 'link'} with ${url}`;
}
