// The markdown renderers hosts render with, loaded on first need, each with the options its users run it with
// (the table below, with where each setting was taken from): markdown-it's \`commonmark\` preset and its \`default\`
// preset (VitePress, VuePress, VS Code: tables and strikethrough on), each with raw HTML on and its own nesting
// limit; micromark with the whole GFM bundle (autolinks, footnotes, strikethrough, tables, task lists, the tag
// filter); marked with its GFM defaults; commonmark.js, the reference implementation. Every renderer reads every
// markdown body: their readings differ at the edges (precedence, definitions, what ends a table cell), so skipping
// one by a character heuristic is unsound. \`require\` of these ESM packages is synchronous on Node >= 20.19, which
// keeps the sniff synchronous. Besides, markdown-it in CommonMark mode with link validation off is the gate's own
// token reader (destinations and reference definitions as the most lenient renderer keeps them).
import { createRequire } from 'node:module';
import type { default as MarkdownIt, Options as MarkdownOptions } from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type * as Marked from 'marked';
import type * as Micromark from 'micromark';
import type * as Footnote from 'micromark-extension-gfm-footnote';
import type * as CommonmarkJs from 'commonmark';
import type * as Autolink from 'micromark-extension-gfm-autolink-literal';
import type * as Strikethrough from 'micromark-extension-gfm-strikethrough';
import type * as Table from 'micromark-extension-gfm-table';
import type * as Tagfilter from 'micromark-extension-gfm-tagfilter';
import type * as TaskList from 'micromark-extension-gfm-task-list-item';
import { WorkBudget } from '../work-budget.ts';
import { htmlBlocksPage } from './html-blocks-page.ts';
import { keepShapes, shapeSpecimen } from './kept-shapes.ts';

const load = createRequire(import.meta.url);

/** Markdown nesting (block quotes, lists, emphasis) the gate reads; deeper input fails closed. */
export const maxMarkdownNesting = 32;
// markdown-it silently stops reading past its own limit; with it far above the gate's, every input it cuts
// short has tokens at the gate's limit first, so the cut is seen and fails closed
const parserNesting = 4 * maxMarkdownNesting;

/** What markdown-it's parse carries for the gate: the item's budget (spent by link-label scans) and the link reference definitions it read. */
export interface MarkdownEnv {
  budget: WorkBudget;
  references?: Record<string, { href: string }>;
}

let markdownIt: MarkdownIt | undefined;

/** markdown-it in CommonMark mode with raw HTML, destinations kept exactly as the parser reads them (no link validation, no percent-encoding); its link-label scans spend from `env.budget`. */
export function commonMark(): MarkdownIt {
  if (markdownIt === undefined) {
    const create = load('markdown-it') as (preset: 'commonmark', options: MarkdownOptions) => MarkdownIt;
    const md = create('commonmark', { html: true });
    // the preset's own options carry `maxNesting` (20); the typings omit it
    (md.options as MarkdownOptions & { maxNesting: number }).maxNesting = parserNesting;
    // the default filter drops `javascript:` links; other renderers keep them, so the gate reads them all
    md.validateLink = () => true;
    md.normalizeLink = (url) => url;
    md.normalizeLinkText = (text) => text;
    // A label scan runs from a `[` to its `]` or to the end of the paragraph; a run of unclosed `![` rescans
    // the paragraph once per bracket (quadratic). Each scan is charged what it read, so such a run exhausts
    // the item's budget after work linear in the item's size.
    const scan = md.helpers.parseLinkLabel;
    md.helpers.parseLinkLabel = (state: StateInline, start: number, disableNested?: boolean): number => {
      const end = scan(state, start, disableNested);
      (state.env as MarkdownEnv).budget.spend('markdown', (end === -1 ? state.posMax : end) - start + 1);
      return end;
    };
    markdownIt = md;
    keepMarkdownItShapes(md, { budget: WorkBudget.unlimited() });
  }
  return markdownIt;
}

// one parse of the specimen and one of each state markdown-it makes per parse, kept (kept-shapes.ts)
function keepMarkdownItShapes(md: MarkdownIt, env: object): void {
  const tokens = md.parse(shapeSpecimen, env);
  keepShapes(
    tokens,
    new md.core.State(shapeSpecimen, md, env),
    new md.block.State(shapeSpecimen, md, env, []),
    new md.inline.State(shapeSpecimen, md, env, []),
    WorkBudget.unlimited(),
  );
}

type MicromarkOptions = NonNullable<Parameters<typeof Micromark.micromark>[1]>;

