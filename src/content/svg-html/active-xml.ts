// Script in SVG and other XML, judged from what a strict namespace-aware XML parser (saxes) reads: element and
// attribute names resolved to their namespaces (a prefix is any name, `<x:script>` is a script element when
// `x` names the SVG namespace), character and entity references decoded. SVG elements and attributes must be
// on an allow-list; a DOCTYPE internal subset is denied (entities and attribute defaults rewrite the document
// after inspection) unless it declares only plain-text entities, which are read expanded (dtd-entities.ts); an
// `xml-stylesheet` instruction may only name CSS (XSLT generates script).
import type { SaxesAttributeNS, SaxesTagNS } from 'saxes';
import { findActiveCss } from './active-css.ts';
import { entityExpansionChars, maxEntityExpansionChars, plainTextEntities } from './dtd-entities.ts';
import { activeXhtmlElement, inspectAttribute } from './active-html.ts';
import { xmlParser } from '../lazy-parsers.ts';
import { activeUrl, svgImageUrl } from './markup-url.ts';
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
  const { SaxesParser } = xmlParser();
  budget.spendTime('xml', saxesNanosPerParse + saxesNanosPerChar * text.length);
  const parser = new SaxesParser({ xmlns: true });
  const findings: XmlFindings = { active: null, malformed: null };
  const found = (message: string): never => {
    findings.active = message;
    throw stop;
  };
  let styleDepth = 0;
  let depth = 0;
  let css = '';
  parser.on('error', (error) => {
    findings.malformed ??= error.message.split('\n', 1)[0] ?? 'not well-formed';
  });
  parser.on('doctype', (doctype) => {
    if (!doctype.includes('[')) return;
    // a subset of plain-text entities (Illustrator's namespace uris) is read expanded, as the browser reads it
    const entities = plainTextEntities(doctype);
    if (entities === null) found('a dtd internal subset can declare entities or attribute defaults');
    else {
      budget.spend('xml', text.length * entities.size);
      const added = entityExpansionChars(text, entities);
      if (added > maxEntityExpansionChars) found('dtd entities that expand to more than the document may hold');
      budget.spend('xml', added);
      for (const [name, value] of entities) parser.ENTITIES[name] = value;
    }
  });
  parser.on('processinginstruction', ({ target, body }) => {
    if (target.toLowerCase() !== 'xml-stylesheet') return;
    const message = inspectStylesheetInstruction(body);
    if (message !== null) found(message);
  });
  parser.on('opentag', (tag) => {
    if (!tag.isSelfClosing && ++depth > maxXmlDepth) throw new WorkExhausted('xml nesting');
    // saxes resolves the element's prefixes through every open element: depth × elements, charged as it happens
    budget.spend('xml', depth);
    budget.spendTime('xml nesting', saxesNanosPerElement + saxesNanosPerOpenElement * depth);
    const local = lowerCase(tag.local ?? tag.name);
    const message = inspectElement(tag, local, flavour, budget);
    if (message !== null) found(message);
    if (styleDepth > 0 || local === 'style') {
      // text is collected only inside a `<style>`: saxes builds no text anywhere it has no handler (a text handler
      // for the whole document was 60% of the read of an 8 MiB icon sheet), and reads its handler as each run starts
      if (styleDepth++ === 0) {
        parser.on('text', collect);
        parser.on('cdata', collect);
      }
    }
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) depth--;
    if (styleDepth === 0) return;
    styleDepth--;
    if (styleDepth === 0) {
      parser.off('text');
      parser.off('cdata');
      const active = findActiveCss(css);
      if (active !== null) found(`${active} in a \`<style>\` element`);
      css = '';
    }
  });
  const collect = (data: string): void => {
    if (styleDepth > 0) css += data;
  };
  try {
    parser.write(text).close();
    // an unclosed `<style>` is still a stylesheet to a lenient reader
    if (styleDepth > 0) {
      const active = findActiveCss(css);
      if (active !== null) found(`${active} in a \`<style>\` element`);
    }
  } catch (error) {
    if (error !== stop) throw error;
  }
  return findings;
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

function inspectElement(tag: SaxesTagNS, local: string, flavour: 'svg' | 'xml', budget: WorkBudget): string | null {
  const uri = tag.uri ?? '';
  if (local === 'script') return 'a `<script>` element';
  if (uri === XML_EVENTS_NS) return 'an xml events element';
  if (uri === XHTML_NS && pluginElements.has(local)) return `an xhtml \`<${local}>\` element`;
  // xhtml content (in a `foreignObject`) is rendered as a page: a meta refresh, frame, form or base acts there
  if (uri === XHTML_NS) {
    const attributes = Object.values(tag.attributes).map((a) => ({ name: a.local.toLowerCase(), value: a.value }));
    const found = activeXhtmlElement(local, attributes, budget);
    if (found !== null) return `xhtml content holds ${found}`;
  }
  const svg = uri === SVG_NS || (uri === '' && flavour === 'svg');
  if (svg && !svgElements.has(local)) {
    return local === 'handler' || local === 'listener'
      ? `an svg \`<${local}>\` element`
      : `an svg element \`<${local}>\` outside the allow-list`;
  }
  const attributes = tag.attributes;
  for (const key in attributes) {
    const attribute = attributes[key] as SaxesAttributeNS;
    const name = lowerCase(attribute.local);
    if (svg && svgImageUrl(local, name, attribute.value)) continue;
    const message = inspectXmlAttribute(attribute, name, svg);
    if (message !== null) return message;
  }
  return null;
}

// `local`: the attribute's local name, lower-cased
function inspectXmlAttribute(attribute: SaxesAttributeNS, local: string, svg: boolean): string | null {
  if (attribute.uri === XMLNS_NS || attribute.name === 'xmlns') return null;
  if (attribute.uri === XML_EVENTS_NS) return 'an xml events attribute';
  const found = inspectAttribute(local, attribute.value);
  if (found !== null) return found;
  if (svg && attribute.uri === '' && !svgAttributes.has(local) && !/^(?:data|aria)-/.test(local))
    return `an svg attribute \`${local}\` outside the allow-list`;
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
