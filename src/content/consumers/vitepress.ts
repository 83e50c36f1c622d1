// VitePress (opt-in): each `.md` page is rendered by markdown-it (html and linkify on) with markdown-it-attrs, which
// VitePress enables by default (`# Title {onclick=…}` sets attributes), and the HTML becomes a Vue template: `{{ }}`
// interpolation and directives (`v-html`, `v-on`/`@…`, `v-bind`/`:…`) run in the browser, `<script setup>` when
// the page is built, and frontmatter `head` entries become elements of the page's head. Fenced code blocks are
// wrapped in `v-pre` (unless their language ends in `-vue`); inline code and indented code blocks are not.
import { createRequire } from 'node:module';
import type { default as MarkdownIt, Options as MarkdownOptions } from 'markdown-it';
import type { DefaultTreeAdapterMap } from 'parse5';
import { parse as parseYaml } from 'yaml';
import { quoteValue } from '../../decision/quote-value.ts';
import { html5 } from '../lazy-parsers.ts';
import { findActiveRenderedHtml } from '../svg-html/active-html.ts';
import { findCssImport } from '../svg-html/css-import.ts';
import type { WorkBudget } from '../work-budget.ts';
import type { ConsumerFinding, ContentConsumer, TextBody } from './content-consumer.ts';

const load = createRequire(import.meta.url);

// text kinds a page of this consumer may sniff as: prose, or markup when the page opens with an element
const pageKinds: ReadonlySet<string> = new Set(['text', 'html', 'xhtml', 'xml', 'svg']);

/** Steps a VitePress reading is charged per character (markdown-it with attrs, parse5 over the page), steps. */
export const vitepressStepsPerChar = 8;

// attributes Vue reads as template syntax: directives and their shorthands; `v-pre`, `v-once` and `v-cloak` hold no expression
// (`.name` binds a DOM property, `.innerHTML` included, as `:name.prop` does)
const directive = /^(?:v-|:|@|#|\.)/;
const inertDirectives: ReadonlySet<string> = new Set(['v-pre', 'v-once', 'v-cloak']);
const maxTemplateDepth = 256;
// native elements a dynamic component (`<component is="…">`, `is="vue:…"`) resolves to that run, load or leave
const activeNative: ReadonlySet<string> = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'meta',
  'link',
  'form',
  'portal',
]);

let vitepressMd: MarkdownIt | undefined;

