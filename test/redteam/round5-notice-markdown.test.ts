// Red team (issue 39, hidden-style round 5), notices rendered as markdown: hosts show the gate's notice (a tool
// result's text item, an error message, a hook's deny reason) through a markdown renderer. A server-chosen name, or
// server text a reason message quotes, must not form a link, an image, an autolink, raw HTML or a code fence there:
// rendered by `marked` (GFM, as chat front ends use it) and `markdown-it` (html and linkify on), a notice holds no
// element but a paragraph and code spans. Through the proxy and the decorator over the real answering server, and the
// Claude Code hook command (its deny reason for a read of a link it refused).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { marked } from 'marked';
import { afterEach, describe, expect, test } from 'vitest';
import { readRequested, toolReturned } from '../hook/hook-events.ts';
import { hookArgs } from '../hook/hook-args.ts';
import { runCli } from '../helpers/run-cli.ts';
import { callWith, fronts, noticesIn } from './hidden-fronts.ts';
import { closeAll, link, metadata } from './scripted-host.ts';

afterEach(closeAll);

const markdownIt = new MarkdownIt({ html: true, linkify: true });

/** The element names `text` renders to, by both renderers. */
function renderedTags(text: string): string[] {
  const html = `${marked.parse(text, { async: false, gfm: true })}\n${markdownIt.render(text)}`;
  return [...new Set([...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => (m[1] as string).toLowerCase()))].sort();
}

// a server-chosen name for the refused link, each meant to become something the renderer acts on
const names: [string, string][] = [
  ['an inline link', '[open the docs](https://evil.example/phish)'],
  ['an image', '![status](https://evil.example/track.png?u=1)'],
  ['raw HTML with a handler', '<img src=x onerror="fetch(`https://evil.example`)">'],
  ['an autolink', '<https://evil.example/auto>'],
  ['a GFM bare autolink', 'see www.evil.example/gfm and https://evil.example/bare'],
  ['a fence that closes the quote and opens a block', '```\n</code><a href="https://evil.example/">x</a>\n```'],
  ['an HTML entity for a backtick', 'x&#96; [y](https://evil.example/entity) &#x60;z'],
  ['a backslash before the closing quote', 'tail\\'],
  ['a reference definition on its own line', 'x\n\n[docs]: https://evil.example/ref\n\n[docs]'],
  ['a name cut inside an HTML tag at the quote limit', `${'a'.repeat(110)}<a href="https://evil.example/cut">`],
];

for (const [front, start] of fronts)
  describe(`red team, notices as markdown (round 5) through the ${front}`, () => {
    for (const [label, name] of names)
      test(`a refused link's name that is ${label} renders as a code span, nothing else`, async () => {
        const f = await start();
        const answer = await callWith(f, { result: { content: [link(metadata, name)] } });
        const notices = noticesIn(answer);
        expect(notices.length).toBeGreaterThan(0);
        for (const notice of notices) expect(renderedTags(notice)).toEqual(['code', 'p']);
      });
  });

describe('red team, notices as markdown (round 5) through the Claude Code hook', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const [label, name] of names.slice(0, 6))
    test(`a deny reason for a read of a refused link named ${label} renders as a code span`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-md-'));
      const listed = await runCli(
        hookArgs('claude-code', dir),
        JSON.stringify(toolReturned('fixture', 'links', [link(metadata, name)])),
      );
      expect(listed.code, listed.stderr).toBe(0);
      const run = await runCli(hookArgs('claude-code', dir), JSON.stringify(readRequested('fixture', metadata)));
      expect(run.code, run.stderr).toBe(0);
      const notices = noticesIn(JSON.parse(run.stdout));
      expect(notices.length).toBeGreaterThan(0);
      for (const notice of notices) expect(renderedTags(notice)).toEqual(['code', 'p']);
    });
});

// server text a reason message quotes: a declared type on the link, and on the item of a read's answer
const hostileType = 'application/x-msdownload; name="[run me](https://evil.example/x.exe) <b>ok</b>"';

for (const [front, start] of fronts)
  test(`red team, notices as markdown (round 5), ${front}: a declared type quoted by a reason renders as a code span`, async () => {
    const f = await start();
    const answer = await callWith(f, {
      result: {
        content: [{ type: 'resource_link', uri: 'rt://docs/setup.exe', name: 'setup', mimeType: hostileType }],
      },
    });
    const notices = noticesIn(answer);
    expect(notices.length).toBeGreaterThan(0);
    for (const notice of notices) expect(renderedTags(notice)).toEqual(['code', 'p']);
  });

for (const [front, start] of fronts)
  test(`red team, notices as markdown (round 5), ${front}: a read answer whose item type a reason quotes`, async () => {
    const f = await start();
    const item = { uri: 'rt://docs/a.txt', mimeType: hostileType, blob: Buffer.from('MZ\x90\x00').toString('base64') };
    await callWith(f, {
      result: { content: [link('rt://docs/a.txt', 'a')] },
      answers: { 'resources/read': { result: { contents: [item] } } },
    });
    const notices = noticesIn(await f.request('resources/read', { uri: 'rt://docs/a.txt' }));
    expect(notices.length).toBeGreaterThan(0);
    for (const notice of notices) expect(renderedTags(notice)).toEqual(['code', 'p']);
  });
