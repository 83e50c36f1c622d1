// Script in markup and text, judged from the structure the consumer's parser builds: parse5 for HTML, the
// markdown renderers (and parse5 over the pages they render) for text and markdown, a strict namespace-aware XML
// parser for SVG and XML (and parse5 over XML, which lenient readers inline as HTML).
import { findActiveMarkdown } from '../markdown/active-markdown.ts';
import { WorkBudget } from '../work-budget.ts';
import { findActiveHtml } from './active-html.ts';
import { findActiveXml } from './active-xml.ts';
import { mayHoldActiveMarkup } from './markup-screen.ts';

/** The screen in front of the parsers, defined in markup-screen.ts, named here for its callers. */
export { mayHoldActiveMarkup, mayHoldActiveMarkupUtf8 } from './markup-screen.ts';

/** Markup flavours the scan knows; `markdown` is read by the markdown renderers only, `text` (prose that may hold stray HTML or markdown: metadata, XML read as text) both as HTML and as markdown. */
export type MarkupFlavour = 'html' | 'svg' | 'xml' | 'text' | 'markdown';

/** How text is read past the screen: as HTML, by the markdown renderers, or (`text`) both ways. */
export type TextFlavour = 'html' | 'text' | 'markdown';

/** What reading markup found: the first active construct and, for SVG and XML, why the XML is not well-formed (null: none). */
export interface MarkupFindings {
  active: string | null;
  malformed: string | null;
}

/** The first active construct in markup or text (script element, HTA, plugin element, `on*` handler, script or markup `data:` URL, DTD internal subset, XSLT, an SVG name off the allow-list), as a one-line message; null when none. */
export function findActiveMarkup(
  text: string,
  flavour: MarkupFlavour,
  budget: WorkBudget = WorkBudget.unlimited(),
): string | null {
  return readMarkup(text, flavour, budget).active;
}

/** `findActiveMarkup` with the XML well-formedness verdict besides (SVG and XML only); the parsers spend from the item's `budget`. */
export function readMarkup(
  text: string,
  flavour: MarkupFlavour,
  budget: WorkBudget = WorkBudget.unlimited(),
): MarkupFindings {
  if (flavour === 'svg' || flavour === 'xml') {
    budget.spend('xml', text.length);
    const xml = findActiveXml(text, flavour, budget);
    // the XML reading is what an image/svg+xml consumer builds; a document it rejects may still reach a
    // lenient reader (an HTML page inlining it, a sniffing browser), which reads the bytes as HTML
    if (xml.active === null && xml.malformed !== null && mayHoldActiveMarkup(text))
      xml.active = findActiveHtml(text, budget);
    return xml;
  }
  if (!mayHoldActiveMarkup(text)) return { active: null, malformed: null };
  return { active: parseMarkup(text, flavour, budget), malformed: null };
}

/** `findActiveMarkup` of HTML, XML or text held as UTF-8 bytes: `screen` is the screen's answer for them (`mayHoldActiveMarkupUtf8`, made once per body), and `text` decodes them only when the parsers must read them. */
export function findActiveMarkupUtf8(
  screen: () => boolean,
  flavour: TextFlavour,
  text: () => string,
  budget: WorkBudget = WorkBudget.unlimited(),
): string | null {
  return screen() ? parseMarkup(text(), flavour, budget) : null;
}

// HTML by the HTML parser, markdown by its renderers, other text both ways
function parseMarkup(text: string, flavour: TextFlavour, budget: WorkBudget): string | null {
  const html = flavour === 'markdown' ? null : findActiveHtml(text, budget);
  if (html !== null || flavour === 'html') return html;
  return findActiveMarkdown(text, budget);
}
