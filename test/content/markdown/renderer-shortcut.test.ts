// The gate asks micromark (GitHub-flavoured) only when the text holds a construct GFM reads its own way; this
// property holds the shortcut against the real renderers: whenever micromark with GFM renders a page the oracle
// finds active, markdown-it or marked does too, or the text holds such a construct (so the gate asks micromark).
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { Marked } from 'marked';
import { micromark } from 'micromark';
import { gfmAutolinkLiteral, gfmAutolinkLiteralHtml } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough, gfmStrikethroughHtml } from 'micromark-extension-gfm-strikethrough';
import { gfmTable, gfmTableHtml } from 'micromark-extension-gfm-table';
import { gfmTagfilterHtml } from 'micromark-extension-gfm-tagfilter';
import { gfmTaskListItem, gfmTaskListItemHtml } from 'micromark-extension-gfm-task-list-item';
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown, mayRenderOtherwiseOnGitHub } from '../../../src/content/markdown/active-markdown.ts';
import { findActiveRenderedHtml } from '../../../src/content/svg-html/active-html.ts';

const markdownIt = MarkdownIt('commonmark', { html: true });
markdownIt.validateLink = () => true;
const marked = new Marked();
const gfm = (md: string): string =>
  micromark(md, {
    allowDangerousHtml: true,
    allowDangerousProtocol: true,
    extensions: [gfmAutolinkLiteral(), gfmStrikethrough(), gfmTable(), gfmTaskListItem()],
    htmlExtensions: [
      gfmAutolinkLiteralHtml(),
      gfmStrikethroughHtml(),
      gfmTableHtml(),
      gfmTagfilterHtml(),
      gfmTaskListItemHtml(),
    ],
  });

const pieces = [
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">',
  '[x](javascript:alert(1))',
  '<javascript:alert(1)>',
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
  '<details>',
  '*',
  '**',
  '_',
  '`',
  '```',
  '[',
  ']',
  '(',
  ')',
  ']: ',
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
  '1. ',
  '> ',
  '# ',
  '[ ] ',
  'x',
];

describe('micromark is asked only where it may differ', () => {
  test('whenever micromark with gfm makes a page active, the gate still finds it (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 16 }), (parts) => {
        const text = parts.join('');
        const page = findActiveRenderedHtml(gfm(text));
        if (page === null) return;
        const others =
          findActiveRenderedHtml(markdownIt.render(text)) ??
          findActiveRenderedHtml(marked.parse(text, { async: false }));
        expect(others !== null || mayRenderOtherwiseOnGitHub(text), JSON.stringify(text)).toBe(true);
        expect(findActiveMarkdown(text), JSON.stringify(text)).not.toBeNull();
      }),
      { numRuns: 3000 },
    );
  });
});
