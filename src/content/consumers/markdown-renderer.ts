// Markdown renderers: CommonMark, GFM, markdown-it and marked, each in the preset its users run, every page read by
// parse5 (markdown/active-markdown.ts). Text declared markdown, and text and JSON no data type was declared for,
// reach them; XML read as text does too.
import { markdownNanos } from '../markdown/active-markdown.ts';
import { markdownRenderers, renderWith } from '../markdown/markdown-renderers.ts';
import { findActiveMarkupUtf8 } from '../svg-html/active-markup.ts';
import { findCssImport } from '../svg-html/css-import.ts';
import { isSourceCodeUri } from '../text/uri-extension.ts';
import type { WorkBudget } from '../work-budget.ts';
import type { ConsumerFinding, ContentConsumer, TextBody } from './content-consumer.ts';
import { shownAsNotebook } from './notebook-viewer.ts';

/** The markdown renderers: markdown-it (commonmark and default presets), micromark with GFM, marked, commonmark.js. */
export const markdownConsumer: ContentConsumer = {
  id: 'markdown',
  optIn: false,
  coverage: [
    {
      consumer: 'markdown renderers: CommonMark, GFM, markdown-it, marked',
      reaches:
        'text declared markdown, or text/plain and undeclared text unless its uri names a source file (`.ts`, `.css`, `.py`, … are shown as text); json not declared a data type; xml',
      judged:
        "markdown-it (commonmark and default presets), micromark with GFM, marked, commonmark.js: every rendered page through parse5; destinations and reference definitions from markdown-it tokens; a css `@import` in a rendered page's `<style>` is withheld as `content.remote-load`",
      notCovered: 'build-time consumers (MDX, VitePress): opt-in entries of their own',
    },
  ],
  leftOut:
    'markdown links, images and raw html are no longer judged as rendered: text is read raw as HTML only (when the browser is in the profile), so `[x](javascript:…)` passes',
  readsText: (body) => {
    if (body.kind === 'xml') return true;
    if (body.kind === 'json') return body.declaredData === null && !shownAsNotebook(body);
    return body.kind === 'text' && body.declaredData === null && !sourceFile(body);
  },
  judgeText: (body, budget) => {
    const message = findActiveMarkupUtf8(body.mayHoldActiveMarkup, 'markdown', body.text, budget);
    if (message === null) return remoteLoads(body, budget);
    return [{ slot: body.kind === 'json' ? 'activeUnlessJson' : 'active', message }];
  },
};

// Raw html passes through: a `<style>` element's css `@import` or an off-origin `<link rel="stylesheet">` in a page a renderer makes is fetched by the browser
// that shows it (browser.ts withholds the same in an html page). Each rendered page is read, not the raw text, so a
// `<style>` shown in a code block stays text.
function remoteLoads(body: TextBody, budget: WorkBudget): ConsumerFinding[] {
  // the element needs a `<`: text without one is not decoded (issue 42: 8 MiB of prose took 2x a decode here)
  if (!body.mayHold(0x3c)) return [];
  const text = body.text();
  if (!/<(?:[a-z]+:)?(?:style|link)\b/i.test(text)) return [];
  budget.spendTime('markdown', markdownNanos(text));
  for (const renderer of markdownRenderers) {
    const found = findCssImport(renderWith(renderer, text), budget);
    if (found !== null) return [{ slot: 'remoteLoad', message: `markdown renders to html with ${found}` }];
  }
  return [];
}

// A source file by its uri (`.ts`, `.css`, `.py`, …) declared text/plain or not declared at all: editors, viewers and
// hosts show it as text, and no markdown renderer is handed it (a browser may still sniff an undeclared one as HTML,
// which the browser consumer judges)
function sourceFile(body: TextBody): boolean {
  return (body.declaredMime === null || body.declaredMime === 'text/plain') && isSourceCodeUri(body.uri);
}
