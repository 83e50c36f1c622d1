// MDX (opt-in): a site that compiles markdown as MDX (`@mdx-js/mdx`, Docusaurus 3, Next.js) runs ESM
// `import`/`export` and `{…}` expressions when the page is built, and renders JSX as React elements in the
// browser. The body is read with the parser MDX is built on: micromark with micromark-extension-mdxjs (acorn for
// the JavaScript), into mdast with mdast-util-mdx. A body MDX cannot parse fails its build: nothing of it runs.
import { createRequire } from 'node:module';
import type * as FromMarkdown from 'mdast-util-from-markdown';
import type * as MdastMdx from 'mdast-util-mdx';
import type * as Mdxjs from 'micromark-extension-mdxjs';
import { quoteValue } from '../../decision/quote-value.ts';
import { normalizeCss } from '../svg-html/active-css.ts';
import { findActiveRenderedHtml } from '../svg-html/active-html.ts';
import { findCssImport } from '../svg-html/css-import.ts';
import { activeUrl, svgImageUrl } from '../svg-html/markup-url.ts';
import type { WorkBudget } from '../work-budget.ts';
import type { ConsumerFinding, ContentConsumer, TextBody } from './content-consumer.ts';

const load = createRequire(import.meta.url);

// text kinds a page of this consumer may sniff as: prose, or markup when the page opens with an element
const pageKinds: ReadonlySet<string> = new Set(['text', 'html', 'xhtml', 'xml', 'svg']);

/** Steps an MDX parse is charged per character (micromark's pass and acorn over the expressions), steps. */
export const mdxStepsPerChar = 8;

/** MDX nesting (elements, lists, quotes) walked; deeper fails closed. */
const maxMdxDepth = 64;

/** What one mdast node of an MDX tree holds, as far as the judge reads it. */
interface MdxNode {
  type: string;
  name?: string | null;
  url?: string;
  identifier?: string;
  value?: string;
  attributes?: MdxAttribute[];
  children?: MdxNode[];
  data?: { estree?: { body?: unknown[] } | null };
}

interface MdxAttribute {
  type: string;
  name?: string;
  value?: string | null | { type: string; value: string };
}

let parse: ((text: string) => MdxNode) | undefined;

function mdxParser(): (text: string) => MdxNode {
  if (parse === undefined) {
    const { fromMarkdown } = load('mdast-util-from-markdown') as typeof FromMarkdown;
    const { mdxjs } = load('micromark-extension-mdxjs') as typeof Mdxjs;
    const { mdxFromMarkdown } = load('mdast-util-mdx') as typeof MdastMdx;
    // the options remark-mdx passes: the acorn micromark-extension-mdxjs brings, ESM and expressions kept as estree
    parse = (text) =>
      fromMarkdown(text, { extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()] }) as unknown as MdxNode;
  }
  return parse;
}

/** MDX: ESM, expressions and JSX, with markdown links and images. */
export const mdxConsumer: ContentConsumer = {
  id: 'mdx',
  optIn: true,
  coverage: [
    {
      consumer: 'MDX (opt-in: `mdx`)',
      reaches:
        'a uri named `.mdx`, `.md` or `.markdown`, or text declared markdown (MDX sites compile `.md` as MDX too)',
      judged:
        'micromark with micromark-extension-mdxjs into mdast (mdast-util-mdx), as `@mdx-js/mdx` reads it: `import`/`export`, `{…}` expressions by their acorn program (comments and plain literals such as `{"1.2.3"}` are inert), JSX elements as the HTML React renders them (handlers, script, frames, `dangerouslySetInnerHTML`, attribute and spread expressions, a css `@import` in the text or literal children of a `<style>` element, a `<link rel="stylesheet">` off the site; React prop names such as `httpEquiv` read as the attributes React writes), link and image urls (an svg `data:` url in a markdown image, or in a definition only images use, is compiled to an `<img>`, where a browser runs it with script off: inert)',
      notCovered:
        'what the site maps a component name to (a `<Chart>` is judged by its props only); a body MDX cannot parse fails its build and is not denied for MDX',
    },
  ],
  leftOut: 'expressions, `import`/`export` and JSX run when an MDX site builds the page',
  // by its name or declared type, whatever its first bytes look like (a page may open with `<script>`)
  readsText: (body) =>
    pageKinds.has(body.kind) &&
    (body.declaredKind === 'markdown' ||
      body.extension === 'mdx' ||
      body.extension === 'md' ||
      body.extension === 'markdown'),
  judgeText: (body, budget) => judgeMdx(body, budget),
};

