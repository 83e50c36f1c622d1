// Script in HTML, judged from the tree parse5 (the WHATWG HTML parser) builds: the elements, attribute names
// and attribute values a browser sees, character references decoded as the browser decodes them, foreign
// (SVG, MathML) content in its namespaces, template contents, and `srcdoc` documents parsed as documents of
// their own down to `maxNestedMarkup` levels, as are down-level-hidden conditional comments; deeper nesting fails
// closed. Every parse is charged its measured time per character and the open elements it walks at each tag.
import type { DefaultTreeAdapterMap } from 'parse5';
import { parseHtmlSeeingTags } from '../lazy-parsers.ts';
import { parse5NanosPerChar, parse5NanosPerOpenElement, parse5NanosPerParse } from '../parser-nanos.ts';
import { quoteValue } from '../../decision/quote-value.ts';
import { runsAsHandler } from '../browser-handlers.ts';
import { WorkBudget } from '../work-budget.ts';
import { findActiveCss } from './active-css.ts';
import { leavesPage, refreshLeavesPage } from './leaves-page.ts';
import { activeAttributeUrl, svgImageUrl } from './markup-url.ts';

/** Levels of `srcdoc` documents (and of conditional comments) inside one another read; a deeper one is denied unread. */
export const maxNestedMarkup = 4;

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ChildNode = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';
const pluginElements: ReadonlySet<string> = new Set(['object', 'embed', 'applet']);
// what a plugin element loads: an `object` or `embed` naming none of these loads nothing (no plugin runs without
// data; browsers show its fallback content), as in `#<Object>` of a changelog that a markdown renderer passes on as
// raw html. Chromium takes an `object`'s url from a `<param>` (`src`, `movie`, `code`, `url`) when it has no `data`,
// so a `param` with a value counts as a plugin element itself; `applet` always counts
const pluginLoads: Readonly<Record<string, ReadonlySet<string>>> = {
  object: new Set(['data', 'classid', 'codebase', 'archive']),
  embed: new Set(['src', 'code']),
};
// SVG Tiny 1.2 `handler` and `listener` elements run script like `script` does
const svgScriptElements: ReadonlySet<string> = new Set(['handler', 'listener']);

/** The first active construct an HTML parser builds from the text (script, plugin or hta element, `on*` handler, script or markup `data:` URL, script in css, a meta refresh or `base` to another origin), as a one-line message; null when none. */
export function findActiveHtml(text: string, budget: WorkBudget = WorkBudget.unlimited()): string | null {
  return scanDocument(text, { depth: 0, budget, rendered: false });
}

/** `findActiveHtml` of a page a markdown renderer produced, where frames, forms, a meta refresh and `base` count as active too (none is in a page a renderer makes of ordinary markdown). */
export function findActiveRenderedHtml(html: string, budget: WorkBudget = WorkBudget.unlimited()): string | null {
  return scanDocument(html, { depth: 0, budget, rendered: true });
}

/**
 * Why an XHTML element in an SVG or XML document is active, as a browser renders it (`foreignObject` content):
 * script, plugins, handlers and script urls as in any page, and frames, forms, a meta refresh and `base` as in a
 * rendered page (`rendered` false: an xhtml page's own element, judged by a browser page's rules); null when it is not.
 */
export function activeXhtmlElement(
  name: string,
  attrs: readonly { name: string; value: string }[],
  budget: WorkBudget = WorkBudget.unlimited(),
  rendered = true,
): string | null {
  return inspectTag(name, HTML_NS, attrs, { depth: 0, budget, rendered });
}

/** `findActiveHtml` of bytes a sniffing browser reads as HTML though they are something else (an image's pixels and metadata, read as windows-1252): a handler counts only under a name a browser runs (browser-handlers.ts), as binary data spells `on…=` by chance. */
export function findActiveSniffedHtml(text: string, budget: WorkBudget = WorkBudget.unlimited()): string | null {
  return scanDocument(text, { depth: 0, budget, rendered: false, eventNamesOnly: true });
}

