// Script in SVG and other XML, judged from what a strict namespace-aware XML parser (saxes) reads: element and
// attribute names resolved to their namespaces (a prefix is any name, `<x:script>` is a script element when
// `x` names the SVG namespace), character and entity references decoded. SVG elements and attributes must be
// on an allow-list; a DOCTYPE internal subset is denied (entities and attribute defaults rewrite the document
// after inspection) unless it declares only plain-text entities, which are read expanded (dtd-entities.ts); an
// `xml-stylesheet` instruction may only name CSS (XSLT generates script).
import type { SaxesAttributeNS, SaxesParser, SaxesTagNS } from 'saxes';
import { quoteValue } from '../../decision/quote-value.ts';
import { findActiveCss } from './active-css.ts';
import { entityExpansionChars, maxEntityExpansionChars, plainTextEntities } from './dtd-entities.ts';
import { activeXhtmlElement, inspectAttribute, type MarkupScan } from './active-html.ts';
import { xmlParser } from '../lazy-parsers.ts';
import { activeUrl, svgImageAttribute, svgImageUrl } from './markup-url.ts';
import { svgAttributes, svgElements } from './svg-allow-list.ts';
import { xmlStylesheetAttributes } from './xml-stylesheet.ts';
import {
  saxesNanosPerChar,
  saxesNanosPerElement,
  saxesNanosPerOpenElement,
  saxesNanosPerParse,
} from '../parser-nanos.ts';
import { WorkBudget, WorkExhausted } from '../work-budget.ts';

/**
 * Deepest element nesting read, elements: libxml2's default limit (`xmlParserMaxDepth`), which the browsers' XML
 * readers share; saxes resolves each element's namespace prefixes by walking every open element, so deeper
 * nesting costs depth² and is withheld as too complex rather than walked.
 */
export const maxXmlDepth = 256;

/** What the XML reading found: the first active construct, and the first well-formedness error (null: none). */
export interface XmlFindings {
  active: string | null;
  malformed: string | null;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const XML_EVENTS_NS = 'http://www.w3.org/2001/xml-events';
const pluginElements: ReadonlySet<string> = new Set(['object', 'embed', 'applet']);

// thrown by a handler to stop the parser at the first finding
const stop = new Error('stop at the first finding');

/** Reads SVG (`svg`: elements without a namespace count as SVG) or other XML once and reports the first active construct and the first well-formedness error. */
export function findActiveXml(
  text: string,
  flavour: 'svg' | 'xml',
  budget: WorkBudget = WorkBudget.unlimited(),
): XmlFindings {
  budget.spendTime('xml', saxesNanosPerParse + saxesNanosPerChar * text.length);
  // a parser that reads nothing, kept for the process (see `readings`)
  keptParser ??= newParser();
  const parser = newParser();
  const reading = new XmlReading(text, flavour, budget, parser);
  readings.push(reading);
  try {
    parser.write(text).close();
    // an unclosed `<style>` is still a stylesheet to a lenient reader
    if (reading.styleDepth > 0) {
      const active = findActiveCss(reading.css);
      if (active !== null) reading.found(`${active} in a \`<style>\` element`);
    }
  } catch (error) {
    if (error !== stop) throw error;
  } finally {
    readings.pop();
  }
  return reading.findings;
}

/** One document's reading: what saxes's handlers see and find. */
class XmlReading {
  readonly findings: XmlFindings = { active: null, malformed: null };
  /** an attribute's `srcdoc` document is read on the item's budget */
  readonly scan: MarkupScan;
  /** open elements, and open elements inside a `<style>` */
  depth = 0;
  styleDepth = 0;
  /** the text of the open `<style>` */
  css = '';
  /** whether the root element is in the xhtml namespace (a page), set at the root; null before it */
  page: boolean | null = null;

  constructor(
    readonly text: string,
    readonly flavour: 'svg' | 'xml',
    readonly budget: WorkBudget,
    readonly parser: SaxesParser<{ xmlns: true }>,
  ) {
    this.scan = { depth: 0, budget, rendered: false };
  }