function judgeMdx(body: TextBody, budget: WorkBudget): ConsumerFinding[] {
  const text = body.text();
  budget.spend('mdx', mdxStepsPerChar * text.length);
  let tree: MdxNode;
  try {
    tree = mdxParser()(text);
  } catch {
    // the MDX compiler stops at the same error: the page is never built
    return [];
  }
  const message = activeNode(tree, 0, budget, referencesIn(tree, 0, budget));
  if (message !== null) return [{ slot: 'active', message: `mdx: ${message}` }];
  const load = styleImport(tree, 0, budget);
  return load === null ? [] : [{ slot: 'remoteLoad', message: `mdx: ${load}` }];
}

// React writes a `<style>` element's text children as its css, literal expressions included (`{"@import …"}`): the
// browser fetches a stylesheet an `@import` there names, as in an html page (browser.ts)
function styleImport(node: MdxNode, depth: number, budget: WorkBudget): string | null {
  if (depth > maxMdxDepth) return `nested deeper than ${maxMdxDepth} levels`;
  budget.spend('mdx', 1);
  if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name === 'style') {
    const css = textOf(node, depth, budget);
    if (/@import\b/i.test(normalizeCss(css))) return 'jsx `<style>` with a css `@import` (a browser fetches it)';
  }
  if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name === 'link') {
    const found = linkLoad(node, budget);
    if (found !== null) return found;
  }
  for (const child of node.children ?? []) {
    const found = styleImport(child, depth + 1, budget);
    if (found !== null) return found;
  }
  return null;
}

