// Browsers: HTML pages, SVG as a document and as an image. parse5 reads HTML as a browser does (tree and
// tokenizer start tags); saxes reads SVG and XML with namespaces and entities as an image/svg+xml document is read,
// and the same bytes through parse5 as a lenient reader inlining them. Text a sniffing host may show as HTML
// (anything not declared markdown) is read raw as HTML too.
import { activeAsHtml, parsesAsScript } from '../polyglot.ts';
import { findActiveMarkupUtf8, readMarkup } from '../svg-html/active-markup.ts';
import { isSourceCodeUri } from '../text/uri-extension.ts';
import type { WorkBudget } from '../work-budget.ts';
import type { BinaryReading, ConsumerFinding, ContentConsumer, TextBody } from './content-consumer.ts';
import { foundIn } from './content-consumer.ts';
import { shownAsNotebook } from './notebook-viewer.ts';

/** How a browser reads binary bodies: an image's metadata as HTML, the file as a script, the whole image as a page. */
const browserBinary = {
  // HTML in an image's metadata, as the image format reader found it
  metadata: (body) => foundIn('active', body.carried),
  // a header that opens a script comment (`GIF89a/*`) and script after the image's end marker
  script: (body, budget) =>
    foundIn(
      'active',
      parsesAsScript(body.bytes, budget) ? `the ${body.kind} is also a javascript program (polyglot)` : null,
    ),
  page: (body, budget) => foundIn('active', activeAsHtml(body.kind, body.bytes, budget)),
} as const satisfies Record<string, BinaryReading>;

/** Browsers: HTML, SVG as a document and SVG as an image. */
export const browserConsumer = {
  id: 'browser',
  optIn: false,
  coverage: [
    {
      consumer: 'browsers: HTML',
      reaches:
        'bytes whose markup root is html; any text read raw as HTML by a sniffing host (text declared other than markdown, not a source file declared text/plain); an image read whole as HTML by a sniffing host (pixel data, metadata of any format: handlers under names a browser runs)',
      judged:
        'parse5 tree and tokenizer start tags: script, plugins, handlers, script and markup `data:` urls, css, `srcdoc` and conditional comments (4 levels)',
      notCovered: 'script loaded from elsewhere by an allowed url (links are judged as links, not fetched)',
    },
    {
      consumer: 'browsers: SVG as a document',
      reaches: 'bytes whose markup root is svg, whatever the declared type',
      judged:
        'saxes (namespaces, entities): element and attribute allow-lists, DTD subsets, xml-stylesheet, `foreignObject` xhtml as a rendered page (meta refresh, frames, forms, base); the same bytes through parse5 as HTML',
      notCovered: 'nesting past 256 levels (withheld as too complex)',
    },
    {
      consumer: 'browsers: SVG as an image',
      reaches: 'an svg `data:` url in `<image href>`, `<feImage href>` or `<img src>`',
      judged:
        'nothing runs in image mode (script off, no loads), so the url is inert there; elsewhere it is a document',
      notCovered: 'markdown image syntax with an svg `data:` url (still denied)',
    },
  ],
  leftOut:
    'html, svg and xml bodies are no longer read for script, and text is no longer read raw as a sniffing host reads it',
  readsText: (body) => {
    if (body.kind === 'html' || body.kind === 'svg' || body.kind === 'xml') return true;
    // a browser shows text/plain as text; a host that sniffs reads raw HTML in anything not declared markdown
    if (body.kind === 'json') return body.declaredData !== 'json' && !shownAsNotebook(body);
    if (body.kind !== 'text') return false;
    return body.declaredKind !== 'markdown' && !sourceShownAsText(body);
  },
  judgeText: (body, budget) => judgeInBrowser(body, budget),
  binaryReadings: browserBinary,
} as const satisfies ContentConsumer;

/** True when a source file (by its uri's extension) is declared text/plain: its consumers show it as text. */
export function sourceShownAsText(body: TextBody): boolean {
  return body.declaredMime === 'text/plain' && isSourceCodeUri(body.uri);
}

function judgeInBrowser(body: TextBody, budget: WorkBudget): ConsumerFinding[] {
  const html = (): string | null => findActiveMarkupUtf8(body.mayHoldActiveMarkup, 'html', body.text, budget);
  if (body.kind === 'html') return found('active', html());
  if (body.kind === 'svg' || body.kind === 'xml') {
    const markup = readMarkup(body.text(), body.kind, budget);
    // XML and SVG also reach readers that never parse them as XML (an HTML page inlining them, a sniffing host),
    // which read comments, CDATA sections and processing instructions the HTML way
    const findings = found('active', markup.active ?? html());
    // an image/svg+xml reader stops at the first error; what a lenient reader makes of the rest is unknown
    if (body.kind === 'svg' && markup.malformed !== null)
      findings.push({ slot: 'uninterpretable', message: `svg is not well-formed xml: ${markup.malformed}` });
    return findings;
  }
  return found(body.kind === 'json' ? 'activeUnlessJson' : 'activeUnlessMarkdown', html());
}

function found(slot: ConsumerFinding['slot'], message: string | null): ConsumerFinding[] {
  return message === null ? [] : [{ slot, message }];
}