  found(message: string): never {
    this.findings.active = message;
    throw stop;
  }
}

// The documents being read, the innermost last; saxes's handlers are the functions below, the same for every
// document, which find their document here. V8 optimizes saxes for the shapes of its parser (a parser with these
// handlers) and drops that code when a garbage collection finds no parser of that shape left: with each document's
// parser gone after its read, a collection between two reads threw it away, and after a few V8 left saxes unoptimized,
// 2–3× slower for the rest of the process (an 8 MiB icon sheet: 0.3 s of CPU, then 0.8 s from its seventh read). One
// parser made as every one is and kept, never fed, keeps those shapes alive (and holds no document).
const readings: XmlReading[] = [];
let keptParser: SaxesParser<{ xmlns: true }> | undefined;

// a namespace-aware parser with this reading's handlers
function newParser(): SaxesParser<{ xmlns: true }> {
  const { SaxesParser } = xmlParser();
  const parser = new SaxesParser({ xmlns: true });
  parser.on('error', onError);
  parser.on('doctype', onDoctype);
  parser.on('processinginstruction', onProcessingInstruction);
  parser.on('opentag', onOpenTag);
  parser.on('closetag', onCloseTag);
  return parser;
}

function reading(): XmlReading {
  return readings[readings.length - 1] as XmlReading;
}

function onError(error: Error): void {
  const findings = reading().findings;
  findings.malformed ??= error.message.split('\n', 1)[0] ?? 'not well-formed';
}

function onDoctype(doctype: string): void {
  if (!doctype.includes('[')) return;
  const r: XmlReading = reading();
  // a subset of plain-text entities (Illustrator's namespace uris) is read expanded, as the browser reads it
  const entities = plainTextEntities(doctype);
  if (entities === null) r.found('a dtd internal subset can declare entities or attribute defaults');
  r.budget.spend('xml', r.text.length * entities.size);
  const added = entityExpansionChars(r.text, entities);
  if (added > maxEntityExpansionChars) r.found('dtd entities that expand to more than the document may hold');
  r.budget.spend('xml', added);
  for (const [name, value] of entities) r.parser.ENTITIES[name] = value;
}

function onProcessingInstruction({ target, body }: { target: string; body: string }): void {
  if (target.toLowerCase() !== 'xml-stylesheet') return;
  const message = inspectStylesheetInstruction(body);
  if (message !== null) reading().found(message);
}

function onOpenTag(tag: SaxesTagNS): void {
  const r: XmlReading = reading();
  if (!tag.isSelfClosing && ++r.depth > maxXmlDepth) throw new WorkExhausted('xml nesting');
  // saxes resolves the element's prefixes through every open element: depth × elements, charged as it happens
  r.budget.spend('xml', r.depth);
  r.budget.spendTime('xml nesting', saxesNanosPerElement + saxesNanosPerOpenElement * r.depth);
  const local = lowerCase(tag.local ?? tag.name);
  r.page ??= tag.uri === XHTML_NS;
  const message = inspectElement(tag, local, r.flavour, r.scan, r.page);
  if (message !== null) r.found(message);
  if (r.styleDepth > 0 || local === 'style') {
    // text is collected only inside a `<style>`: saxes builds no text anywhere it has no handler (a text handler
    // for the whole document was 60% of the read of an 8 MiB icon sheet), and reads its handler as each run starts
    if (r.styleDepth++ === 0) {
      r.parser.on('text', onStyleText);
      r.parser.on('cdata', onStyleText);
    }
  }
}

function onCloseTag(tag: SaxesTagNS): void {
  const r: XmlReading = reading();
  if (!tag.isSelfClosing) r.depth--;
  if (r.styleDepth === 0) return;
  r.styleDepth--;
  if (r.styleDepth === 0) {
    r.parser.off('text');
    r.parser.off('cdata');
    const active = findActiveCss(r.css);
    if (active !== null) r.found(`${active} in a \`<style>\` element`);
    r.css = '';
  }
}

function onStyleText(data: string): void {
  const r: XmlReading = reading();
  if (r.styleDepth > 0) r.css += data;
}

// Names lower-cased once each: an icon sheet repeats a few dozen element and attribute names hundreds of thousands of
// times, and lower-casing each anew (and the garbage of it) was a third of the gate's look at each element. The cache
// holds at most `cacheSizeInNames`; a name past that is lower-cased each time.
const lowerNames = new Map<string, string>();
const cacheSizeInNames = 4096;

function lowerCase(name: string): string {
  let lower = lowerNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (lowerNames.size < cacheSizeInNames) lowerNames.set(name, lower);
  }
  return lower;
}