function markdownIt(): MarkdownIt {
  if (vitepressMd === undefined) {
    const create = load('markdown-it') as (preset: 'default', options: MarkdownOptions) => MarkdownIt;
    // markdown-it-attrs is CommonJS typed against markdown-it's CommonJS typings; it is a plain (md) => void plugin
    const attrs = load('markdown-it-attrs') as (md: MarkdownIt) => void;
    // VitePress's createMarkdownRenderer: html and linkify on, markdown-it-attrs with its default delimiters
    const md = create('default', { html: true, linkify: true });
    useContainers(md);
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

type Container = (md: MarkdownIt, name: string, options: { render: RenderRule }) => void;
type RenderRule = NonNullable<MarkdownIt['renderer']['rules']['fence']>;

// VitePress's containerPlugin, with the markdown-it-container it bundles: `::: tip`, `info`, `warning`, `danger` and
// `details` blocks with a title rendered as inline markdown, `::: v-pre` (a `<div v-pre>`: Vue compiles nothing in
// it) and `::: raw`
function useContainers(md: MarkdownIt): void {
  const container = load('markdown-it-container') as Container;
  for (const [klass, title] of titledContainers)
    container(md, klass, {
      render: (tokens, index, _options, env: { references?: unknown }) => {
        const token = tokens[index];
        if (token === undefined) return '';
        const tag = klass === 'details' ? 'details' : 'div';
        if (token.nesting !== 1) return `</${tag}>\n`;
        const info = token.info.trim().slice(klass.length).trim();
        const heading = md.renderInline(info === '' ? title : info, { references: env.references });
        const attrs = md.renderer.renderAttrs(token);
        return klass === 'details'
          ? `<details class="${klass} custom-block"${attrs}><summary>${heading}</summary>\n`
          : `<div class="${klass} custom-block"${attrs}><p class="custom-block-title">${heading}</p>\n`;
      },
    });
  const plain =
    (open: string, close: string): RenderRule =>
    (tokens, index) =>
      tokens[index]?.nesting === 1 ? open : close;
  container(md, 'v-pre', { render: plain('<div v-pre>\n', '</div>\n') });
  container(md, 'raw', { render: plain('<div class="vp-raw">\n', '</div>\n') });
}

const titledContainers: readonly (readonly [string, string])[] = [
  ['tip', 'TIP'],
  ['info', 'INFO'],
  ['warning', 'WARNING'],
  ['danger', 'DANGER'],
  ['details', 'Details'],
];

/** VitePress: frontmatter `head`, markdown-it-attrs attributes, Vue interpolation and directives. */
export const vitepressConsumer: ContentConsumer = {
  id: 'vitepress',
  optIn: true,
  coverage: [
    {
      consumer: 'VitePress (opt-in: `vitepress`)',
      reaches: 'a uri named `.md` or `.markdown`, or text declared markdown',
      judged:
        'frontmatter as gray-matter reads it: a `---js`/`---javascript` block is evaluated at build (withheld), yaml `head` entries as the head elements they become (script, handlers, frames, forms, a meta refresh, `base`; a stylesheet from elsewhere as `content.remote-load`); markdown-it (html, linkify) with markdown-it-attrs and VitePress\'s containers (markdown-it-container: `::: tip` … titles, `::: v-pre` content left to Vue uncompiled unless it holds raw html, `::: raw`), as VitePress renders, through parse5 as a browser reads the page and as a Vue template: `{{ }}` outside `v-pre`, directives (`v-html`, `v-on`/`@`, `v-bind`/`:`, `.prop`, `#`), dynamic components resolving to `<script>`, frames and the like (`<component is>`, `is="vue:…"`), `<script setup>`',
      notCovered:
        "VitePress's includes (`<!--@include: …-->`) and code groups (`::: code-group`), whose content is judged as markdown-it reads it; components the theme registers are judged by their attributes only",
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
  const { language, frontmatter, content } = splitFrontmatter(text);
  if (language !== null && evaluatedLanguages.has(language.toLowerCase()))
    return [
      {
        slot: 'active',
        message: `vitepress: a ${quoteValue(`---${language}`)} frontmatter block, which gray-matter evaluates as javascript when the page is built`,
      },
    ];
  const head = frontmatter === null ? null : activeHead(frontmatter, budget);
  if (head !== null && head.slot === 'remoteLoad')
    return [{ slot: 'remoteLoad', message: `vitepress: ${head.message}` }];
  const message = head?.message ?? activePage(content, budget);
  return message === null ? [] : [{ slot: 'active', message: `vitepress: ${message}` }];
}

// gray-matter (VitePress's frontmatter reader, through @mdit-vue) picks its engine by the first line's text after
// `---`: `js` and `javascript` (any case) are handed to `eval`
const evaluatedLanguages: ReadonlySet<string> = new Set(['js', 'javascript']);

// gray-matter's reading: a first line `---` and a language name, the frontmatter up to the next line `---` (yaml
// unless the line names another language); a javascript block is evaluated whether or not it is closed
function splitFrontmatter(text: string): { language: string | null; frontmatter: string | null; content: string } {
  const open = /^---(?!-)([^\r\n]*)\r?\n/.exec(text);
  if (open === null) return { language: null, frontmatter: null, content: text };
  const language = (open[1] ?? '').trim();
  const close = /^---[ \t]*$/m.exec(text.slice(open[0].length));
  if (close === null) return { language, frontmatter: null, content: text };
  const end = open[0].length + close.index;
  const frontmatter = language === '' || /^ya?ml$/i.test(language) ? text.slice(open[0].length, end) : null;
  return { language, frontmatter, content: text.slice(end + close[0].length) };
}

// `head: [[tag, attrs, innerHTML?], …]` becomes `<tag attrs>innerHTML</tag>` in the page's head: judged as a page a
// renderer makes (frames, forms, a meta refresh and `base` are active there), a stylesheet from elsewhere a load
function activeHead(yaml: string, budget: WorkBudget): ConsumerFinding | null {
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
    if (!/^[a-z][a-z0-9-]*$/.test(tag))
      return { slot: 'active', message: 'a frontmatter `head` entry with an odd tag name' };
    const attrs = entry[1] !== null && typeof entry[1] === 'object' ? Object.entries(entry[1] as object) : [];
    const written = attrs.map(([key, value]) => `${key}="${escapeAttribute(String(value))}"`).join(' ');
    const inner = typeof entry[2] === 'string' ? entry[2] : '';
    const element = `<${tag} ${written}>${inner}</${tag}>`;
    const found = findActiveRenderedHtml(element, budget);
    if (found !== null) return { slot: 'active', message: `a frontmatter \`head\` entry with ${found}` };
    const load = findCssImport(element, budget);
    if (load !== null) return { slot: 'remoteLoad', message: `a frontmatter \`head\` entry with ${load}` };
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
  const blocks = md.parse(markdown, {});
  const inert = vPreContent(blocks);
  for (const [at, block] of blocks.entries()) {
    budget.spend('vitepress', block.content.length);
    if (inert.has(at)) continue;
    if (block.type.startsWith('container_') && block.nesting === 1) {
      // a container's title is rendered as inline markdown, whose source VitePress's html rules read too
      const found = activeTemplate(html5().parseFragment(block.info).childNodes, false, 0, budget);
      if (found !== null) return found;
    } else if (block.type === 'html_block') {
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

// the tokens inside `::: v-pre` blocks that hold no raw html: Vue compiles nothing of them. A block with raw html
// could close its `<div v-pre>` early, so its source is read as any other (the rendered page is read either way)
function vPreContent(blocks: readonly { type: string; nesting: number }[]): Set<number> {
  const inert = new Set<number>();
  for (let open = 0; open < blocks.length; open++) {
    if (blocks[open]?.type !== 'container_v-pre_open') continue;
    let depth = 0;
    let close = open;
    let html = false;
    for (; close < blocks.length; close++) {
      const type = blocks[close]?.type ?? '';
      if (type === 'container_v-pre_open') depth++;
      else if (type === 'container_v-pre_close' && --depth === 0) break;
      else if (type === 'html_block' || (type === 'inline' && hasInlineHtml(blocks[close]))) html = true;
    }
    if (!html) for (let at = open + 1; at < close; at++) inert.add(at);
    open = close;
  }
  return inert;
}

function hasInlineHtml(block: unknown): boolean {
  const children = (block as { children?: { type: string }[] | null }).children ?? [];
  return children.some((child) => child.type === 'html_inline');
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
      if (live !== undefined) return `a vue directive ${quoteValue(live.name)} on ${quoteValue(`<${node.tagName}>`)}`;
      const resolved = dynamicComponent(node);
      if (resolved !== null && activeNative.has(resolved))
        return `a dynamic component resolving to ${quoteValue(`<${resolved}>`)} on ${quoteValue(`<${node.tagName}>`)}`;
    }
    const children = node.tagName === 'template' && 'content' in node ? node.content.childNodes : node.childNodes;
    const found = activeTemplate(children, vPre, depth + 1, budget);
    if (found !== null) return found;
  }
  return null;
}

// the native element name Vue resolves a dynamic component to: `<component is="x">`, or `is="vue:x"` on any element
function dynamicComponent(node: DefaultTreeAdapterMap['element']): string | null {
  const is = node.attrs
    .find((a) => a.name === 'is')
    ?.value.trim()
    .toLowerCase();
  if (is === undefined) return null;
  if (is.startsWith('vue:')) return is.slice(4);
  return node.tagName === 'component' ? is : null;
}

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}
