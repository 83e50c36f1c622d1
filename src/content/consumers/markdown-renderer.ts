// Markdown renderers: CommonMark, GFM, markdown-it and marked, each in the preset its users run, every page read by
// parse5 (markdown/active-markdown.ts). Text declared markdown, and text and JSON no data type was declared for,
// reach them; XML read as text does too.
import { findActiveMarkupUtf8 } from '../svg-html/active-markup.ts';
import { isSourceCodeUri } from '../text/uri-extension.ts';
import type { ContentConsumer, TextBody } from './content-consumer.ts';
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
        'markdown-it (commonmark and default presets), micromark with GFM, marked, commonmark.js: every rendered page through parse5; destinations and reference definitions from markdown-it tokens',
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
    if (message === null) return [];
    return [{ slot: body.kind === 'json' ? 'activeUnlessJson' : 'active', message }];
  },
};

// A source file by its uri (`.ts`, `.css`, `.py`, …) declared text/plain or not declared at all: editors, viewers and
// hosts show it as text, and no markdown renderer is handed it (a browser may still sniff an undeclared one as HTML,
// which the browser consumer judges)
function sourceFile(body: TextBody): boolean {
  return (body.declaredMime === null || body.declaredMime === 'text/plain') && isSourceCodeUri(body.uri);
}
