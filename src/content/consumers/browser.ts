// Browsers: HTML pages, SVG as a document and as an image. parse5 reads HTML as a browser does (tree and
// tokenizer start tags); saxes reads SVG and XML with namespaces and entities as an image/svg+xml document is read,
// and the same bytes through parse5 as a lenient reader inlining them. Text a browser may open as a page is read raw
// as HTML too: untyped text by the MIME Sniffing standard's HTML signatures, never text declared text/plain.
import { activeAsHtml, parsesAsScript, remoteLoadAsHtml } from '../polyglot.ts';
import { findActiveMarkupUtf8, readMarkup } from '../svg-html/active-markup.ts';
import { findCssImport } from '../svg-html/css-import.ts';
import {
  isMarkdownExtension,
  isPageExtension,
  isProgramSourceExtension,
  isSourceCodeExtension,
} from '../text/uri-extension.ts';
import type { WorkBudget } from '../work-budget.ts';
import type { BinaryReading, ConsumerFinding, ContentConsumer, TextBody } from './content-consumer.ts';
import { foundIn } from './content-consumer.ts';
import { opensAsPage, sniffedAsUnknown } from './html-signature.ts';
import { shownAsNotebook } from './notebook-viewer.ts';
import { shownAsTable } from './table-file.ts';

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
  // the whole image as a page: what runs, else a stylesheet it loads from elsewhere
  page: (body, budget) => {
    const active = activeAsHtml(body.kind, body.bytes, budget);
    if (active !== null) return foundIn('active', active);
    return foundIn('remoteLoad', remoteLoadAsHtml(body.kind, body.bytes, budget));
  },
} as const satisfies Record<string, BinaryReading>;

