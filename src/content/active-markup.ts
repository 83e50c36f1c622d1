// Script in markup and text, judged from the structure the consumer's parser builds: parse5 for HTML (and for
// HTML a renderer may find in text or markdown), a CommonMark parser for markdown destinations, a strict
// namespace-aware XML parser for SVG and XML.
//
// The parsers cost far more than the bytes take to decode, so text passes a screen first: a test for what
// every active construct the parsers can report needs to be spelled in the text at all. A `<script`,
// `<object`, `<embed`, `<applet`, `<handler`, `<listener` or `<hta:` tag; an attribute name starting `on`
// with a value; `style`, `srcdoc` or `attributeName`; or a script or `data:` scheme, which the parsers decode
// from character references (only numeric ones, `&Tab;` and `&NewLine;` can put letters, tabs or newlines in
// it; no named reference spells a letter), backslash escapes (markdown) and tabs and newlines (dropped by
// the URL parser). Text that spells none of them has nothing for the parsers to find; the screen never
// decides that anything is active.
import { findActiveHtml } from './active-html.ts';
import { findActiveXml } from './active-xml.ts';
import { findActiveMarkdown } from './markdown-links.ts';

/** Markup flavours the scan knows; `text` is prose that may hold stray HTML or markdown (notes, README files). */
export type MarkupFlavour = 'html' | 'svg' | 'xml' | 'text';

/** What reading markup found: the first active construct and, for SVG and XML, why the XML is not well-formed (null: none). */
export interface MarkupFindings {
  active: string | null;
  malformed: string | null;
}

// every element the parsers report starts `<name`; every attribute they report has a value, so an `=`
const activeTag = /<(?:script|object|embed|applet|handler|listener|hta:|style)/i;
const activeAttribute = /on[^\s/>=]*\s*=|style|srcdoc|attributename/i;
const letterReference = /&#|&tab;|&newline;/i;

/** The screen in front of the HTML and markdown parsers: true when the text may hold something they report. Linear; native searches first. */
export function mayHoldActiveMarkup(text: string): boolean {
  if (text.includes('<') && activeTag.test(text)) return true;
  if (text.includes('=') && activeAttribute.test(text)) return true;
  if (text.includes('&') && letterReference.test(text)) return true;
  return schemeBefore(text, ':') || schemeBefore(text, '&') || schemeBefore(text, '\\');
}

// a `mark` (a scheme's `:`, the `&` of `&colon;`, markdown's `\:`) right after `script` or `data`
function schemeBefore(text: string, mark: string): boolean {
  for (let at = text.indexOf(mark); at !== -1; at = text.indexOf(mark, at + 1))
    if (spelledBefore(text, at, 'script') || spelledBefore(text, at, 'data')) return true;
  return false;
}

// the letters of `word` (lower-case) end at `at`, ASCII case-insensitive, with tabs and newlines anywhere
// between them (the URL parser drops those)
function spelledBefore(text: string, at: number, word: string): boolean {
  let i = at - 1;
  for (let k = word.length - 1; k >= 0; k--) {
    while (i >= 0 && isTabOrNewline(text.charCodeAt(i))) i--;
    if (i < 0 || (text.charCodeAt(i) | 0x20) !== word.charCodeAt(k)) return false;
    i--;
  }
  return true;
}

function isTabOrNewline(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d;
}

/** The first active construct in markup or text (script element, HTA, plugin element, `on*` handler, script or markup `data:` URL, DTD internal subset, XSLT, an SVG name off the allow-list), as a one-line message; null when none. */
export function findActiveMarkup(text: string, flavour: MarkupFlavour): string | null {
  return readMarkup(text, flavour).active;
}

/** `findActiveMarkup` with the XML well-formedness verdict besides (SVG and XML only). */
export function readMarkup(text: string, flavour: MarkupFlavour): MarkupFindings {
  if (flavour === 'svg' || flavour === 'xml') {
    const xml = findActiveXml(text, flavour);
    // the XML reading is what an image/svg+xml consumer builds; a document it rejects may still reach a
    // lenient reader (an HTML page inlining it, a sniffing browser), which reads the bytes as HTML
    if (xml.active === null && xml.malformed !== null && mayHoldActiveMarkup(text)) xml.active = findActiveHtml(text);
    return xml;
  }
  if (!mayHoldActiveMarkup(text)) return { active: null, malformed: null };
  const html = findActiveHtml(text);
  if (html !== null || flavour === 'html') return { active: html, malformed: null };
  return { active: findActiveMarkdown(text), malformed: null };
}
