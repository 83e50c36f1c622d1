// A link reference definition over more than one line takes those lines into itself (multi-line-definitions.ts):
// a fence line it takes pairs every later fence the other way in marked's page, so a `<script>` the cuts left in
// fenced code is live there. Each attack is shown live by a real renderer and withheld whole; one-line definitions
// still let the text be cut; and a generated differential over definitions that run on, fences, blank lines and
// payloads holds against the five real renderers.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { markdownRuns } from '../../../src/content/markdown/markdown-parts.ts';
import { definesAcrossLines } from '../../../src/content/markdown/multi-line-definitions.ts';
import { judgeSendings, letThrough } from '../redteam/judge-variants.ts';
import { liveIn } from './markdown-differential.ts';

const script = '```\n<script>alert(1)</script>\n```\n';
// each takes a fence line into a definition; the cuts saw a fenced `<script>` (reading10's HIGH-0/1 and their kin)
const attacks: [string, string][] = [
  ['a ( title carried over blank lines', `[a]: /x (t <b style="c">x</b>\n\n\`\`\`\nu)\n\`\`\`\n\n${script}`],
  [
    'a " title carried over a blank line',
    '# Notes\n\n[a]: https://example.com "t\n\n```\nu"\n<script>alert(1)</script>\n```\n',
  ],
  ['a destination on the next line', `# Notes\n\n[a]:\n\`\`\`\n\n\`\`\`\n\n${script}`],
  ['a " title over two lines, no blank', `# Notes\n\n[a]: /x "t\n\`\`\`\nu"\n\n\`\`\`\n\n${script}`],
  ['a label over two lines', `# Notes\n\n[a\n\`\`\`\n]: /x\n\n\`\`\`\n\n${script}`],
];

describe('a definition over more than one line', () => {
  test.each([
    ['[a]: /x "t"\n', false],
    ['[a]: /x\n\n"quoted" text\n', false],
    ['[a]: /x\n[b]: /y (t)\n', false],
    ['see [a] and [b](/x)\n', false],
    ['[a long link\ntext](/x)\n', false],
    ['[a]: /x "t\nu"\n', true],
    ["[a]: /x 't\nu'\n", true],
    ['[a]: /x (t\n\nu)\n', true],
    ['[a]:\n/x\n', false],
    ['[a]:\n```\n', true],
    ['[a]:\n<!--\n', true],
    ['[a]: /x\n"t"\n', false],
    ['[a]: /x\n"t\nu"\n', true],
    ['- [a]: /x "t\nu"\n', true],
    ['> [a]: /x (t\n> u)\n', true],
    ['Install with [npm][npm]:\n\n```\nnpm i\n```\n', false],
    ['[^1]:\n    a note that goes on\n', false],
    ['[a\nb]: /x\n', true],
    ['[a]: <x y> "t\\\nu"\n', true],
    ['[a]: /x "t \\" u"\n', false],
  ])('%j → %s', (text, expected) => {
    expect(definesAcrossLines(text)).toBe(expected);
  });

  test.for(attacks)('%s: live in a real renderer, withheld whole', async ([, text]) => {
    expect(liveIn(text)).not.toEqual([]);
    expect(markdownRuns(text)).toEqual([text]);
    const verdicts = await judgeSendings({ text }, [
      ['docs://project/README.md', 'text/markdown'],
      ['docs://project/notes.md', undefined],
    ]);
    expect(letThrough(verdicts)).toEqual([]);
  });

  // a stylesheet <link> is no trigger of the screen: the stylesheet reading reads the parts that hold one, and the
  // same rules hold for them (reading11's HIGH-2 and HIGH-3: a remote stylesheet marked or micromark's footnotes put
  // in the page was allowed)
  test.each([
    [
      'a multi-line title over a fenced stylesheet link',
      '# Notes\n\n[a]: https://example.com "t\n\n```\nu"\n<link rel="stylesheet" href="https://evil.example/x.css">\n```\n',
    ],
    [
      'a footnote definition holding a stylesheet link, before its reference',
      '[^1]: <link rel="stylesheet" href="https://evil.example/x.css">\n\nSee the note[^1].\n',
    ],
  ])('%s: refused as a remote load', async (_label, text) => {
    const verdicts = await judgeSendings({ text }, [['docs://project/README.md', 'text/markdown']]);
    expect(letThrough(verdicts)).toEqual([]);
    expect(verdicts[0]?.codes).toContain('content.remote-load');
  });

  test('one-line definitions leave the text cut, and a fenced script in it is code', async () => {
    const text = `# Notes\n\n[a]: https://example.com "t"\n[b]: /x (u)\n\nsee [a]\n\n${script}\n<b style="c">x</b>\n`;
    expect(liveIn(text)).toEqual([]);
    expect(markdownRuns(text).length).toBeGreaterThan(0);
    expect(markdownRuns(text)).not.toEqual([text]);
    const verdicts = await judgeSendings({ text }, [['docs://project/README.md', 'text/markdown']]);
    expect(verdicts.map((v) => v.effect)).toEqual(['allow']);
  });
});

const pieces = [
  '\n\n',
  '\n',
  '```\n',
  '~~~\n',
  '[a]: /x "t\n',
  '[a]: /x (t\n',
  "[a]: /x 't\n",
  '[a]:\n',
  '[a\n',
  ']: /x\n',
  'u"\n',
  'u)\n',
  "u'\n",
  '"t"\n',
  '<b style="c">x</b>\n',
  '<script>alert(1)</script>\n',
  '<img src=x onerror=alert(1)>\n',
  '# x\n',
  'x',
];
const runs = Number(process.env.PARTS_RUNS ?? 1500);

test('whenever the gate finds nothing in definitions, fences and blank lines, no real renderer makes a live page (fixed seed)', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 12 }), (parts) => {
      const markdown = parts.join('');
      if (findActiveMarkdown(markdown) === null) expect(liveIn(markdown), JSON.stringify(markdown)).toEqual([]);
    }),
    { seed: 20261206, numRuns: runs },
  );
}, 180_000);
