// VitePress (opt-in): each `.md` page is rendered by markdown-it (html and linkify on) with markdown-it-attrs, which
// VitePress enables by default (`# Title {onclick=…}` sets attributes), and the HTML becomes a Vue template: `{{ }}`
// interpolation and directives (`v-html`, `v-on`/`@…`, `v-bind`/`:…`) run in the browser, `<script setup>` when
// the page is built, and frontmatter `head` entries become elements of the page's head. Fenced code blocks are
// wrapped in `v-pre` (unless their language ends in `-vue`); inline code and indented code blocks are not.
import { createRequire } from 'node:module';
import type { default as MarkdownIt, Options as MarkdownOptions } from 'markdown-it';
import type { DefaultTreeAdapterMap } from 'parse5';
import { parse as parseYaml } from 'yaml';
import { html5 } from '../lazy-parsers.ts';
import { findActiveHtml, findActiveRenderedHtml } from '../svg-html/active-html.ts';
import type { WorkBudget } from '../work-budget.ts';
import type { ConsumerFinding, ContentConsumer, TextBody } from './content-consumer.ts';

const load = createRequire(import.meta.url);

// text kinds a page of this consumer may sniff as: prose, or markup when the page opens with an element
const pageKinds: ReadonlySet<string> = new Set(['text', 'html', 'xml', 'svg']);

/** Steps a VitePress reading is charged per character (markdown-it with attrs, parse5 over the page), steps. */
export const vitepressStepsPerChar = 8;

