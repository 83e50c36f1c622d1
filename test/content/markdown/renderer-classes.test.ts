// Issue 23: markdown that one renderer turns live while markdown-it shows text. Every variant is rendered here
// by the real consumers (markdown-it in CommonMark mode, micromark with GFM, marked; raw HTML allowed), each page
// parsed by parse5, and the test's own oracle says which pages are active; the gate must deny every variant that
// any renderer makes active, and allow the inert look-alikes, under policies/default.yaml.
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { Marked } from 'marked';
import { micromark } from 'micromark';
import { gfmAutolinkLiteral, gfmAutolinkLiteralHtml } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough, gfmStrikethroughHtml } from 'micromark-extension-gfm-strikethrough';
import { gfmTable, gfmTableHtml } from 'micromark-extension-gfm-table';
import { gfmTagfilterHtml } from 'micromark-extension-gfm-tagfilter';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../../src/gate/create-gate.ts';
import { loadPolicy } from '../../../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
const LINK = 'guide://manuals/readme';

async function effectOf(markdown: string): Promise<string> {
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri: LINK, name: 'readme', mimeType: 'text/markdown' },
    result: { resultType: 'complete', contents: [{ uri: LINK, mimeType: 'text/markdown', text: markdown }] },
  });
  return decision.effect;
}

// ---------------------------------------------------------------- the consumers, as hosts configure them

const markdownIt = MarkdownIt('commonmark', { html: true });
const marked = new Marked();
const renderers: Record<string, (md: string) => string> = {
  'markdown-it': (md) => markdownIt.render(md),
  'micromark+gfm': (md) =>
    micromark(md, {
      allowDangerousHtml: true,
      extensions: [gfmAutolinkLiteral(), gfmStrikethrough(), gfmTable()],
      htmlExtensions: [gfmAutolinkLiteralHtml(), gfmStrikethroughHtml(), gfmTableHtml(), gfmTagfilterHtml()],
    }),
  marked: (md) => marked.parse(md, { async: false }),
};

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['document'];

// the oracle: an element that runs script when the page loads or a link is followed
function activeIn(html: string): boolean {
  const stack: Node[] = [parse(html)];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if ('tagName' in node) {
      if (node.tagName === 'script') return true;
      for (const { name, value } of node.attrs) {
        if (name.startsWith('on')) return true;
        // the URL parser drops leading C0 controls and spaces, and tabs and newlines anywhere
        const url = value.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
        if ((name === 'href' || name === 'src') && /^javascript:/i.test(url)) return true;
      }
    }
    if ('childNodes' in node) stack.push(...node.childNodes);
  }
  return false;
}

const activeRenderers = (md: string): string[] =>
  Object.entries(renderers)
    .filter(([, render]) => activeIn(render(md)))
    .map(([name]) => name);

const img = '<img src=x onerror=alert(1)>';
const handlers = [
  img,
  '<svg onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
];

// each class: variants that markdown-it renders inert and some other renderer renders live
const classes: [string, string, string[]][] = [
  // GFM's tag filter escapes `<textarea`, `<title`, `<plaintext`, `<xmp`, `<noembed`, `<noframes`, which
  // otherwise make the rest of the page text (RCDATA, RAWTEXT, PLAINTEXT) to the HTML parser
  ...['textarea', 'title', 'plaintext', 'xmp', 'noembed', 'noframes'].flatMap((tag) =>
    handlers.map((h): [string, string, string[]] => ['gfm tag filter', `<${tag}>\n${h}\n`, ['micromark+gfm']]),
  ),
  // GFM splits table cells at `|` before code spans: markdown-it's code span is two cells with raw html
  ...handlers.map((h): [string, string, string[]] => [
    'gfm table cells',
    `| \`a | ${h} \` |\n| - | - |\n`,
    ['micromark+gfm', 'marked'],
  ]),
  // marked closes emphasis, strong, strikethrough and link text before a `<!X` declaration that markdown-it
  // reads as raw html swallowing the tag after it
  ...['*<!X*', '**<!X**', '_<!X_', '~~<!X~~', '[<!X](y)', '*a <!X*'].flatMap((wrap) =>
    handlers
      .slice(0, 3)
      .map((h): [string, string, string[]] => ['marked declaration precedence', `${wrap}${h}>`, ['marked']]),
  ),
  // link reference definitions marked accepts and markdown-it rejects
  ...['javascript:alert(1)', 'JavaScript:alert(document.domain)', ' javascript:void(0)'].flatMap((url) => [
    [
      'marked reference definitions: a 1000-character label',
      `[${'a'.repeat(1000)}]: ${url}\n\n[${'a'.repeat(1000)}]\n`,
      ['marked'],
    ] as [string, string, string[]],
    ['marked reference definitions: a title with a blank line', `[x]: ${url} "a\n\nb"\n\n[x]\n`, ['marked']] as [
      string,
      string,
      string[],
    ],
    [
      'marked reference definitions: a label of 1001 characters with a title',
      `[${'b'.repeat(1001)}]: ${url} "t"\n\n[${'b'.repeat(1001)}]\n`,
      ['marked'],
    ] as [string, string, string[]],
  ]),
];

describe('markdown is judged by every renderer that may show it', () => {
  test.each(classes)('%s: %j is denied', async (_, markdown, live) => {
    // the consumers: markdown-it shows text, and the renderers named make it live
    expect(activeIn(renderers['markdown-it']?.(markdown) ?? '')).toBe(false);
    expect(activeRenderers(markdown)).toEqual(live);
    expect(await effectOf(markdown)).toBe('deny');
  });

  // what no renderer makes live stays allowed, however much markup it shows
  const inert = [
    [
      'a fenced code block',
      `# Usage\n\n\`\`\`html\n<script src="x.js"></script>\n${img}\n<iframe src="x"></iframe>\n\`\`\`\n`,
    ],
    [
      'an indented code block',
      `Example:\n\n    <button onclick="go()">go</button>\n    <object data="x.swf"></object>\n`,
    ],
    ['code spans', `Use \`<script>\` or \`onclick="x"\`, never \`javascript:\` links.\n`],
    ['a table with code', `| tag | use |\n| - | - |\n| \`<script>\` | runs \`onload=x\` |\n`],
    [
      'badges and details',
      `<p align="center"><img src="https://img.shields.io/npm/v/x.svg" alt="v"></p>\n\n<details><summary>more</summary>\n\ntext\n\n</details>\n`,
    ],
    ['an escaped declaration', `*\\<!X*${'&lt;img src=x onerror=alert(1)&gt;'}\n`],
  ];
  test.each(inert)('%s is allowed', async (_, markdown) => {
    expect(activeRenderers(markdown)).toEqual([]);
    expect(await effectOf(markdown)).toBe('allow');
  });
});
