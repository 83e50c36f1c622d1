// Script in markup and text, judged from the structure the consumer's parser builds: parse5 for HTML (and for
// HTML a renderer may find in text or markdown), a CommonMark parser for markdown destinations, a strict
// namespace-aware XML parser for SVG and XML. Cheap tests in front keep prose without markup off the parsers:
// HTML needs a `<` before a letter, `/`, `!` or `?`; a markdown link needs a `]` or an autolink's `<`.
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

const tagOpener = /<[a-z!/?]/i;

/** The first active construct in markup or text (script element, HTA, plugin element, `on*` handler, script or markup `data:` URL, DTD internal subset, XSLT, an SVG name off the allow-list), as a one-line message; null when none. */
export function findActiveMarkup(text: string, flavour: MarkupFlavour): string | null {
  return readMarkup(text, flavour).active;
}

/** `findActiveMarkup` with the XML well-formedness verdict besides (SVG and XML only). */
export function readMarkup(text: string, flavour: MarkupFlavour): MarkupFindings {
  if (flavour === 'svg' || flavour === 'xml') {
    const xml = findActiveXml(text, flavour);
    // a lenient reader (an HTML page inlining the SVG, a sniffing browser) reads the same bytes as HTML
    if (xml.active === null && tagOpener.test(text)) xml.active = findActiveHtml(text);
    return xml;
  }
  const hasTags = tagOpener.test(text);
  if (flavour === 'html') return { active: hasTags ? findActiveHtml(text) : null, malformed: null };
  const html = hasTags ? findActiveHtml(text) : null;
  if (html !== null) return { active: html, malformed: null };
  const mayLink = hasTags || text.includes(']');
  return { active: mayLink ? findActiveMarkdown(text) : null, malformed: null };
}