/** What the look at an attribute needs to know of its local name, worked out once per name (an icon sheet's 350,000 attributes have a dozen names). */
interface AttributeName {
  /** the name, lower-cased */
  lower: string;
  /** on the svg allow-list (or a `data-`/`aria-` attribute) */
  allowed: boolean;
  /** `inspectAttribute` can find nothing but a url in its value (no handler, `style`, `srcdoc` or `attributeName`) */
  urlOnly: boolean;
}

const attributeNames = new Map<string, AttributeName>();

function attributeName(local: string): AttributeName {
  let known = attributeNames.get(local);
  if (known === undefined) {
    const lower = local.toLowerCase();
    known = {
      lower,
      allowed: svgAttributes.has(lower) || /^(?:data|aria)-/.test(lower),
      urlOnly: !lower.startsWith('on') && lower !== 'style' && lower !== 'srcdoc' && lower !== 'attributename',
    };
    if (attributeNames.size < cacheSizeInNames) attributeNames.set(local, known);
  }
  return known;
}

// `scan`: the item's budget for a `srcdoc` document an attribute holds (made once per document read)
// `page`: the document's root is in the xhtml namespace (an xhtml page, not xhtml inside an svg)
function inspectElement(
  tag: SaxesTagNS,
  local: string,
  flavour: 'svg' | 'xml',
  scan: MarkupScan,
  page: boolean,
): string | null {
  const uri = tag.uri ?? '';
  if (local === 'script') return 'a `<script>` element';
  if (uri === XML_EVENTS_NS) return 'an xml events element';
  if (uri === XHTML_NS && pluginElements.has(local)) return `an xhtml ${quoteValue(`<${local}>`)} element`;
  // xhtml content in an svg (a `foreignObject`) is rendered as a page inside it: a meta refresh, frame, form or base
  // acts there; an xhtml page's own (its root in the xhtml namespace) are the page's, judged by a browser page's rules
  if (uri === XHTML_NS) {
    const attributes = Object.values(tag.attributes).map((a) => ({ name: a.local.toLowerCase(), value: a.value }));
    const found = activeXhtmlElement(local, attributes, scan.budget, !page);
    if (found !== null) return `xhtml content holds ${found}`;
  }
  const svg = uri === SVG_NS || (uri === '' && flavour === 'svg');
  if (svg && !svgElements.has(local)) {
    return local === 'handler' || local === 'listener'
      ? `an svg ${quoteValue(`<${local}>`)} element`
      : `an svg element ${quoteValue(`<${local}>`)} outside the allow-list`;
  }
  // the attribute an svg image element loads its url from (`<image href>`), asked once per element
  const imageUrlIn = svg ? svgImageAttribute(local) : undefined;
  const attributes = tag.attributes;
  for (const key in attributes) {
    const attribute = attributes[key] as SaxesAttributeNS;
    const name = attributeName(attribute.local);
    if (name.lower === imageUrlIn && svgImageUrl(local, name.lower, attribute.value)) continue;
    const message = inspectXmlAttribute(attribute, name, svg, scan);
    if (message !== null) return message;
  }
  return null;
}

function inspectXmlAttribute(
  attribute: SaxesAttributeNS,
  name: AttributeName,
  svg: boolean,
  scan: MarkupScan,
): string | null {
  if (attribute.uri === XMLNS_NS || attribute.name === 'xmlns') return null;
  if (attribute.uri === XML_EVENTS_NS) return 'an xml events attribute';
  // most values hold no `:`, and most names no more than a url to look for
  if (!name.urlOnly || attribute.value.includes(':')) {
    const found = inspectAttribute(name.lower, attribute.value, scan);
    if (found !== null) return found;
  }
  if (svg && attribute.uri === '' && !name.allowed)
    return `an svg attribute ${quoteValue(name.lower)} outside the allow-list`;
  return null;
}

// an `xml-stylesheet` instruction may only name CSS: any other type (XSLT by any name, or none) transforms the
// document and can add script; a body whose pseudo-attributes do not parse is withheld the same way
function inspectStylesheetInstruction(body: string): string | null {
  const attributes = xmlStylesheetAttributes(body);
  if (attributes === null) return 'an `xml-stylesheet` instruction whose pseudo-attributes do not parse';
  if (attributes.get('type')?.trim().toLowerCase() !== 'text/css')
    return 'an `xml-stylesheet` instruction that is not css (xslt can generate script)';
  const href = attributes.get('href');
  const url = href === undefined ? null : activeUrl(href);
  return url === null ? null : `${url} in an \`xml-stylesheet\` instruction`;
}