/** Browsers: HTML, SVG as a document and SVG as an image. */
export const browserConsumer = {
  id: 'browser',
  optIn: false,
  coverage: [
    {
      consumer: 'browsers: HTML',
      reaches:
        "bytes whose markup root is html; text read raw as HTML: untyped text (or `unknown/unknown`, `application/unknown`, `*/*`) and application/octet-stream that open with a tag after white space (every HTML signature of the MIME Sniffing standard §7.1, Chromium and Firefox, and any other `<` and a letter, `!`, `?` or `/`: octet-stream and unlisted tags are a margin, no browser sniffs them; octet-stream named `.md` is the markdown renderers' alone, and named as a source or template file (`.vue`, `.svelte`, `.hbs`, `.erb`, `.php`, `.ts`, …) is code); never text/plain by its bytes (text to every browser: whether a text/plain body that opens with a tag makes a page is the markdown renderers' to say, from the pages they make, so a `<script>` in a fence is code); a uri named `.html`/`.htm`/`.xhtml` whatever its declared type (judged by the page rules alone: no markdown renderer is handed it), text declared any other type but markdown, but for a table named `.csv`/`.tsv` (declared a table type, text/plain, octet-stream or nothing) whose bytes do not open with a tag: cells to a spreadsheet, shown as text or downloaded by a browser, and never sniffed as a page by its later rows; an image read whole as HTML by a sniffing host (pixel data, metadata of any format: a handler under a name a browser runs, Chromium's, Firefox's, Safari's or old Internet Explorer's, or any `on…` name of 8 characters or more; a numeric character reference only where it spells a script or `data:` scheme)",
      judged:
        "parse5 tree and tokenizer start tags: script, plugins, handlers, script and markup `data:` urls, css, `srcdoc` and conditional comments (4 levels); a page's forms, frames, refresh and `base` are its own (a manual's search form), withheld only on a page a markdown renderer makes, or where they take the page to another origin by itself (a meta refresh whose url, as the standard's refresh steps read it, or which a value those steps do not read, leaves the page's origin; a `base` whose url does); a stylesheet the browser fetches by itself, a css `@import` in a `<style>` element (html or svg), a `<link rel=\"stylesheet\">` or a css `xml-stylesheet` instruction whose url leaves the page's origin (html, svg, xhtml in svg), is withheld as `content.remote-load`",
      notCovered:
        'script loaded from elsewhere by an allowed url (links are judged as links, not fetched); a css `@import` in the raw html of a markdown page; hosts that sniff HTML past the start of a body (old Internet Explorer) or render any text as HTML: prose with markup further down (a how-to with a fenced `<script>`) is text to a browser and judged only by the markdown renderers; a host that saves a text/plain or octet-stream source or template body (`App.vue`, `list.hbs`, `index.php`) and opens the file in a browser, which shows it as the page its markup makes',
    },
    {
      consumer: 'browsers: XHTML pages',
      reaches:
        'a body declared `application/xhtml+xml`; a uri named `.xhtml`/`.xht` declared text/html, text/plain, application/octet-stream or nothing (a host saving it opens it by its name); an xml document (declared an xml type, or named `.xml` and declared nothing in particular) whose root is in the xhtml namespace (`<html>`, `<div>`, `<h:body>`: a browser renders it as html elements)',
      judged:
        "as a page to the type checks (declared `application/xhtml+xml` or `text/html`, admitted where html is: the same verdict as the body named `.html` or declared text/html, a fragment or prose as text); read for script by saxes as the browser's XML parser reads it (xhtml elements under any prefix or root: `<x:script>`; a page's own forms, frames, relative refresh and `base` are its own, as an html page's) and by parse5 as HTML",
      notCovered: "the browser's error page for a body that is no XML document (inert)",
    },
    {
      consumer: 'browsers: SVG as a document',
      reaches: 'bytes whose markup root is svg, whatever the declared type',
      judged:
        'saxes (namespaces, entities): element and attribute allow-lists, DTD subsets (denied unless they declare only entities naming a name or a uri, as Illustrator writes, read expanded), xml-stylesheet, `foreignObject` xhtml as a rendered page (meta refresh, frames, forms, base); the same bytes through parse5 as HTML',
      notCovered: 'nesting past 256 levels (withheld as too complex)',
    },
    {
      consumer: 'browsers: SVG as an image',
      reaches:
        'an svg `data:` url in `<image href>`, `<feImage href>` or `<img src>`, and a markdown image of one (`![](data:image/svg+xml…)`, inline or by a reference definition an image uses: every renderer draws an `<img>` or shows the text)',
      judged:
        'nothing runs in image mode (script off, no loads), so the url is inert there; elsewhere it is a document',
      notCovered:
        'the same url as a document: a link target, a reference definition no image uses, `<object>`, `<embed>`, `<iframe>`, a refresh (denied; Chromium refuses a top-level navigation to `data:`, a webview may not)',
    },
  ],
  leftOut:
    'html, svg and xml bodies are no longer read for script, and text is no longer read raw as a sniffing host reads it',
  readsText: (body) => {
    if (body.kind === 'html' || body.kind === 'xhtml' || body.kind === 'svg' || body.kind === 'xml') return true;
    if (body.kind === 'json') return body.declaredData !== 'json' && !shownAsNotebook(body);
    return body.kind === 'text' && readsTextAsPage(body);
  },
  judgeText: (body, budget) => judgeInBrowser(body, budget),
  binaryReadings: browserBinary,
} as const satisfies ContentConsumer;