/** Where a document is read: how deep in `srcdoc` documents and conditional comments, the budget its parses spend, and whether a markdown renderer made it. */
export interface MarkupScan {
  /** `srcdoc` documents and conditional comments this document is inside */
  depth: number;
  budget: WorkBudget;
  /** a page a markdown renderer made: frames, forms, refresh and `base` are active */
  rendered: boolean;
  /** only a name a browser runs names a handler (bytes that are not text, read as HTML) */
  eventNamesOnly?: boolean;
}

function scanDocument(text: string, scan: MarkupScan): string | null {
  scan.budget.spendTime('html', parse5NanosPerParse + parse5NanosPerChar * text.length);
  const { document, startTag } = parseSeeingStartTags(text, scan);
  if (startTag !== null) return startTag;
  const stack: ChildNode[] = [];
  pushChildren(stack, document);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.nodeName === '#comment') {
      // down-level-hidden conditional comments (`<!--[if IE]>…<![endif]-->`) are markup to the engines that read
      // them; one inside another is read one level deeper, so a chain of them costs at most `maxNestedMarkup` parses
      const data = (node as DefaultTreeAdapterMap['commentNode']).data;
      if (/^\s*\[if\b/i.test(data) && data.includes('<')) {
        if (scan.depth >= maxNestedMarkup) return `conditional comments nested deeper than ${maxNestedMarkup} levels`;
        const inner = scanDocument(data, { ...scan, depth: scan.depth + 1 });
        if (inner !== null) return `a conditional comment holds ${inner}`;
      }
      continue;
    }
    if (!('tagName' in node)) continue;
    const found = inspectElement(node, scan) ?? inspectStyleText(node);
    if (found !== null) return found;
    pushChildren(stack, node);
    if (node.tagName === 'template' && 'content' in node) pushChildren(stack, node.content);
  }
  return null;
}

function pushChildren(stack: ChildNode[], parent: ParentNode): void {
  const children = parent.childNodes;
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i];
    if (child !== undefined) stack.push(child);
  }
}

// elements a page rendered from markdown never needs and that act on their own: frames load other documents,
// forms submit, `base` redirects every relative link
const renderedActiveElements: ReadonlyMap<string, string> = new Map([
  ['iframe', 'a frame (`iframe`)'],
  ['frame', 'a frame (`frame`)'],
  ['frameset', 'a frameset'],
  ['form', 'a form'],
  ['base', 'a `base` element'],
]);

// The tree a browser builds is not always the tree parse5 builds: Chromium's customizable `<select>` (2025) keeps
// `img`, `svg`, `a`, `button`… inside a `<select>` where parse5 8 follows the old in-select insertion mode and drops
// them. So every start tag the tokenizer emits is inspected as an HTML element as well, before any tree builder
// decides to keep it; the first finding stops nothing (the parse still builds the tree the walk reads).
function parseSeeingStartTags(
  text: string,
  scan: MarkupScan,
): { document: DefaultTreeAdapterMap['document']; startTag: string | null } {
  let startTag: string | null = null;
  const document = parseHtmlSeeingTags(text, (token, start, open) => {
    if (start) startTag ??= inspectTag(token.tagName, HTML_NS, token.attrs, scan);
    // the tree builder's work on a tag grows with the open elements it looks through (an end tag in svg or
    // math content walks the stack for its match): depth × elements is charged as it happens
    scan.budget.spend('html', open);
    scan.budget.spendTime('html nesting', parse5NanosPerOpenElement * open);
  });
  return { document, startTag };
}

function inspectElement(element: Element, scan: MarkupScan): string | null {
  // parse5 types the namespace as its own enum; compare the uri text
  return inspectTag(element.tagName, element.namespaceURI, element.attrs, scan);
}

