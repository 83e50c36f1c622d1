// A text made only of CommonMark html blocks is written as micromark writes it, without micromark
// (src/content/markdown/html-blocks-page.ts): every text the writer claims must give micromark's page byte for byte
// (generated texts of every block kind, its edges and the places the spec and micromark part; the html pages of
// /usr/share/doc where the machine has them), and the page is still judged as html.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown, planCharge, planMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { htmlBlocksLines, htmlBlocksPage } from '../../../src/content/markdown/html-blocks-page.ts';
import { markdownRenderers, micromarkGfmName, renderWith } from '../../../src/content/markdown/markdown-renderers.ts';
import { sniffContent } from '../../../src/content/sniff-content.ts';
import { maxParserNanos, WorkBudget } from '../../../src/content/work-budget.ts';
import { realRenderers } from './markdown-differential.ts';

const micromark = markdownRenderers.find((r) => r.name === micromarkGfmName);
if (micromark === undefined) throw new Error('micromark is one of the renderers');
// micromark itself as its users run it, the writer not in front of it (markdown-differential.ts)
const realMicromark = realRenderers['micromark gfm'];
if (realMicromark === undefined) throw new Error('the differential suite runs micromark');
const micromarkItself: (text: string) => string = realMicromark;

// the kinds' starts, ends and the edges where the spec and micromark part, as whole lines or pieces of lines
const pieces = [
  '<div>',
  '<DIV class="a">',
  '</div>',
  '<div/>',
  '</div/>',
  '<div/x',
  '<table><tr><td>x</td></tr></table>',
  '<search>',
  '<source>',
  '<p',
  '<pre>',
  '<pre',
  '<pre/>',
  '</pre>',
  '<PRE class=x>',
  '<script>',
  '<script type="text/x">a()</script>',
  '<style>',
  '</style>',
  '<textarea>',
  '</textarea>',
  '<title>x</title>',
  '<xmp>',
  '<iframe src=x>',
  '<noembed/>',
  '<plaintext ',
  '<!-- a',
  '-->',
  '<!-->',
  '<!--->',
  '<!-x',
  '<?xml version="1.0"?>',
  '<?',
  '?>',
  '<?>',
  '<!DOCTYPE html>',
  '<!doctype html PUBLIC "x">',
  '<!D',
  '<![CDATA[',
  ']]>',
  ']]]>',
  ']]]]>',
  '<a>',
  '<a href="x">',
  "<a href='x' title=y>",
  '<a href=x/y>',
  '<a b=c=d>',
  '<a b="c"d>',
  '<a b = "c" >',
  '<a\tb\t=\tc\t/>',
  '<a b=>',
  '<a.b>',
  '<x-y z:w=1 _q>',
  '</a>',
  '</a >',
  '</a/>',
  '<a/>',
  '<a',
  '<>',
  '</>',
  'text',
  '*em* [l](u)',
  '> quote',
  '- item',
  '|a|b|',
  '|-|-|',
  '===',
  '```',
  '[^1]: note',
  '\u0000',
  '\ufeff',
  '&amp;',
  '<script',
  '</script',
  '<style/',
  '<title\f',
  '',
  ' ',
  '   ',
  '    ',
  '\t',
  'é',
];
const indent = fc.constantFrom('', '', '', ' ', '  ', '   ', '    ', '\t', ' \t');
const piece = fc.constantFrom(...pieces);
const line = fc.tuple(indent, fc.array(piece, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '', ' ', '\t'));
const ending = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
const text = fc
  .array(fc.tuple(line, ending), { minLength: 1, maxLength: 12 })
  .chain((lines) =>
    fc
      .boolean()
      .map((last) =>
        lines
          .map(
            ([[lead, parts, trail], end], i) =>
              lead + parts.join('') + trail + (last || i < lines.length - 1 ? end : ''),
          )
          .join(''),
      ),
  );

