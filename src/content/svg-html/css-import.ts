// A css `@import` in a `<style>` element: a browser fetches the stylesheet it names as it shows the page or the SVG
// document, a load off the page's origin the body makes by itself (and CSS from elsewhere can restyle the page or
// send its state out through selectors and urls). Read as a browser reads it: parse5's tree (SVG and prefixed
// `<x:style>` elements included, CDATA sections as text), the style text with comments dropped and escapes decoded.
import type { DefaultTreeAdapterMap } from 'parse5';
import { html5 } from '../lazy-parsers.ts';
import type { WorkBudget } from '../work-budget.ts';
import { normalizeCss } from './active-css.ts';

type Node = DefaultTreeAdapterMap['node'];

/** The first `@import` in a `<style>` element of `text` read as HTML, as a one-line message; null when none. */
export function findCssImport(text: string, budget: WorkBudget): string | null {
  // an at-keyword opens with a literal `@`, and a style element is named `style` in any case
  if (!text.includes('@') || !/style/i.test(text)) return null;
  budget.spend('html', text.length);
  const stack: Node[] = [html5().parse(text)];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === undefined) break;
    budget.spend('html', 1);
    if ('tagName' in node && (node.tagName === 'style' || node.tagName.endsWith(':style'))) {
      let css = '';
      for (const child of node.childNodes) if (child.nodeName === '#text' && 'value' in child) css += child.value;
      if (/@import\b/i.test(normalizeCss(css))) return 'a css `@import` in a `<style>` element (a browser fetches it)';
    }
    const children = 'tagName' in node && node.tagName === 'template' && 'content' in node ? node.content : node;
    if ('childNodes' in children) stack.push(...children.childNodes);
  }
  return null;
}