function inspectTag(
  tagName: string,
  namespace: string,
  attrs: readonly { name: string; value: string }[],
  scan: MarkupScan,
): string | null {
  const name = tagName.toLowerCase();
  if (name === 'script') return 'a `<script>` element';
  if (namespace === HTML_NS) {
    if (pluginElements.has(name) && loadsPlugin(name, attrs)) return 'a plugin element (`object`, `embed` or `applet`)';
    if (name === 'param' && attrs.some((a) => a.name.toLowerCase() === 'value' && a.value.trim() !== ''))
      return 'a plugin parameter (`param` with a value)';
    if (name === 'hta:application') return 'an hta application element';
    if (scan.rendered) {
      const rendered = renderedActiveElements.get(name);
      if (rendered !== undefined) return rendered;
      if (name === 'meta' && attrs.some((a) => a.name === 'http-equiv' && /^\s*refresh\s*$/i.test(a.value)))
        return 'a meta refresh';
    }
  } else if (namespace === SVG_NS && svgScriptElements.has(name)) {
    return `an svg ${quoteValue(`<${name}>`)} element`;
  }
  for (const attribute of attrs) {
    const attributeName = attribute.name.toLowerCase();
    // parse5 names `xlink:href` by its qualified name in foreign content
    const local = attributeName === 'xlink:href' ? 'href' : attributeName;
    if (svgImageUrl(name, local, attribute.value)) continue;
    const found = inspectAttribute(attributeName, attribute.value, scan);
    if (found !== null) return found;
  }
  // a browser page's refresh, frames, forms and `base` are its own; one that takes the page to another origin by
  // itself is not (a refresh off the page, a `base` that sends its relative urls elsewhere)
  return namespace === HTML_NS && !scan.rendered ? leavingElement(name, attrs) : null;
}

// a meta refresh or a `base` that takes the page to another origin by itself, as a message; null otherwise
function leavingElement(name: string, attrs: readonly { name: string; value: string }[]): string | null {
  if (name === 'meta' && attrs.some((a) => a.name === 'http-equiv' && /^\s*refresh\s*$/i.test(a.value))) {
    const content = attrs.find((a) => a.name === 'content');
    return content !== undefined && refreshLeavesPage(content.value) ? 'a meta refresh to another origin' : null;
  }
  if (name === 'base') {
    const href = attrs.find((a) => a.name === 'href');
    return href !== undefined && leavesPage(href.value) ? 'a `base` whose url is another origin' : null;
  }
  return null;
}

// true when a plugin element names something to load (an `applet` always)
function loadsPlugin(name: string, attrs: readonly { name: string; value: string }[]): boolean {
  const loads = pluginLoads[name];
  return loads === undefined || attrs.some((a) => loads.has(a.name.toLowerCase()));
}

/** Why one attribute (lower-case name, decoded value) is active in HTML or SVG; null when it is not. `scan` says how deep in `srcdoc` documents it is and what the parsers may spend. */
export function inspectAttribute(
  name: string,
  value: string,
  scan: MarkupScan = { depth: 0, budget: WorkBudget.unlimited(), rendered: false },
): string | null {
  // an empty handler runs nothing; past the names a browser runs, any `on…` name is a margin for handlers to come,
  // but not one with a `:` (a prefixed name such as `on:href`, an xlink attribute under the prefix `on`): every
  // handler a browser has is `on` and letters, and none is namespaced
  const handler =
    scan.eventNamesOnly === true
      ? runsAsHandler(name)
      : name.length > 2 && name.startsWith('on') && !name.includes(':');
  if (handler && value.trim() !== '') return `an event-handler attribute ${quoteValue(name)}`;
  // SMIL animation can set an event-handler attribute: <set attributeName="onclick" to="…">
  if (name === 'attributename' && /^\s*on/i.test(value)) return 'an animation that sets an event-handler attribute';
  const url = activeAttributeUrl(name, value);
  if (url !== null) return `${url} in an attribute (after entity decoding)`;
  if (name === 'style') {
    const css = findActiveCss(value);
    if (css !== null) return `${css} in a \`style\` attribute`;
  }
  if (name === 'srcdoc' && value.includes('<')) {
    if (scan.depth >= maxNestedMarkup) return `\`srcdoc\` documents nested deeper than ${maxNestedMarkup} levels`;
    const inner = scanDocument(value, { ...scan, depth: scan.depth + 1 });
    if (inner !== null) return `a \`srcdoc\` document holds ${inner}`;
  }
  return null;
}

function inspectStyleText(element: Element): string | null {
  if (element.tagName.toLowerCase() !== 'style') return null;
  const css = findActiveCss(textOf(element));
  return css === null ? null : `${css} in a \`<style>\` element`;
}

function textOf(element: Element): string {
  let text = '';
  for (const child of element.childNodes) if (child.nodeName === '#text') text += (child as { value: string }).value;
  return text;
}