// the text React renders for a node's children: text nodes and the values of literal expressions, at any depth
function textOf(node: MdxNode, depth: number, budget: WorkBudget): string {
  if (depth > maxMdxDepth) return '';
  budget.spend('mdx', 1);
  if (node.type === 'text') return node.value ?? '';
  if (node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') return literalText(node.data?.estree);
  let text = '';
  for (const child of node.children ?? []) text += textOf(child, depth + 1, budget);
  return text;
}

// the strings an inert program's literals render as (a template without substitutions by its cooked text)
function literalText(program: { body?: unknown[] } | null | undefined): string {
  let text = '';
  for (const statement of program?.body ?? []) {
    const expression = isNode(statement) ? statement['expression'] : undefined;
    if (!isNode(expression)) continue;
    const value = expression['value'];
    if (expression['type'] === 'Literal' && ['string', 'number', 'boolean'].includes(typeof value))
      text += String(value);
    if (expression['type'] === 'TemplateLiteral' && Array.isArray(expression['quasis']))
      for (const quasi of expression['quasis'])
        if (isNode(quasi) && isNode(quasi['value']) && typeof quasi['value']['cooked'] === 'string')
          text += quasi['value']['cooked'];
  }
  return text;
}

/** The reference definitions a page's images use, and those its links use (mdast identifiers). */
interface References {
  images: Set<string>;
  links: Set<string>;
}

function referencesIn(
  node: MdxNode,
  depth: number,
  budget: WorkBudget,
  found: References = { images: new Set(), links: new Set() },
): References {
  if (depth > maxMdxDepth) return found;
  budget.spend('mdx', 1);
  if (node.type === 'imageReference') found.images.add(node.identifier ?? '');
  if (node.type === 'linkReference') found.links.add(node.identifier ?? '');
  for (const child of node.children ?? []) referencesIn(child, depth + 1, budget, found);
  return found;
}

// an image, or a reference definition only images use (one no image uses, or a link uses too, is a document's url)
function drawnOnly(node: MdxNode, references: References): boolean {
  if (node.type === 'image') return true;
  const id = node.identifier ?? '';
  return references.images.has(id) && !references.links.has(id);
}

function activeNode(node: MdxNode, depth: number, budget: WorkBudget, references: References): string | null {
  if (depth > maxMdxDepth) return `nested deeper than ${maxMdxDepth} levels`;
  budget.spend('mdx', 1);
  const own = activeOwn(node, budget, references);
  if (own !== null) return own;
  for (const child of node.children ?? []) {
    const found = activeNode(child, depth + 1, budget, references);
    if (found !== null) return found;
  }
  return null;
}

function activeOwn(node: MdxNode, budget: WorkBudget, references: References): string | null {
  switch (node.type) {
    case 'mdxjsEsm':
      return 'an `import`/`export` statement, which runs when the page is built';
    case 'mdxFlowExpression':
    case 'mdxTextExpression':
      // `{/* a comment */}` is how MDX writes comments, `{"1.2.3"}` how it writes a literal: neither runs anything
      return inertProgram(node.data?.estree) ? null : 'a `{…}` expression, which runs when the page is built';
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      return activeElement(node, budget);
    case 'link':
    case 'image':
    case 'definition': {
      // MDX compiles a markdown image to an `<img>`, which a browser runs an svg `data:` url in with script off and
      // nothing loaded (as every markdown renderer does, svg-data-modes.test.ts): inert there, a document elsewhere
      if (node.type !== 'link' && svgImageUrl('img', 'src', node.url ?? '') && drawnOnly(node, references)) return null;
      const url = activeUrl(node.url ?? '');
      return url === null ? null : `a markdown ${node.type} with ${url}`;
    }
    default:
      return null;
  }
}

// an expression's program as acorn read it: empty (a comment), or statements that are each one literal (a string,
// number, boolean or null; no regular expression, no template with a substitution): evaluating it runs no code
function inertProgram(program: { body?: unknown[] } | null | undefined): boolean {
  const body = program?.body;
  if (!Array.isArray(body)) return false;
  return body.every((statement) => {
    if (!isNode(statement) || statement['type'] !== 'ExpressionStatement') return false;
    const expression = statement['expression'];
    if (!isNode(expression)) return false;
    if (expression['type'] === 'TemplateLiteral')
      return Array.isArray(expression['expressions']) && expression['expressions'].length === 0;
    if (expression['type'] !== 'Literal' || 'regex' in expression || 'bigint' in expression) return false;
    const value = expression['value'];
    return value === null || ['string', 'number', 'boolean'].includes(typeof value);
  });
}

function isNode(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

// a lowercase JSX name is an HTML element React renders as it is; a component's string props are read as the
// attributes of an element too (a `href` prop ends on some element), never its expressions
function activeElement(node: MdxNode, budget: WorkBudget): string | null {
  const name = node.name ?? '';
  const intrinsic = /^[a-z][a-z0-9-]*$/.test(name);
  const attributes: string[] = [];
  for (const attribute of node.attributes ?? []) {
    if (attribute.type === 'mdxJsxExpressionAttribute')
      return `jsx ${quoteValue(`<${name}>`)} with a spread expression, which runs when the page is built`;
    const key = reactAttributeNames.get(attribute.name ?? '') ?? attribute.name ?? '';
    if (key === 'dangerouslySetInnerHTML') return `jsx ${quoteValue(`<${name}>`)} with \`dangerouslySetInnerHTML\``;
    const value = attribute.value;
    if (value !== null && typeof value === 'object')
      return `jsx ${quoteValue(`<${name}>`)} with an expression in ${quoteValue(key)}, which runs when the page is built`;
    if (!/^[A-Za-z_:][A-Za-z0-9_.:-]*$/.test(key)) continue;
    attributes.push(value === null || value === undefined ? key : `${key}="${escapeAttribute(value)}"`);
    if (typeof value === 'string' && !intrinsic) {
      const url = activeUrl(value);
      if (url !== null) return `jsx ${quoteValue(`<${name}>`)} with ${url} in ${quoteValue(key)}`;
    }
  }
  const tag = intrinsic ? name : 'span';
  const found = findActiveRenderedHtml(`<${tag} ${attributes.join(' ')}></${tag}>`, budget);
  return found === null ? null : `jsx ${quoteValue(`<${name === '' ? 'fragment' : name}>`)} renders ${found}`;
}

// React props written under another name in the html React renders (`httpEquiv` is `http-equiv`)
const reactAttributeNames: ReadonlyMap<string, string> = new Map([
  ['httpEquiv', 'http-equiv'],
  ['acceptCharset', 'accept-charset'],
  ['className', 'class'],
  ['htmlFor', 'for'],
  ['xlinkHref', 'xlink:href'],
]);

// a jsx `<link>` as the element React renders: a stylesheet from elsewhere is fetched by the browser (css-import.ts)
function linkLoad(node: MdxNode, budget: WorkBudget): string | null {
  const attributes: string[] = [];
  for (const attribute of node.attributes ?? [])
    if (attribute.type !== 'mdxJsxExpressionAttribute' && typeof attribute.value === 'string')
      attributes.push(`${attribute.name ?? ''}="${escapeAttribute(attribute.value)}"`);
  const found = findCssImport(`<link ${attributes.join(' ')}>`, budget);
  return found === null ? null : `jsx renders ${found}`;
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}
