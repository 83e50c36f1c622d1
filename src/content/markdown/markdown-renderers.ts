// The markdown renderers hosts render with, loaded on first need, each with the options hosts use: raw HTML
// allowed (as GitHub and chat UIs render it) and no link filtering, so the gate sees every link any of them may
// emit. markdown-it in CommonMark mode, micromark with the GFM extensions (tables, autolinks, strikethrough, task
// lists, the tag filter that escapes `<textarea>`, `<title>`, `<plaintext>` and the like), and marked. GFM's
// footnote extension is left out: its label resolution is quadratic in a run of `]` (60 KB: 30 s), and a footnote
// renders only a `#fragment` link and the same flow content a definition holds, which is read either way. `require` of these ESM packages is
// synchronous on Node ≥ 20.19, which keeps the sniff synchronous.
import { createRequire } from 'node:module';
import type { default as MarkdownIt, Options as MarkdownOptions } from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type * as Marked from 'marked';
import type * as Micromark from 'micromark';
import type * as Autolink from 'micromark-extension-gfm-autolink-literal';
import type * as Strikethrough from 'micromark-extension-gfm-strikethrough';
import type * as Table from 'micromark-extension-gfm-table';
import type * as Tagfilter from 'micromark-extension-gfm-tagfilter';
import type * as TaskList from 'micromark-extension-gfm-task-list-item';
import type { WorkBudget } from '../work-budget.ts';

const load = createRequire(import.meta.url);

/** Markdown nesting (block quotes, lists, emphasis) the gate reads; deeper input fails closed. */
export const maxMarkdownNesting = 32;
// markdown-it silently stops reading past its own limit; with it far above the gate's, every input it cuts
// short has tokens at the gate's limit first, so the cut is seen and fails closed
const parserNesting = 4 * maxMarkdownNesting;

/** Steps a renderer is charged per character it renders (its own linear pass), steps. */
export const renderStepsPerChar = 4;

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
  }
  return markdownIt;
}

type MicromarkOptions = NonNullable<Parameters<typeof Micromark.micromark>[1]>;
let micromark: { render: typeof Micromark.micromark; options: MicromarkOptions } | undefined;

function loadMicromark(): { render: typeof Micromark.micromark; options: MicromarkOptions } {
  const autolink = load('micromark-extension-gfm-autolink-literal') as typeof Autolink;
  const strikethrough = load('micromark-extension-gfm-strikethrough') as typeof Strikethrough;
  const table = load('micromark-extension-gfm-table') as typeof Table;
  const tagfilter = load('micromark-extension-gfm-tagfilter') as typeof Tagfilter;
  const taskList = load('micromark-extension-gfm-task-list-item') as typeof TaskList;
  return {
    render: (load('micromark') as typeof Micromark).micromark,
    options: {
      allowDangerousHtml: true,
      allowDangerousProtocol: true,
      extensions: [
        autolink.gfmAutolinkLiteral(),
        strikethrough.gfmStrikethrough(),
        table.gfmTable(),
        taskList.gfmTaskListItem(),
      ],
      htmlExtensions: [
        autolink.gfmAutolinkLiteralHtml(),
        strikethrough.gfmStrikethroughHtml(),
        table.gfmTableHtml(),
        tagfilter.gfmTagfilterHtml(),
        taskList.gfmTaskListItemHtml(),
      ],
    },
  };
}

/** The HTML micromark with the GFM extensions renders (raw HTML and every protocol allowed; GitHub's tag filter on). */
export function renderGfm(text: string, budget: WorkBudget): string {
  budget.spend('markdown', renderStepsPerChar * text.length);
  micromark ??= loadMicromark();
  return micromark.render(text, micromark.options);
}

let marked: Marked.Marked | undefined;

/** The HTML marked renders with its defaults (GitHub-flavoured, raw HTML kept, no sanitizing). */
export function renderMarked(text: string, budget: WorkBudget): string {
  budget.spend('markdown', renderStepsPerChar * text.length);
  marked ??= new (load('marked') as typeof Marked).Marked();
  return marked.parse(text, { async: false });
}
