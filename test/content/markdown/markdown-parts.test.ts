// Markdown is read in parts cut where every renderer starts afresh (markdown-parts.ts), each part the screen passes
// rendered on its own: checked here against every real renderer. Whenever the gate finds nothing in a text read in
// parts, no renderer's page of the whole text holds anything live; and the cuts fall only where they may.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  findActiveMarkdown,
  markdownNanos,
  planCharge,
  planCharges,
  planMarkdown,
} from '../../../src/content/markdown/active-markdown.ts';
import { maxParserNanos, WorkBudget } from '../../../src/content/work-budget.ts';
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
  '<style>\n',
  '</style>\n',
  '`<style>`',
  '### ',
  'x{color:expression(alert(1))}',
  '<style><img src=x onerror=alert(1)></style>',
  '   ```\n',
  '```js\n',
  '  ~~~\n',
  '1.  a\n',
  '  - a\n',
  '-\t',
  '\t',
  '<img\n',
  ' alt="x\n',
  ' />\n',
  '[^1]',
  '[^1]: ',
  '[a]: javascript:alert(1)\n',
  '[a]: javascript:alert(1) "t\n\nu"\n',
  '[a]',
  '[a]: https://example.com/x\n',
  '[a]:\n',
  '[x][a]',
  '![x][a]',
  '[x](javascript:alert(1))',
  '`',
  '"',
  'x',
  ' ',
];

const text = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));

// svg or mathml foreign content opened, maybe ended, then a blank line and more: what may hold a page in foreign content
// past the cut, or end it (foreign-regions.ts): the elements, integration points (html inside them may leave an html
// element open, past which an end tag is ignored), what foreign content hides (CDATA, comments, quotes), what hides an
// end tag from a renderer (code spans and fences, indents, containers, links, escapes, a tag over lines); then what
// foreign content reads as markup where html reads text (`<noscript>`, `<style>`, `<textarea>`) or as a link
const foreignOpens = [
  '<svg>',
  '<math>',
  '<SVG viewBox="0 0 1 1">',
  '<svg><foreignObject><div>',
  '<svg><title><div>',
  '<svg><desc>',
  '<math><mi><div>',
  '<math><annotation-xml encoding="text/html"><div>',
  '<svg><![CDATA[',
  '<svg><!--',
  '<svg><g title="',
  '<svg><svg>',
  '<svg><math>',
  '<math><svg>',
  '<svg/>',
  '`<svg>`',
  'a `<svg>` b',
  '<svg><title>x</title>',
  '<svg><p>',
];
const foreignMiddles = [
  '\n',
  '\n\n',
  '<path d="M0 0"/>',
  '<g>',
  '</g>',
  '</div>',
  '-->',
  ']]>',
  '">',
  '<!-- x -->',
  '```\n',
  '`',
  '[',
  'x',
  '\\',
  '<title>t</title>',
];
const foreignCloses = ['</svg>', '</math>', '</svg></svg>', '</math></svg>', '</SVG >', '</p>'];
const closeLines = ['', '  ', '    ', '- ', '> ', '`', '[', '![', 'x ', '\\'];
const firstLines = ['x', '# x', '- x', '[a]: x', '<g>', '> x', '|a|\n|-|'];
const returns = [
  '',
  '</div></foreignObject>',
  '</div></title>',
  '</div></mi>',
  '</desc>',
  '</p></foreignObject>',
  '</svg>',
];
const payloads = [
  '<noscript><img src=x onerror=alert(1)></noscript>',
  '<style><img src=x onerror=alert(1)></style>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<a xlink:href="javascript:alert(1)">x</a>',
  '<noscript><style>@import url(https://evil.example/x.css);</style></noscript>',
];
const foreignText = fc
  .tuple(
    fc.constantFrom(...foreignOpens),
    fc.array(fc.constantFrom(...foreignMiddles), { maxLength: 5 }),
    fc.constantFrom('\n', ''),
    fc.constantFrom(...closeLines),
    fc.constantFrom(...foreignCloses),
    fc.constantFrom('\n\n', '\n'),
    fc.constantFrom(...firstLines),
    fc.constantFrom('\n', ' '),
    fc.constantFrom(...returns),
    fc.constantFrom(...payloads),
  )
  .map(([open, middle, ...rest]) => [open, ...middle, ...rest].join(''));
const runs = Number(process.env.PARTS_RUNS ?? 3000);
const seed = Number(process.env.PARTS_SEED ?? 20261205);

