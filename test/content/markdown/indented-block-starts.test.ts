// A line indented four columns or more (spaces and tabs before its `<`) starts no html block outside a list item or
// footnote definition (src/content/markdown/raw-html-grammar.ts `HtmlBlockReader`): vim's builtin.txt, 418 KB as
// text/plain, has `\t\t\t<script>\tsourced script file` in indented code, which was taken for a block running to the
// text's end (no `</script>` after it): the screen passed the text and the cutting made no cut in its last 321 KB
// (charged 1.7 s, withheld as too complex).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown, planMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';
import { liveIn, missedBy } from './markdown-differential.ts';

describe('an indented `<` outside any list item starts no html block', () => {
  // indented code after a blank line, as vim's help lays out its tables
  const help =
    'expand({string})\t\t\t*expand()*\n\t\tExpand wildcards in:\n\n\t\t\t%\t\tcurrent file name\n\t\t\t<script>\tsourced script file\n\t\t\t<cfile>\tfile name\n\n';
  const prose = 'Plain help text, nothing to render.\n\n'.repeat(300);
  const live = 'End <b style="color: teal">x</b>.\n';

  test('a help file with a tab-indented `<script>` in indented code: only its live part is read', () => {
    const text = `${prose}${help}${prose}${live}`;
    const plan = planMarkdown(text, WorkBudget.unlimited());
    expect(plan.runs).toEqual([live]);
    expect(findActiveMarkdown(text)).toBeNull();
    expect(liveIn(text)).toEqual([]);
  });

  test('without the live part the screen passes nothing', () => {
    expect(planMarkdown(`${prose}${help}${prose}`, WorkBudget.unlimited()).live).toBe(false);
  });

  test.each([
    ['in a list item', '- a\n\n    <script>alert(1)</script>\n'],
    ['in a nested list item', '- a\n  - b\n\n      <script>\nalert(1)\n</script>\n'],
    ['in a footnote definition', 'x[^1]\n\n[^1]: a\n\n    <img src=x onerror=alert(1)>\n'],
    ['in an ordered item after prose at no indent', '1. a\n\n   b\n\n    <img src=x onerror=alert(1)>\n'],
  ])('an indented block start %s is still read', (_name, text) => {
    expect(findActiveMarkdown(`${text}\n${prose}`)).not.toBeNull();
  });

  const indent = fc.constantFrom('', '', '  ', '   ', '    ', '\t', '\t\t', ' \t', '      ');
  const mark = fc.constantFrom('', '', '', '- ', '* ', '1. ', '> ', '[^1]: ', '>     ', '-\t');
  const body = fc.constantFrom(
    '<script>',
    '<script>alert(1)</script>',
    '</script>',
    '<img src=x onerror=alert(1)>',
    '<div>',
    '<!--',
    '-->',
    'text',
    '[^1]',
    '```',
    '',
    '<b style="color: teal">x</b>',
  );
  const line = fc.tuple(indent, mark, body).map(([a, b, c]) => a + b + c);
  const text = fc.array(line, { minLength: 1, maxLength: 10 }).map((lines) => `${lines.join('\n')}\n`);

  test('whenever the gate finds nothing, no real renderer makes a live page (fixed seed)', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(missedBy(t), JSON.stringify(t)).toEqual([]);
      }),
      { seed: 20261207, numRuns: 3000 },
    );
  });
});