// Text (no markup root by its own bytes) a browser opens as a page. Untyped text only when it opens with a tag
// (html-signature.ts: every browser's HTML signatures and more); text/plain and application/octet-stream, which no
// browser sniffs as HTML (the standard's text-or-binary rule; octet-stream is downloaded), under the same rule, a
// margin for a host that ignores the type: prose that shows markup further down is text either way. A file named `.html` is a page whatever it is
// declared, as a host that saves and opens it reads it; any other declared type but markdown is read raw, as a host
// that shows a body without regard to its type does.
function readsTextAsPage(body: TextBody): boolean {
  if (body.declaredKind === 'markdown') return false;
  // a file named as a table that does not open as a page is cells to every consumer (table-file.ts)
  if (shownAsTable(body)) return false;
  const plain = body.declaredMime !== null && shownAsText.has(body.declaredMime);
  // text/plain named as a markdown document (`README.md`) is markdown to every consumer that would show it (the
  // markdown renderers judge its raw html); no browser sniffs text/plain, and a host going by the name renders markdown
  if (plain && isMarkdownExtension(body.extension)) return false;
  // text/plain named as a source or template file (`App.vue`, `list.hbs`, `index.php`) is code to every consumer that
  // goes by the name: no browser sniffs text/plain, and a host going by the name shows code (`.html` stays a page,
  // `.xml` an XML document a browser renders)
  if (plain && isProgramSourceExtension(body.extension)) return false;
  if (isPageExtension(body.extension)) return true;
  // text/plain is text to every browser (the standard's text-or-binary rule never sniffs it as HTML); a host that
  // renders it renders it as markdown, and whether that makes a page is the markdown renderers' to say from the pages
  // they make, not from raw bytes (lead's design call, session 14): a README that opens with a tag and shows a
  // `<script>` in a fence is code to them, the same `<script>` outside a fence is denied by them. A data file's name
  // (`.json`, `.xml`), which no renderer is handed, keeps the margin below
  if (body.declaredMime === 'text/plain' && !isSourceCodeExtension(body.extension)) return false;
  if (plain || sniffedAsUnknown(body.declaredMime)) return opensAsPage(body.utf8);
  return true;
}

// Types no browser renders as a page: text/plain is shown as text (the standard's text-or-binary rule), and
// application/octet-stream is downloaded, never sniffed as HTML (Chromium sniffs it only for an extension package;
// the standard's unknown types are `unknown/unknown`, `application/unknown` and `*/*`). Both get the untyped body's
// rule, a margin: a body that opens with a tag is read as the page it looks like.
const shownAsText: ReadonlySet<string> = new Set(['text/plain', 'application/octet-stream']);

function judgeInBrowser(body: TextBody, budget: WorkBudget): ConsumerFinding[] {
  const findings = judgePage(body, budget);
  // a page with nothing active may still load a stylesheet from elsewhere by itself
  if (findings.length === 0 && body.kind !== 'json')
    findings.push(...found('remoteLoad', findCssImport(body.text(), budget)));
  return findings;
}

function judgePage(body: TextBody, budget: WorkBudget): ConsumerFinding[] {
  const html = (): string | null => findActiveMarkupUtf8(body.mayHoldActiveMarkup, 'html', body.text, budget);
  if (body.kind === 'svg' || body.kind === 'xml' || body.kind === 'xhtml' || (body.readByXml && body.kind === 'text')) {
    // what its type or name hands to an XML parser is read by one (an XHTML page as its name or type opens it, a text
    // one as its markup: `<x:script>` runs there); as XML, SVG and XHTML also reach readers that never parse them as
    // XML (an HTML page inlining them, a sniffing host, a text/html sending), which read comments, CDATA sections and
    // processing instructions the HTML way
    const markup = readMarkup(body.text(), body.kind === 'svg' ? 'svg' : 'xml', budget);
    const findings = found('active', markup.active ?? html());
    // an image/svg+xml reader stops at the first error; what a lenient reader makes of the rest is unknown
    if (body.kind === 'svg' && markup.malformed !== null)
      findings.push({ slot: 'uninterpretable', message: `svg is not well-formed xml: ${markup.malformed}` });
    return findings;
  }
  if (body.kind === 'html') return found('active', html());
  return found(body.kind === 'json' ? 'activeUnlessJson' : 'activeUnlessMarkdown', html());
}

function found(slot: ConsumerFinding['slot'], message: string | null): ConsumerFinding[] {
  return message === null ? [] : [{ slot, message }];
}