describe('markdown read in parts', () => {
  test('whenever the gate finds nothing, no real renderer makes a live page of the whole text (fixed seed)', () => {
    fc.assert(
      fc.property(text, (markdown) => {
        if (findActiveMarkdown(markdown) === null) expect(liveIn(markdown), JSON.stringify(markdown)).toEqual([]);
      }),
      { seed, numRuns: runs },
    );
    // five real renderers over every text: minutes on a loaded machine, not a bound on the gate's speed
  }, 180_000);

  test('foreign content: whenever the gate finds nothing, no real renderer makes a live page of the whole text (fixed seed)', () => {
    fc.assert(
      fc.property(foreignText, (markdown) => {
        if (findActiveMarkdown(markdown) === null) expect(liveIn(markdown), JSON.stringify(markdown)).toEqual([]);
      }),
      { seed, numRuns: runs },
    );
  }, 180_000);

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
    const charges = planCharges(readme);
    expect(budget.timeSpent).toBe(charges.screen + charges.parts);
  });

  test.each([
    ['an svg element', '<svg>\n\nb\n', 1],
    ['a top-level fence that a list item may not hold', '1.  a\n\n   ```\n\nb\n\n```\n\nc\n', 1],
    ['a tag cut by its line', '<div title="\n\nb\n', 1],
    ['an html block of the first kinds, until it ends', '<!--\n\nb\n-->\n\nc\n', 2],
    ['a <pre> block (marked passes what follows an inline one raw)', '<pre>\n\nb\n</pre>\n\nc\n', 2],
    ['a <pre> block marked ends only at its own end tag', '<pre>\n\nb\n</script>\n\nc\n', 1],
    ['an inline <style> (the browser reads later paragraphs as its css)', 'hi <style>\n\nx{}\n\nc\n', 1],
  ])('no cut inside what %s may hold open', (_name, markdown, count) => {
    const parts = markdownParts(markdown);
    expect(parts.join('')).toBe(markdown);
    expect(parts).toHaveLength(count);
  });

  // what stopped the cutting of a megabyte of READMEs at its first list item's code block and its first `<style`
  test.each([
    ["a list item's fence, closed by the item's end", '- a\n\n  ```js\n  x\n\n  y\n  ```\n\nb\n\nc\n', 3],
    ['a list item on its mark line', '- ```\n  x\n\n  ```\n\nb\n', 2],
    ['a nested list item', '- a\n  - b\n\n    ```\n    x\n    ```\n\nc\n', 2],
    ["a `<style>` in a heading's code span", '### chalk.`<style>[.<style>...](string)`\n\nb\n\nc\n', 3],
    ["a `<style>` in a paragraph's code span", 'a `<style>` b\n\nc\n', 2],
    ['a `<style>` element to its end tag', '<style>\n.a{}\n</style>\n\nb\n\nc\n', 3],
    ['an inline `<style>` to its end tag', 'a <style>\n\n.a{}\n\n</style>\n\nb\n', 2],
    ['a tag over lines that ends before a blank line', '<p>\n<img\n  src="x"\n/>\n</p>\n\nb\n', 2],
    ['a code block holding a tag cut by its line', '```\n<pre...\n```\n\nb\n', 2],
    ['an svg icon closed on its line', '<svg viewBox="0 0 24 24"><path d="M0 0"/></svg>\n\nb\n\nc\n', 3],
    [
      'an svg over lines to its end tag',
      '<p align="center">\n  <svg width="24">\n    <title>Logo</title>\n    <path d="M0 0"/>\n  </svg>\n</p>\n\nb\n\nc\n',
      3,
    ],
    ['an svg in a fenced code block', "```js\nsharp(Buffer.from('<svg><rect/></svg>'));\n```\n\nb\n\nc\n", 3],
    ['an svg in a code span', 'Use the `<svg>` element.\n\nb\n\nc\n', 3],
    ['mathml holding text tokens', '<math><mi>x</mi><mo>=</mo><mn>1</mn></math>\n\nb\n\nc\n', 3],
  ])('cut after %s', (_name, markdown, count) => {
    const parts = markdownParts(markdown);
    expect(parts.join('')).toBe(markdown);
    expect(parts).toHaveLength(count);
    for (const renderer of Object.values(realRenderers))
      expect(parts.map(renderer).join('').replace(/\n/g, ''), markdown).toBe(renderer(markdown).replace(/\n/g, ''));
  });

  test.each([
    ['a `<style>` whose end tag may be in a code span', '<style>\n\n`a\n</style>\n`\n\nc\n'],
    ['a `<style>` whose end tag may be in a link', '<style>\n\n[a\n</style>\n](x)\n\nc\n'],
    ['a `<style>` whose end tag is indented (a list item may hold it in a fence)', '<style>\n\n  </style>\n\nc\n'],
    ["a `<style>` after a bare url (marked's and GFM's links run over backticks)", 'http://a.b/`<style>`\n\nc\n'],
    ['a `<style>` in a code span of a paragraph of two lines', 'a `<style>` b\nc\n\nd\n'],
    ['a tag over lines that a blank line ends', '<p>\n<img\n  alt="x\n\nb">\n'],
    ['a tag over lines in a block quote', '> <img\n> alt="x"\n\nb\n'],
    ['an svg whose end tag may be in a code span', '<svg>\n\n`a\n</svg>\n`\n\nc\n'],
    ['an svg whose end tag is indented (an indented code block may hold it)', '<svg>\n\n    </svg>\n\nc\n'],
    ['an svg whose end tag is in a list item', '<svg>\n\n-     </svg>\n\nc\n'],
    ['an svg whose end tag is in an image', '<svg>\n![</svg>](x)\n\nc\n'],
    [
      'an svg holding html in a foreignObject (an </svg> inside is ignored)',
      '<svg><foreignObject><div>\n</svg>\n\nc\n',
    ],
    ['an svg whose end tag is in a CDATA section', '<svg><![CDATA[\n</svg>\n]]>\n\nc\n'],
    ['an svg whose end tag is in a comment', '<svg><!--\n</svg>\n-->\n\nc\n'],
    ['an svg whose end tag is in an attribute', '<svg><g title="\n</svg>\n">\n\nc\n'],
    ['nested svg closed once', '<svg><svg>\n</svg>\n\nc\n'],
  ])('no cut after %s', (_name, markdown) => {
    expect(markdownParts(markdown)).toEqual([markdown]);
  });

  test('a README with code blocks in its list items and a `<style>` in a code span is charged for its live part only', () => {
    const block =
      '## Options\n\n- **ranges**: nodes have their offsets.\n\n  ```javascript\n  { "range": [0, 1] }\n  ```\n\n  Note the callback.\n\n';
    const half = block.repeat(Math.ceil((128 * 1024) / block.length));
    const heading = '### chalk.`<style>[.<style>...](string, [string...])`\n\n';
    const live = 'End <b style="color: teal">x</b>.\n';
    const readme = `${half}${heading}Chain styles.\n\n${half}${live}`;
    const plan = planMarkdown(readme, WorkBudget.unlimited());
    // the heading passes the screen (a `<style` tag), and is read on its own: the renderers escape it
    expect(plan.runs).toEqual([heading, live]);
    expect(planCharge(plan)).toBeLessThan(maxParserNanos / 100);
  });

  test("a footnote's live half is read with the whole text; inert footnotes do not stop the cuts", () => {
    const live = 'a[^1] <b style="color: teal">x</b>\n\nb\n\n[^1]: c\n';
    expect(markdownParts(live)).toHaveLength(3);
    expect(markdownRuns(live)).toEqual([live]);
    const inert = 'a[^1]\n\nb <b style="color: teal">x</b>\n\n[^1]: c\n';
    expect(markdownRuns(inert)).toEqual(['b <b style="color: teal">x</b>\n\n']);
  });

  // a README's badges: definitions of inert urls in the part that also holds a styled tag, their uses in other
  // parts; read whole, 8 MiB of READMEs was withheld as too complex for one such part
  test("a live part's inert reference definitions do not make the whole text one run; their uses elsewhere stay inert", () => {
    const badges =
      '[![CI][ci-badge]][ci-url] <img src="logo.png" style="width: 200px">\n\n  [ci-badge]: https://example.com/badge.svg\n  [ci-url]: https://example.com/ci\n\n';
    const uses = 'See [the CI][ci-url] and ![the badge][ci-badge].\n\n';
    const markdown = `${uses}${badges}${uses}More prose.\n`;
    expect(markdownParts(markdown)).toHaveLength(4);
    expect(markdownRuns(markdown)).toEqual([badges]);
    expect(findActiveMarkdown(markdown)).toBeNull();
    expect(liveIn(markdown)).toEqual([]);
    // every renderer links the uses before and after the definitions' part
    for (const renderer of Object.values(realRenderers))
      expect(renderer(markdown).match(/href="https:\/\/example\.com\/ci"/g)?.length).toBeGreaterThanOrEqual(2);
  });

  test.each([
    ['a script url', '[a]: javascript:alert(1)'],
    ['a script url on the next line', '[a]:\n  javascript:alert(1)'],
    ['a script url in character references', '[a]: &#106;avascript:alert(1)'],
    ['a data url', '[a]: data:text/html,<script>alert(1)</script>'],
  ])(
    'a live part defining a reference to %s is read with the whole text (its uses may stand in any part)',
    (_name, definition) => {
      const markdown = `Use [x][a].\n\n${definition}\n<b style="color: teal">x</b>\n\nMore prose.\n`;
      expect(markdownParts(markdown).length).toBeGreaterThan(1);
      expect(markdownRuns(markdown)).toEqual([markdown]);
      expect(findActiveMarkdown(markdown)).not.toBeNull();
      expect(liveIn(markdown)).not.toEqual([]);
    },
  );

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

  // node_modules READMEs joined: cross-spawn's `node \`<v4.8\`` after another README's inline <code> kept everything
  // after it in one part (an 8 MiB text: 6.2 million characters)
  test("a tag that does not end on its line is text past a blank line after an inline <code>: marked's raw text ended with its block", () => {
    const markdown = 'Use <code>spawn</code> here.\n\n- No support on node `<v4.8`\n\nb\n\nc\n';
    expect(markdownParts(markdown)).toEqual([
      'Use <code>spawn</code> here.\n\n',
      '- No support on node `<v4.8`\n\n',
      'b\n\n',
      'c\n',
    ]);
    for (const renderer of Object.values(realRenderers))
      expect(markdownParts(markdown).map(renderer).join('').replace(/\n/g, ''), markdown).toBe(
        renderer(markdown).replace(/\n/g, ''),
      );
    // in the same block, marked passes it on raw: no cut after it
    expect(markdownParts('Use <code>spawn on node <v4.8\n\nb\n')).toHaveLength(1);
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
