// Markdown renderers: CommonMark, GFM, markdown-it and marked, each in the preset its users run, every page read by
// parse5 (markdown/active-markdown.ts). Text declared markdown, and text and JSON no data type was declared for,
// reach them; XML read as text does too, unless it is declared XML.
import { findActiveMarkdown, type PageRules } from '../markdown/active-markdown.ts';
import { markdownRenderers } from '../markdown/markdown-renderers.ts';
import { PageLoads, renderedPages, stylesheetElement } from '../markdown/rendered-loads.ts';
import { isMarkdownExtension, isPageExtension, isSourceCodeExtension } from '../text/uri-extension.ts';
import type { ContentConsumer, TextBody } from './content-consumer.ts';
import { shownAsNotebook } from './notebook-viewer.ts';
import { shownAsTable } from './table-file.ts';

/** The markdown renderers: markdown-it (commonmark and default presets), micromark with GFM, marked, commonmark.js. */
export const markdownConsumer: ContentConsumer = {
  id: 'markdown',
  optIn: false,
  coverage: [
    {
      consumer: 'markdown renderers: CommonMark, GFM, markdown-it, marked',
      reaches:
        'text declared markdown, or text/plain, octet-stream and undeclared text unless its uri names a source file (`.ts`, `.css`, `.py`, … are shown as text) or a table whose bytes do not open with a tag (`.csv`, `.tsv`: cells); json not declared a data type; xml not declared xml (`application/xml` and `text/xml` are documents to xml readers and browsers) unless its uri names a markdown document (`README.md`); an html page declared text/plain, markdown, octet-stream or nothing',
      judged:
        "markdown-it (commonmark and default presets), micromark with GFM, marked, commonmark.js: every rendered page through parse5 (frames, forms, a meta refresh and `base` count as active, none being in a page a renderer makes of ordinary markdown; of a body named as a page, `.html`, `.htm`, `.xhtml`, … not declared markdown, only what runs on a browser page); destinations and reference definitions from markdown-it tokens; a css `@import` in a rendered page's `<style>` is withheld as `content.remote-load`",
      notCovered:
        'build-time consumers (MDX, VitePress): opt-in entries of their own; what a page fetches without a click, as links in a body are not judged: a remote image, a `<link rel="prefetch">`, `"modulepreload"` or `"preload"` with an `as` to another origin (Chromium fetches each), `"preconnect"`, `"dns-prefetch"`, `"prerender"` (Chromium asks for no url)',
    },
  ],
  leftOut:
    'markdown links, images and raw html are no longer judged as rendered: text is read raw as HTML only (when the browser is in the profile), so `[x](javascript:…)` passes',
  readsText: (body) => {
    // text declared xml (`application/xml`, `text/xml`) is a document to xml readers and browsers: no markdown
    // renderer is handed one, unless its uri names a markdown document (`README.md`), which a host going by the name
    // renders as markdown whatever it is declared
    if (body.declaredKind === 'xml') return isMarkdownExtension(body.extension);
    if (body.kind === 'xml') return !sourceFile(body);
    // a page declared as text a host may render as markdown (text/plain, markdown, octet-stream, none) is rendered
    // as markdown there: its html blocks pass through, and the prose between them is markdown
    if (body.kind === 'html' || body.kind === 'xhtml') return pageRenderedAsMarkdown(body) && !sourceFile(body);
    if (body.kind === 'json') return body.declaredData === null && !sourceFile(body) && !shownAsNotebook(body);
    // a file named as a table that does not open as a page is cells: no host renders a `.csv` as markdown
    return body.kind === 'text' && body.declaredData === null && !sourceFile(body) && !shownAsTable(body);
  },
  judgeText: (body, budget) => {
    // a page that may load a stylesheet needs the element's name: only then are the pages read for loads too
    const loads = styled(body) ? new PageLoads(budget) : null;
    const message = body.mayHoldActiveMarkup()
      ? findActiveMarkdown(body.text(), budget, markdownRenderers, loads?.see, undefined, pageRulesOf(body))
      : null;
    if (message !== null) return [{ slot: body.kind === 'json' ? 'activeUnlessJson' : 'active', message }];
    if (loads === null) return [];
    // the pages the renderers made for the active reading, or made now when the screen kept the text from them
    if (!loads.seen) for (const page of renderedPages(body.text(), markdownRenderers, budget)) loads.see(page);
    return loads.found === null
      ? []
      : [{ slot: 'remoteLoad', message: `markdown renders to html with ${loads.found}` }];
  },
};

// Raw html passes through: a `<style>` element's css `@import` or an off-origin `<link rel="stylesheet">` in a page a
// renderer makes is fetched by the browser that shows it (browser.ts withholds the same in an html page). The element
// needs a `<`: text without one is not decoded (issue 42: 8 MiB of prose took 2x a decode here).
function styled(body: TextBody): boolean {
  return body.mayHold(0x3c) && stylesheetElement.test(body.text());
}

// A source file by its uri (`.ts`, `.css`, `.py`, …) declared text/plain, application/octet-stream or not declared at
// all: editors, viewers and hosts show it as text, and no markdown renderer is handed it (a browser may still sniff an
// undeclared one as HTML, which the browser consumer judges)
const shownAsText: ReadonlySet<string> = new Set(['text/plain', 'application/octet-stream']);
function sourceFile(body: TextBody): boolean {
  return (body.declaredMime === null || shownAsText.has(body.declaredMime)) && isSourceCodeExtension(body.extension);
}

// A page by its uri (`.html`, `.htm`, `.xhtml`, …) not declared markdown is a page, whose own markup holds forms,
// frames, a refresh or `base` as any page may (a libxslt manual's search `<form>`): its rendered pages are judged by a
// browser page's rules (lead's design call, session 14: a page is judged by the browser's page rules only); what runs
// on a page (script, handlers, plugins, a `javascript:` link made of its prose) is still found on every one of them
function pageRulesOf(body: TextBody): PageRules {
  return body.declaredKind !== 'markdown' && isPageExtension(body.extension) ? 'page' : 'rendered';
}

// the declared types under which a page reaches a markdown renderer: none, or a text type a host renders or shows
// as text (not a page type, which a browser renders, nor xml or a data type, which their readers parse)
const pageAsText: ReadonlySet<string> = new Set(['text', 'markdown', 'octet-stream']);
function pageRenderedAsMarkdown(body: TextBody): boolean {
  return body.declaredMime === null || (body.declaredKind !== null && pageAsText.has(body.declaredKind));
}
