// Stylesheets a rendered markdown page loads from elsewhere by itself (a css `@import` in a `<style>`, an off-origin
// `<link rel="stylesheet">`): raw html passes through the renderers, and the browser that shows the page fetches
// them. Each page is read, not the raw text, so a `<style>` shown in a code block stays text. The pages are the ones
// `findActiveMarkdown` made when the screen let the text through to the renderers (`seePage`), made here only when
// it did not: a text is rendered once for both readings.
import { parse5NanosPerChar, parse5NanosPerParse } from '../parser-nanos.ts';
import { findCssImport } from '../svg-html/css-import.ts';
import type { WorkBudget } from '../work-budget.ts';
import { cutMarkdown, markdownNanos } from './active-markdown.ts';
import { type MarkdownRenderer, renderWith } from './markdown-renderers.ts';
import { stylesheetElement } from './markdown-parts.ts';

export { stylesheetElement } from './markdown-parts.ts';

/** The first stylesheet `page` (HTML, as a browser reads it) loads from elsewhere by itself, as a one-line message; null when none. Its parse5 read is charged to the budget's parser time before it starts. */
export function stylesheetLoad(page: string, budget: WorkBudget): string | null {
  // every load names a style (`<style>`, `rel="stylesheet"`, `xml-stylesheet`): a page without one is not parsed
  if (!/style/i.test(page)) return null;
  budget.spendTime('html', parse5NanosPerParse + parse5NanosPerChar * page.length);
  return findCssImport(page, budget);
}

/** The pages `renderers` make of the parts of `text` that name a stylesheet element (markdown-parts.ts), each distinct page once, charged before any renderer starts: for a text the screen kept from `findActiveMarkdown`'s renderers. */
export function renderedPages(text: string, renderers: readonly MarkdownRenderer[], budget: WorkBudget): string[] {
  const runs = cutMarkdown(text, budget, (part) => stylesheetElement.test(part));
  for (const run of runs) budget.spendTime('markdown', markdownNanos(run, renderers));
  return [...new Set(runs.flatMap((run) => renderers.map((renderer) => renderWith(renderer, run))))];
}

/** Collects the first stylesheet load of the pages it is handed (`see`, for `findActiveMarkdown`'s `seePage`): `found` once one loads, `seen` once any page came. */
export class PageLoads {
  found: string | null = null;
  seen = false;
  readonly see: (page: string) => void;

  constructor(budget: WorkBudget) {
    this.see = (page) => {
      this.seen = true;
      this.found ??= stylesheetLoad(page, budget);
    };
  }
}
