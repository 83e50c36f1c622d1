// A stylesheet a page or an SVG document loads from elsewhere by itself: a css `@import` in a `<style>` element, a
// `<link rel="stylesheet">` or a css `xml-stylesheet` instruction whose url leaves the page's origin. A browser
// fetches it as it shows the body, a load off the page's origin the body makes by itself (and CSS from elsewhere can
// restyle the page or send its state out through selectors and urls). Read as a browser reads it: parse5's tree
// (SVG, xhtml and prefixed `<x:style>`/`<x:link>` elements included, CDATA sections as text, processing instructions
// as the comments parse5 makes of them), the style text with comments dropped and escapes decoded, urls by WHATWG URL.
import type { DefaultTreeAdapterMap } from 'parse5';
import { quoteValue } from '../../decision/quote-value.ts';
import { html5 } from '../lazy-parsers.ts';
import type { WorkBudget } from '../work-budget.ts';
import { normalizeCss } from './active-css.ts';
import { xmlStylesheetAttributes } from './xml-stylesheet.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** The first stylesheet `text` read as HTML loads from elsewhere by itself (a `<style>` `@import`, an off-origin `<link rel="stylesheet">` or css `xml-stylesheet`), as a one-line message; null when none. */
export function findCssImport(text: string, budget: WorkBudget): string | null {
  // each names a style: `<style>`, `rel="stylesheet"`, `xml-stylesheet`, in any case
  if (!/style/i.test(text)) return null;
  const atKeyword = text.includes('@');
  budget.spend('html', text.length);
  const stack: Node[] = [html5().parse(text)];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    budget.spend('html', 1);
    const found = 'tagName' in node ? elementLoad(node, atKeyword) : commentLoad(node);
    if (found !== null) return found;
    const children = 'tagName' in node && node.tagName === 'template' && 'content' in node ? node.content : node;
    if ('childNodes' in children) stack.push(...children.childNodes);
  }
  return null;
}

function elementLoad(node: Element, atKeyword: boolean): string | null {
  const name = localName(node.tagName);
  if (name === 'style' && atKeyword) {
    let css = '';
    for (const child of node.childNodes) if (child.nodeName === '#text' && 'value' in child) css += child.value;
    if (/@import\b/i.test(normalizeCss(css))) return 'a css `@import` in a `<style>` element (a browser fetches it)';
  }
  if (name === 'link') {
    const rel = attribute(node, 'rel');
    const href = attribute(node, 'href');
    if (rel !== null && href !== null && hasToken(rel, 'stylesheet') && offOrigin(href))
      return `a \`<link rel="stylesheet">\` to ${quoteValue(href.trim())} (a browser fetches it)`;
  }
  return null;
}

// parse5 reads a processing instruction as a comment holding `?target …?`
function commentLoad(node: Node): string | null {
  if (node.nodeName !== '#comment' || !('data' in node)) return null;
  const data = node.data;
  if (!data.startsWith('?xml-stylesheet')) return null;
  const rest = data.slice('?xml-stylesheet'.length);
  if (rest !== '' && !/^[ \t\r\n]/.test(rest)) return null;
  const attributes = xmlStylesheetAttributes(rest.endsWith('?') ? rest.slice(0, -1) : rest);
  const href = attributes?.get('href');
  // a body whose instruction does not parse, or names xslt, is withheld as active by the svg reader (active-xml.ts)
  if (href === undefined || !offOrigin(href)) return null;
  return `a css \`xml-stylesheet\` instruction naming ${quoteValue(href.trim())} (a browser fetches it)`;
}

function localName(tagName: string): string {
  const colon = tagName.lastIndexOf(':');
  return (colon === -1 ? tagName : tagName.slice(colon + 1)).toLowerCase();
}

function attribute(node: Element, name: string): string | null {
  for (const a of node.attrs) if (a.name.toLowerCase() === name && a.prefix === undefined) return a.value;
  return null;
}

// a space-separated token list (`rel`), ASCII case-insensitive
function hasToken(list: string, token: string): boolean {
  return list
    .toLowerCase()
    .split(/[ \t\n\f\r]+/)
    .includes(token);
}

const page = 'https://page.invalid/dir/page.html';

// a url the browser resolves to another origin than the page's own (a scheme, `//host`, a `data:` sheet that may
// import more); a relative path stays on the page's origin, and a url the parser refuses loads nothing
function offOrigin(href: string): boolean {
  try {
    return new URL(href, page).origin !== new URL(page).origin;
  } catch {
    return false;
  }
}
