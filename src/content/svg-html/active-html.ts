// Script in HTML, judged from the tree parse5 (the WHATWG HTML parser) builds: the elements, attribute names
// and attribute values a browser sees, character references decoded as the browser decodes them, foreign
// (SVG, MathML) content in its namespaces, template contents, and `srcdoc` documents parsed as documents of
// their own down to `maxNestedMarkup` levels; deeper nesting fails closed.
import type { DefaultTreeAdapterMap } from 'parse5';
import { findActiveCss } from './active-css.ts';
import { html5 } from '../lazy-parsers.ts';
import { activeAttributeUrl } from './markup-url.ts';

/** Levels of `srcdoc` documents inside `srcdoc` documents read; a deeper one is denied unread. */
export const maxNestedMarkup = 4;

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ChildNode = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const SVG_NS = 'http://www.w3.org/2000/svg';
const pluginElements: ReadonlySet<string> = new Set(['object', 'embed', 'applet']);
// SVG Tiny 1.2 `handler` and `listener` elements run script like `script` does
const svgScriptElements: ReadonlySet<string> = new Set(['handler', 'listener']);

/** The first active construct an HTML parser builds from the text (script, plugin or hta element, `on*` handler, script or markup `data:` URL, script in css), as a one-line message; null when none. */
export function findActiveHtml(text: string): string | null {
  return scanDocument(text, 0);
}

function scanDocument(text: string, depth: number): string | null {
  const document = html5().parse(text);
  const stack: ChildNode[] = [];
  pushChildren(stack, document);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.nodeName === '#comment') {
      // down-level-hidden conditional comments (`<!--[if IE]>…<![endif]-->`) are markup to the engines that read them
      const data = (node as DefaultTreeAdapterMap['commentNode']).data;
      if (/^\s*\[if\b/i.test(data) && data.includes('<')) {
        const inner = scanDocument(data, depth);
        if (inner !== null) return `a conditional comment holds ${inner}`;
      }
      continue;
    }
    if (!('tagName' in node)) continue;
    const found = inspectElement(node, depth);
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

function inspectElement(element: Element, depth: number): string | null {
  const name = element.tagName.toLowerCase();
  if (name === 'script') return 'a `<script>` element';
  // parse5 types the namespace as its own enum; compare the uri text
  const namespace: string = element.namespaceURI;
  if (namespace === HTML_NS) {
    if (pluginElements.has(name)) return 'a plugin element (`object`, `embed` or `applet`)';
    if (name === 'hta:application') return 'an hta application element';
  } else if (namespace === SVG_NS && svgScriptElements.has(name)) {
    return `an svg \`<${name}>\` element`;
  }
  for (const attribute of element.attrs) {
    const found = inspectAttribute(attribute.name.toLowerCase(), attribute.value, depth);
    if (found !== null) return found;
  }
  if (name === 'style') {
    const css = findActiveCss(textOf(element));
    if (css !== null) return `${css} in a \`<style>\` element`;
  }
  return null;
}

/** Why one attribute (lower-case name, decoded value) is active in HTML or SVG; null when it is not. */
export function inspectAttribute(name: string, value: string, depth: number): string | null {
  // an empty handler runs nothing
  if (name.length > 2 && name.startsWith('on') && value.trim() !== '') return `an event-handler attribute \`${name}\``;
  // SMIL animation can set an event-handler attribute: <set attributeName="onclick" to="…">
  if (name === 'attributename' && /^\s*on/i.test(value)) return 'an animation that sets an event-handler attribute';
  const url = activeAttributeUrl(name, value);
  if (url !== null) return `${url} in an attribute (after entity decoding)`;
  if (name === 'style') {
    const css = findActiveCss(value);
    if (css !== null) return `${css} in a \`style\` attribute`;
  }
  if (name === 'srcdoc' && value.includes('<')) {
    if (depth >= maxNestedMarkup) return `\`srcdoc\` documents nested deeper than ${maxNestedMarkup} levels`;
    const inner = scanDocument(value, depth + 1);
    if (inner !== null) return `a \`srcdoc\` document holds ${inner}`;
  }
  return null;
}

function textOf(element: Element): string {
  let text = '';
  for (const child of element.childNodes) if (child.nodeName === '#text') text += (child as { value: string }).value;
  return text;
}
