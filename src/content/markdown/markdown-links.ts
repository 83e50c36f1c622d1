// Link and image destinations in markdown, read by a CommonMark parser (markdown-it in CommonMark mode) exactly
// as a renderer reads them: backslash escapes and character references decoded, angle-bracket destinations,
// reference definitions (used or not), autolinks; then judged by the same URL rules as an HTML attribute. Raw
// HTML in markdown reaches the browser between escaped text, which is not how the raw text parses as HTML
// (`<a title="x> <script>` is one unfinished tag as HTML, but escaped text and a live `<script>` in markdown):
// when the markdown holds raw HTML, the rendered page is read by the HTML parser too.
import type Token from 'markdown-it/lib/token.mjs';
import { findActiveHtml } from '../svg-html/active-html.ts';
import { commonMark, maxMarkdownNesting } from '../lazy-parsers.ts';
import { activeUrl } from '../svg-html/markup-url.ts';

/** The first markdown link or image whose destination is active (a script scheme, a markup `data:` url), script in the page the markdown renders to, or markdown nested past the cap, as a one-line message; null when none. */
export function findActiveMarkdown(text: string): string | null {
  const md = commonMark();
  const env: { references?: Record<string, { href: string }> } = {};
  const tokens = md.parse(text, env);
  let rawHtml = false;
  for (const block of tokens) {
    if (block.level >= maxMarkdownNesting) return nestedTooDeep;
    if (block.type === 'html_block') rawHtml = true;
    if (block.children === null) continue;
    for (const inline of block.children) {
      if (block.level + inline.level >= maxMarkdownNesting) return nestedTooDeep;
      if (inline.type === 'html_inline') rawHtml = true;
      const found = inspectInline(inline);
      if (found !== null) return found;
    }
  }
  // a definition nobody uses renders nothing here, but another renderer or a later edit links it
  for (const reference of Object.values(env.references ?? {})) {
    const url = activeUrl(asAnyRendererReads(reference.href));
    if (url !== null) return `a markdown link reference definition with ${url}`;
  }
  if (!rawHtml) return null;
  const page = findActiveHtml(md.renderer.render(tokens, md.options, env));
  return page === null ? null : `markdown renders to html with ${page}`;
}

// white space any renderer may trim from a destination's ends: marked trims with `String.prototype.trim` (every
// Unicode space separator, U+FEFF, U+2028/2029), which CommonMark keeps as part of the destination; the zero-width
// characters and U+180E (once a space separator) are taken off too, in case a renderer still trims them
const rendererTrim = /^[\s\u180e\u200b-\u200d\u2060]+|[\s\u180e\u200b-\u200d\u2060]+$/g;

// a destination as the most lenient renderer hands it to the URL parser
function asAnyRendererReads(destination: string): string {
  return destination.replace(rendererTrim, '');
}

const nestedTooDeep = `markdown nested deeper than ${maxMarkdownNesting} levels`;

function inspectInline(token: Token): string | null {
  const destination =
    token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
  if (destination === null) return null;
  const url = activeUrl(asAnyRendererReads(destination));
  return url === null ? null : `a markdown ${token.type === 'image' ? 'image' : 'link'} with ${url}`;
}
