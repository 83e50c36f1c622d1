// The parsers consumers use, loaded on first need: a hook event is one process start, and most items (images,
// plain prose) never need them, so the CLI's cold start does not pay for them. `require` of these ESM packages
// is synchronous on Node ≥ 20.19, which keeps the sniff synchronous.
import { createRequire } from 'node:module';
import type * as Acorn from 'acorn';
import type { default as MarkdownIt, Options as MarkdownOptions } from 'markdown-it';
import type * as Parse5 from 'parse5';
import type * as Saxes from 'saxes';

const load = createRequire(import.meta.url);

let parse5: typeof Parse5 | undefined;
let markdown: MarkdownIt | undefined;
let saxes: typeof Saxes | undefined;

/** Markdown nesting (block quotes, lists, emphasis) the gate reads; deeper input fails closed. */
export const maxMarkdownNesting = 32;
// markdown-it silently stops reading past its own limit; with it far above the gate's, every input it cuts
// short has tokens at the gate's limit first, so the cut is seen and fails closed
const parserNesting = 4 * maxMarkdownNesting;

/** parse5, the WHATWG HTML parser. */
export function html5(): typeof Parse5 {
  parse5 ??= load('parse5') as typeof Parse5;
  return parse5;
}

/** markdown-it in CommonMark mode, with destinations kept exactly as the parser reads them (no link validation, no percent-encoding). */
export function commonMark(): MarkdownIt {
  if (markdown === undefined) {
    const create = load('markdown-it') as (preset: 'commonmark', options: MarkdownOptions) => MarkdownIt;
    const md = create('commonmark', {});
    // the preset's own options carry `maxNesting` (20); the typings omit it
    (md.options as MarkdownOptions & { maxNesting: number }).maxNesting = parserNesting;
    // the renderer would drop `javascript:` links; other CommonMark renderers keep them, so the gate reads them all
    md.validateLink = () => true;
    md.normalizeLink = (url) => url;
    md.normalizeLinkText = (text) => text;
    markdown = md;
  }
  return markdown;
}

/** saxes, a strict namespace-aware XML parser. */
export function xmlParser(): typeof Saxes {
  saxes ??= load('saxes') as typeof Saxes;
  return saxes;
}

let acorn: typeof Acorn | undefined;

/** acorn, an ECMAScript parser. */
export function ecmaScript(): typeof Acorn {
  acorn ??= load('acorn') as typeof Acorn;
  return acorn;
}