// attributes Vue reads as template syntax: directives and their shorthands; `v-pre`, `v-once` and `v-cloak` hold no expression
const directive = /^(?:v-|:|@|#)/;
const inertDirectives: ReadonlySet<string> = new Set(['v-pre', 'v-once', 'v-cloak']);
const maxTemplateDepth = 256;

let vitepressMd: MarkdownIt | undefined;

function markdownIt(): MarkdownIt {
  if (vitepressMd === undefined) {
    const create = load('markdown-it') as (preset: 'default', options: MarkdownOptions) => MarkdownIt;
    // markdown-it-attrs is CommonJS typed against markdown-it's CommonJS typings; it is a plain (md) => void plugin
    const attrs = load('markdown-it-attrs') as (md: MarkdownIt) => void;
    // VitePress's createMarkdownRenderer: html and linkify on, markdown-it-attrs with its default delimiters
    const md = create('default', { html: true, linkify: true });
    md.use(attrs);
    const fence = md.renderer.rules.fence;
    md.renderer.rules.fence = (tokens, index, options, env, self) => {
      const html =
        fence === undefined ? self.renderToken(tokens, index, options) : fence(tokens, index, options, env, self);
      return /-vue$/.test(fenceLanguage(tokens[index]?.info ?? '')) ? html : html.replace(/^<pre/, '<pre v-pre');
    };
    vitepressMd = md;
  }
  return vitepressMd;
}

/** VitePress: frontmatter `head`, markdown-it-attrs attributes, Vue interpolation and directives. */
export const vitepressConsumer: ContentConsumer = {
  id: 'vitepress',
  optIn: true,
  coverage: [
    {
      consumer: 'VitePress (opt-in: `vitepress`)',
      reaches: 'a uri named `.md` or `.markdown`, or text declared markdown',
      judged:
        'frontmatter (yaml) `head` entries as the head elements they become; markdown-it (html, linkify) with markdown-it-attrs, as VitePress renders, through parse5 as a browser reads the page and as a Vue template: `{{ }}` outside `v-pre`, directives (`v-html`, `v-on`/`@`, `v-bind`/`:`, `#`), `<script setup>`',
      notCovered:
        "VitePress's own containers and includes (`::: …`, `<!--@include: …-->`), whose content is judged as markdown-it reads it; components the theme registers are judged by their attributes only",
    },
  ],
  leftOut:
    'Vue interpolation, directives, `{…}` attributes and frontmatter `head` scripts run when VitePress builds and serves the page',
  // by its name or declared type, whatever its first bytes look like (a page may open with `<script>`)
  readsText: (body) =>
    pageKinds.has(body.kind) &&
    (body.declaredKind === 'markdown' || body.extension === 'md' || body.extension === 'markdown'),
  judgeText: (body, budget) => judgeVitepress(body, budget),
};

function judgeVitepress(body: TextBody, budget: WorkBudget): ConsumerFinding[] {
  const text = body.text();
  budget.spend('vitepress', vitepressStepsPerChar * text.length);
  const { frontmatter, content } = splitFrontmatter(text);
  const message = (frontmatter === null ? null : activeHead(frontmatter, budget)) ?? activePage(content, budget);
  return message === null ? [] : [{ slot: 'active', message: `vitepress: ${message}` }];
}

// gray-matter's reading: a first line `---`, the yaml up to the next line `---`
function splitFrontmatter(text: string): { frontmatter: string | null; content: string } {
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (open === null) return { frontmatter: null, content: text };
  const close = /^---[ \t]*$/m.exec(text.slice(open[0].length));
  if (close === null) return { frontmatter: null, content: text };
  const end = open[0].length + close.index;
  return { frontmatter: text.slice(open[0].length, end), content: text.slice(end + close[0].length) };
}

// `head: [[tag, attrs, innerHTML?], …]` becomes `<tag attrs>innerHTML</tag>` in the page's head
function activeHead(yaml: string, budget: WorkBudget): string | null {
  let data: unknown;
  try {
    data = parseYaml(yaml, { maxAliasCount: 100 });
  } catch {
    // gray-matter throws on the same yaml: the page is not built
    return null;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const head: unknown = (data as Record<string, unknown>)['head'];
  if (!Array.isArray(head)) return null;
  for (const entry of head) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
    const tag = entry[0].toLowerCase();
    if (!/^[a-z][a-z0-9-]*$/.test(tag)) return `a frontmatter \`head\` entry with an odd tag name`;
    const attrs = entry[1] !== null && typeof entry[1] === 'object' ? Object.entries(entry[1] as object) : [];
    const written = attrs.map(([key, value]) => `${key}="${escapeAttribute(String(value))}"`).join(' ');
    const inner = typeof entry[2] === 'string' ? entry[2] : '';
    const found = findActiveHtml(`<${tag} ${written}>${inner}</${tag}>`, budget);
    if (found !== null) return `a frontmatter \`head\` entry with ${found}`;
  }
  return null;
}

function activePage(markdown: string, budget: WorkBudget): string | null {
  const md = markdownIt();
  const page = md.render(markdown);
  const html = findActiveRenderedHtml(page, budget);
  if (html !== null) return `the page renders to html with ${html}`;
  return activeTemplate(html5().parseFragment(page).childNodes, false, 0, budget) ?? activeSource(md, markdown, budget);
}

// VitePress replaces markdown-it's html rules with ones that take Vue attribute names (`@click`, `:href`, `#slot`)
// as html, which markdown-it's own rules escape as text: so the source of every inline run (its text and html) is
// read as a template too, and code that VitePress does not wrap in `v-pre` for `{{ }}`
function activeSource(md: MarkdownIt, markdown: string, budget: WorkBudget): string | null {
  for (const block of md.parse(markdown, {})) {
    budget.spend('vitepress', block.content.length);
    if (block.type === 'html_block') {
      const found = activeTemplate(html5().parseFragment(block.content).childNodes, false, 0, budget);
      if (found !== null) return found;
    } else if (block.type === 'code_block' || (block.type === 'fence' && /-vue$/.test(fenceLanguage(block.info)))) {
      if (block.content.includes('{{')) return 'a `{{ }}` interpolation in code vitepress does not wrap in `v-pre`';
    } else if (block.type === 'inline') {
      let source = '';
      for (const child of block.children ?? []) {
        if (child.type === 'code_inline') {
          if (child.content.includes('{{')) return 'a `{{ }}` interpolation in inline code';
          source += ' ';
        } else if (child.type === 'text' || child.type === 'html_inline') source += child.content;
      }
      const found = activeTemplate(html5().parseFragment(source).childNodes, false, 0, budget);
      if (found !== null) return found;
    }
  }
  return null;
}

function fenceLanguage(info: string): string {
  return info.trim().split(/\s+/)[0] ?? '';
}

type Node = DefaultTreeAdapterMap['childNode'];

function activeTemplate(nodes: readonly Node[], pre: boolean, depth: number, budget: WorkBudget): string | null {
  if (depth > maxTemplateDepth) return `template nested deeper than ${maxTemplateDepth} levels`;
  for (const node of nodes) {
    budget.spend('vitepress', 1);
    if (node.nodeName === '#text') {
      if (!pre && 'value' in node && node.value.includes('{{')) return 'a `{{ }}` interpolation in the vue template';
      continue;
    }
    if (!('tagName' in node)) continue;
    const vPre = pre || node.attrs.some((a) => a.name === 'v-pre');
    if (!vPre) {
      const live = node.attrs.find((a) => directive.test(a.name) && !inertDirectives.has(a.name));
      if (live !== undefined) return `a vue directive \`${live.name}\` on \`<${node.tagName}>\``;
    }
    const children = node.tagName === 'template' && 'content' in node ? node.content.childNodes : node.childNodes;
    const found = activeTemplate(children, vPre, depth + 1, budget);
    if (found !== null) return found;
  }
  return null;
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}
