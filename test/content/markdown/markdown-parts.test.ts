// Markdown is read in parts cut where every renderer starts afresh (markdown-parts.ts), each part the screen passes
// rendered on its own: checked here against every real renderer. Whenever the gate finds nothing in a text read in
// parts, no renderer's page of the whole text holds anything live; and the cuts fall only where they may.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  findActiveMarkdown,
  markdownNanos,
  planCharge,
  planMarkdown,
} from '../../../src/content/markdown/active-markdown.ts';
import { partsNanosPerChar, screenNanosPerChar } from '../../../src/content/parser-nanos.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';
import { markdownParts, markdownRuns } from '../../../src/content/markdown/markdown-parts.ts';
import { liveIn, realRenderers } from './markdown-differential.ts';

// what may carry a renderer's state across a blank line: fences (top-level and a list item's), html blocks of every
// kind, tags cut by lines, list items and their indented content, quotes, definitions and footnotes, marked's raw text
const pieces = [
  '\n\n',
  '\n',
  '```\n',
  '~~~\n',
  '  ```\n',
  '````\n',
  '```~\n',
  '- a\n',
  '1. a\n',
  '    ',
  '  ',
  '> ',
  '<div>\n',
  '<pre>\n',
  '</pre>\n',
  '<!--\n',
  '-->\n',
  '<?x\n',
  '<b\n',
  '<div title="\n',
  '<T & {\n',
  'onclick=alert(1)>',
  '<img src=x onerror=alert(1)>',
  '<kbd>',
  '<b &Tab; onerror=alert(1)',
  '<svg>',
  '<style>',
  '<style><img src=x onerror=alert(1)></style>',
  '[^1]',
  '[^1]: ',
  '[a]: javascript:alert(1)\n',
  '[a]: javascript:alert(1) "t\n\nu"\n',
  '[a]',
  '[x](javascript:alert(1))',
  '`',
  '"',
  'x',
  ' ',
];

const text = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));

describe('markdown read in parts', () => {
  test('whenever the gate finds nothing, no real renderer makes a live page of the whole text (fixed seed)', () => {
    fc.assert(
      fc.property(text, (markdown) => {
        if (findActiveMarkdown(markdown) === null) expect(liveIn(markdown), JSON.stringify(markdown)).toEqual([]);
      }),
      { seed: 20261205, numRuns: 3000 },
    );
  });

  test('parts are the text, cut before a line with no indent after a blank line', () => {
    const readme = '# Title\n\nSome prose.\n\n```js\nx\n\ny\n```\n\n- a\n\n  b\n\nEnd <b style="color: teal">x</b>.\n';
    const parts = markdownParts(readme);
    expect(parts.join('')).toBe(readme);
    expect(parts).toEqual([
      '# Title\n\n',
      'Some prose.\n\n',
      '```js\nx\n\ny\n```\n\n',
      '- a\n\n  b\n\n',
      'End <b style="color: teal">x</b>.\n',
    ]);
    // only the part the screen passes is rendered, and charged
    expect(markdownRuns(readme)).toEqual(['End <b style="color: teal">x</b>.\n']);
    const budget = WorkBudget.unlimited();
    expect(planCharge(planMarkdown(readme, budget))).toBe(markdownNanos('End <b style="color: teal">x</b>.\n'));
    // the screen and the cutting are charged as they run, once
    expect(budget.timeSpent).toBe((screenNanosPerChar + partsNanosPerChar) * readme.length);
  });

  test.each([
    ['an svg element', '<svg>\n\nb\n', 1],
    ['a fence indented as a list item may indent it', '- a\n  ```\n\nb\n', 1],
    ['a tag cut by its line', '<div title="\n\nb\n', 1],
    ['an html block of the first kinds, until it ends', '<!--\n\nb\n-->\n\nc\n', 2],
    ['a <pre> block (marked passes what follows an inline one raw)', '<pre>\n\nb\n</pre>\n\nc\n', 1],
    ['an inline <style> (the browser reads later paragraphs as its css)', 'hi <style>\n\nx{}\n\nc\n', 1],
  ])('no cut inside what %s may hold open', (_name, markdown, count) => {
    const parts = markdownParts(markdown);
    expect(parts.join('')).toBe(markdown);
    expect(parts).toHaveLength(count);
  });

  test("a footnote's live half is read with the whole text; inert footnotes do not stop the cuts", () => {
    const live = 'a[^1] <b style="color: teal">x</b>\n\nb\n\n[^1]: c\n';
    expect(markdownParts(live)).toHaveLength(3);
    expect(markdownRuns(live)).toEqual([live]);
    const inert = 'a[^1]\n\nb <b style="color: teal">x</b>\n\n[^1]: c\n';
    expect(markdownRuns(inert)).toEqual(['b <b style="color: teal">x</b>\n\n']);
  });

  // marked passes a paragraph's text on raw after an inline <kbd>, <code>, <pre> or <script> tag, within that block
  // only: its lexer sets the state off before each block's inline text, so a cut after one loses nothing
  test.each([
    ['a paragraph', 'a <kbd>x\n\nb <img/src=x onerror=alert(1)>\n'],
    ['a list item', '- a <code>x\n\n- b <img/src=x onerror=alert(1)>\n'],
    ['a block quote', '> a <pre>x\n\nb <img/src=x onerror=alert(1)>\n'],
    ['a heading', '# a <kbd>x\n\nb <img/src=x onerror=alert(1)>\n'],
  ])('marked starts afresh after %s that opens raw text', (_name, markdown) => {
    expect(markdownParts(markdown)).toHaveLength(2);
    expect(realRenderers.marked?.(markdown)).toContain('b &lt;img/src=x onerror=alert(1)&gt;');
    expect(findActiveMarkdown(markdown)).toBeNull();
  });

  test("in one paragraph, text after an inline <kbd> is raw in marked's page, and found", () => {
    const markdown = 'a <kbd>x\nb <img/src=x onerror=alert(1)>\n';
    expect(liveIn(markdown)).toEqual(['marked']);
    expect(findActiveMarkdown(markdown)).not.toBeNull();
  });

  test('an @import in a paragraph after an inline <style> is found (the page runs it as css)', () => {
    // rendered: `<p>hi <style></p>\n<p>x{}@import url(…);</p>`: the style element holds both paragraphs, the first
    // rule is dropped and the import loads; read part by part, the second paragraph alone is inert text
    const markdown = 'hi <style>\n\nx{}@import url(https://evil.example/x.css);\n';
    expect(markdownParts(markdown)).toEqual([markdown]);
    expect(markdownRuns(markdown, (part) => part.includes('<style'))).toEqual([markdown]);
  });
});