function micromarkGfm(): (text: string) => string {
  const autolink = load('micromark-extension-gfm-autolink-literal') as typeof Autolink;
  const footnote = load('micromark-extension-gfm-footnote') as typeof Footnote;
  const strikethrough = load('micromark-extension-gfm-strikethrough') as typeof Strikethrough;
  const table = load('micromark-extension-gfm-table') as typeof Table;
  const tagfilter = load('micromark-extension-gfm-tagfilter') as typeof Tagfilter;
  const taskList = load('micromark-extension-gfm-task-list-item') as typeof TaskList;
  const render = (load('micromark') as typeof Micromark).micromark;
  // the options of micromark-extension-gfm's \`gfm()\` and \`gfmHtml()\` bundles, with raw HTML and every protocol kept
  const options: MicromarkOptions = {
    allowDangerousHtml: true,
    allowDangerousProtocol: true,
    extensions: [
      autolink.gfmAutolinkLiteral(),
      footnote.gfmFootnote(),
      strikethrough.gfmStrikethrough(),
      table.gfmTable(),
      taskList.gfmTaskListItem(),
    ],
    htmlExtensions: [
      autolink.gfmAutolinkLiteralHtml(),
      footnote.gfmFootnoteHtml(),
      strikethrough.gfmStrikethroughHtml(),
      table.gfmTableHtml(),
      tagfilter.gfmTagfilterHtml(),
      taskList.gfmTaskListItemHtml(),
    ],
  };
  // a text of html blocks only is written as micromark writes it, without micromark (html-blocks-page.ts)
  return (text) => htmlBlocksPage(text) ?? render(text, options);
}

function markdownItPreset(preset: 'commonmark' | 'default'): (text: string) => string {
  const create = load('markdown-it') as (preset: string, options: MarkdownOptions) => MarkdownIt;
  // the preset's own options (nesting limit 20 for \`commonmark\`, 100 for \`default\`; link validation on) and html
  const md = create(preset, { html: true });
  keepMarkdownItShapes(md, {});
  return (text) => md.render(text);
}

function markedGfm(): (text: string) => string {
  const marked = new (load('marked') as typeof Marked).Marked();
  // a lexer and a parser as `parse` makes them, on options as it copies them, kept (kept-shapes.ts)
  const options = { ...marked.defaults, async: false };
  const lexer = new marked.Lexer(options);
  const tokens = lexer.lex(shapeSpecimen);
  const parser = new marked.Parser(options);
  parser.parse(tokens);
  keepShapes(lexer, tokens, parser);
  return (text) => marked.parse(text, { async: false });
}

function commonmarkJs(): (text: string) => string {
  const { Parser, HtmlRenderer } = load('commonmark') as typeof CommonmarkJs;
  const parser = new Parser();
  const renderer = new HtmlRenderer();
  return (text) => renderer.render(parser.parse(text));
}

/** A markdown renderer as its users run it: its name in findings, how it is made, and where its settings come from. */
export interface MarkdownRenderer {
  readonly name: string;
  readonly make: () => (text: string) => string;
  /** the settings that change what is live (preset, nesting limit, \`html\`, \`linkify\`), and their sources */
  readonly settings: string;
}

/** micromark with the GFM extensions, by its name in findings: the renderer that writes a text of html blocks only without running (html-blocks-page.ts). */
export const micromarkGfmName = 'micromark gfm';

/** Every renderer the gate asks, with the settings their users run them with. */
export const markdownRenderers: readonly MarkdownRenderer[] = [
  {
    name: 'markdown-it commonmark',
    make: () => markdownItPreset('commonmark'),
    settings:
      'preset `commonmark`, html on, maxNesting 20 (markdown-it lib/presets/commonmark.mjs); linkify off: it only adds http(s), ftp and mailto links',
  },
  {
    name: 'markdown-it default',
    make: () => markdownItPreset('default'),
    settings:
      'preset `default` (tables, strikethrough), html on, maxNesting 100 (markdown-it lib/presets/default.mjs; VitePress and VuePress render with html: true)',
  },
  {
    name: micromarkGfmName,
    make: micromarkGfm,
    settings:
      'micromark-extension-gfm bundle: autolink literal, footnote, strikethrough, table, tag filter, task list item; allowDangerousHtml and allowDangerousProtocol on (GitHub renders raw html through its tag filter)',
  },
  {
    name: 'marked',
    make: markedGfm,
    settings: 'marked defaults: gfm on, breaks off, raw html kept (marked docs, "Options")',
  },
  {
    name: 'commonmark.js',
    make: commonmarkJs,
    settings: 'commonmark.js HtmlRenderer defaults: safe off, raw html kept (the CommonMark reference implementation)',
  },
];

// the renderers notebook viewers are built on: JupyterLab, Jupyter Notebook and nbviewer's classic page render
// markdown cells and outputs with marked, VS Code's notebooks with markdown-it (its default preset, html on); nbconvert's
// mistune and GitHub's cmark-gfm read CommonMark as its reference implementation does (mistune passes raw HTML
// through as it stands)
const notebookViewerNames: ReadonlySet<string> = new Set(['markdown-it default', 'marked', 'commonmark.js']);

/** The renderers notebook viewers render markdown cells and outputs with: marked (JupyterLab, Jupyter Notebook), markdown-it's default preset (VS Code), commonmark.js for the CommonMark readers (nbconvert's mistune, GitHub's cmark-gfm). */
export const notebookViewerRenderers: readonly MarkdownRenderer[] = markdownRenderers.filter((r) =>
  notebookViewerNames.has(r.name),
);

const made = new Map<string, (text: string) => string>();

/** The HTML page \`renderer\` makes of \`text\`; the caller charges the item's budget the renderers' time and pairing work before any of them runs (findActiveMarkdown). */
export function renderWith(renderer: MarkdownRenderer, text: string): string {
  let render = made.get(renderer.name);
  if (render === undefined) {
    render = renderer.make();
    made.set(renderer.name, render);
  }
  return render(text);
}