describe('a text of html blocks only is written as micromark writes it', () => {
  test('every text the writer claims is micromark’s page byte for byte (fixed seed)', () => {
    let claimed = 0;
    fc.assert(
      fc.property(text, (t) => {
        const page = htmlBlocksPage(t);
        if (page === null) return;
        claimed++;
        expect(page, JSON.stringify(t)).toBe(micromarkItself(t));
        expect(renderWith(micromark, t)).toBe(page);
      }),
      { seed: 20261207, numRuns: 6000 },
    );
    // the generator reaches the writer often enough to test it
    expect(claimed).toBeGreaterThan(600);
  });

  test.each([
    ['a kind 6 block to a blank line, and one after it', '<div>\n*a*\n\n<p>\nb\n', '<div>\n*a*\n<p>\nb\n'],
    ['kinds 1 to 5 end on their line, the next line may start a block', '<!-- a -->\n<?x?>\n<!X>\n<div>', null],
    ['blank lines inside a comment are kept', '<!-- a\n\n  \n-->\n', '<!-- a\n\n  \n-->\n'],
    [
      'the tag filter, within a line only',
      '<div><script>a</script>\n<title\n',
      '<div>&lt;script>a&lt;/script>\n<title\n',
    ],
    ['CR and CR LF kept', '<div>\r\n\r\n<p>\r', '<div>\r\n<p>\r'],
  ])('%s', (_name, t, want) => {
    expect(htmlBlocksPage(t)).toBe(want ?? t);
    expect(micromarkItself(t)).toBe(want ?? t);
  });

  test.each([
    ['a paragraph', '<div>\n\ntext\n'],
    ['indented code', '<div>\n\n    <p>\n'],
    ['a tab before the tag', '\t<div>\n'],
    ['`<pre/>`: kind 7 to micromark, none to the spec', '<pre/>\n'],
    ['`</pre>` on its own line', '</pre>\n'],
    ['an unquoted value holding `/`', '<a href=x/y>\n'],
    ['`]]]>` in a cdata block', '<![CDATA[ a ]]]>\n'],
    ['a NUL', '<div>\u0000\n'],
    ['a byte order mark', '\ufeff<div>\n'],
    ['blank lines only', '\n  \n'],
  ])('not claimed: %s', (_name, t) => {
    expect(htmlBlocksPage(t)).toBeNull();
  });

  const docPages = ((): string[] => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        const stat = statSync(file);
        if (stat.isDirectory()) walk(file);
        else if (/\.(?:html?|xhtml)$/i.test(entry) && stat.size < 1_000_000) found.push(file);
      }
    };
    try {
      walk('/usr/share/doc');
    } catch {
      // a machine without the documentation: the generated texts and the fixture stand alone
    }
    return found;
  })();

  test.runIf(docPages.length > 0)('the html pages of /usr/share/doc, as UTF-8 and as latin-1', () => {
    let claimed = 0;
    for (const file of docPages) {
      for (const encoding of ['utf8', 'latin1'] as const) {
        const t = readFileSync(file, encoding);
        const page = htmlBlocksPage(t);
        if (page === null) continue;
        claimed++;
        expect(page, file).toBe(micromarkItself(t));
      }
    }
    expect(claimed).toBeGreaterThan(0);
  });
});

// libxslt1-dev 1.1.35's html/html/libxslt-xsltInternals.html (Debian 12), 110 KB of html blocks with no blank line
const libxsltPage = gunzipSync(
  readFileSync(
    path.join(import.meta.dirname, 'fixtures/libxslt1-dev-1.1.35--html__html__libxslt-xsltInternals.html.gz'),
  ),
);

describe('a manual page of html blocks only', () => {
  test('sent as text/plain it is judged, not withheld as too complex (charged 0.61 s before)', async () => {
    const budget = WorkBudget.forBytes(libxsltPage.length);
    const sniff = await sniffContent(libxsltPage, {
      declaredMime: 'text/plain',
      uri: 'guide://doc/libxslt1-dev/html/html/libxslt-xsltInternals.html',
      budget,
    });
    expect(sniff.tooComplex).toBeNull();
    expect(sniff.active).toBeNull();
    expect(budget.timeSpent).toBeLessThan(maxParserNanos / 2);
  });

  test('micromark is charged the writing, the other renderers as before', () => {
    const t = libxsltPage.toString('latin1');
    expect(htmlBlocksLines(t)).toBeGreaterThan(0);
    const plan = planMarkdown(t, WorkBudget.unlimited());
    const others = markdownRenderers.filter((r) => r.name !== micromarkGfmName);
    expect(planCharge(plan)).toBeLessThan(planCharge(plan, others) + 0.1 * planCharge(plan, others));
  });

  test('the page is still judged as html: a script in it is found on micromark’s page too', () => {
    const t = `${libxsltPage.toString('latin1')}\n<div onclick="alert(1)">x</div>\n`;
    expect(htmlBlocksPage(t)).not.toBeNull();
    // by a browser page's rules (a page by its name: its own search form is no finding), what runs is found
    const found = findActiveMarkdown(t, WorkBudget.unlimited(), [micromark], undefined, undefined, 'page');
    expect(found).toMatch(/onclick/);
    expect(found).toMatch(/micromark/);
  });
});
