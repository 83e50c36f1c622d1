// The differential property behind every renderer the gate asks: markdown generated from the constructs the
// renderers read differently (raw HTML, declarations, comments, code spans and fences, emphasis, links and
// reference definitions, autolinks, tables and delimiter rows, footnotes, strikethrough, list and quote marks,
// escapes and character references) is rendered by each real renderer, configured here on its own as its users
// run it; whenever a page holds live markup, the gate must not allow the text. Shared by the fixed-seed run in
// `npm test` and the long run in the soak suite.
import { Parser as CommonmarkParser, HtmlRenderer } from 'commonmark';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { Marked } from 'marked';
import { micromark } from 'micromark';
import { gfmAutolinkLiteral, gfmAutolinkLiteralHtml } from 'micromark-extension-gfm-autolink-literal';
import { gfmFootnote, gfmFootnoteHtml } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough, gfmStrikethroughHtml } from 'micromark-extension-gfm-strikethrough';
import { gfmTable, gfmTableHtml } from 'micromark-extension-gfm-table';
import { gfmTagfilterHtml } from 'micromark-extension-gfm-tagfilter';
import { gfmTaskListItem, gfmTaskListItemHtml } from 'micromark-extension-gfm-task-list-item';
import { findActiveMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { findActiveRenderedHtml } from '../../../src/content/svg-html/active-html.ts';

const itCommonmark = MarkdownIt('commonmark', { html: true });
const itDefault = MarkdownIt('default', { html: true });
const marked = new Marked();
const commonmarkParser = new CommonmarkParser();
const commonmarkHtml = new HtmlRenderer();

/** The real renderers, each as its users run it (raw HTML on; each preset with its own limits). */
export const realRenderers: Readonly<Record<string, (md: string) => string>> = {
  'markdown-it commonmark': (md) => itCommonmark.render(md),
  'markdown-it default': (md) => itDefault.render(md),
  'micromark gfm': (md) =>
    micromark(md, {
      allowDangerousHtml: true,
      allowDangerousProtocol: true,
      extensions: [gfmAutolinkLiteral(), gfmFootnote(), gfmStrikethrough(), gfmTable(), gfmTaskListItem()],
      htmlExtensions: [
        gfmAutolinkLiteralHtml(),
        gfmFootnoteHtml(),
        gfmStrikethroughHtml(),
        gfmTableHtml(),
        gfmTagfilterHtml(),
        gfmTaskListItemHtml(),
      ],
    }),
  marked: (md) => marked.parse(md, { async: false }),
  'commonmark.js': (md) => commonmarkHtml.render(commonmarkParser.parse(md)),
};

const pieces = [
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">',
  '[x](javascript:alert(1))',
  '<javascript:alert(1)>',
  '<select><img src=x onerror=alert(1)>',
  '<!X',
  '<!--',
  '-->',
  '<?',
  '?>',
  '<![CDATA[',
  ']]>',
  '<div>',
  '</div>',
  '<pre>',
  '<textarea>',
  '<details>',
  '*',
  '**',
  '_',
  '~',
  '~~',
  '`',
  '```',
  '[',
  ']',
  '(',
  ')',
  ']: ',
  '[a]: ',
  '[^1]',
  '[^1]: ',
  '|',
  '| --- |',
  '---',
  ' - ',
  '"',
  "'",
  '\\',
  '&#106;',
  '&colon;',
  'www.x.com',
  'https://x.com',
  'a@b.co',
  '>',
  '<',
  ' ',
  '\n',
  '\n\n',
  '    ',
  '- ',
  '- - ',
  '1. ',
  '> ',
  '# ',
  '[ ] ',
  'x',
];

/** Markdown built from the pieces, up to `maxLength` of them. */
export function markdownText(maxLength = 16): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));
}

/** The real renderers whose page of `text` the HTML reader finds active. */
export function liveIn(text: string): string[] {
  return Object.entries(realRenderers)
    .filter(([, render]) => findActiveRenderedHtml(render(text)) !== null)
    .map(([name]) => name);
}

/** The renderers whose page of `text` holds live markup while the gate finds nothing; empty when the gate holds. */
export function missedBy(text: string): string[] {
  return findActiveMarkdown(text) !== null ? [] : liveIn(text);
}
