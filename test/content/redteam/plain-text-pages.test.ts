// Text declared text/plain that opens with a tag is a page only by what the markdown renderers make of it (lead's
// design call, session 14): Chromium shows text/plain as text, and a host that renders it renders it as markdown. A
// README that shows a `<script>` only in an html fence (protobufjs's, hashery's; round11-browser and round11-markdown
// hold them as controls) is code on every renderer's page and allowed; the same README with the script outside the
// fence runs on a renderer's page and stays denied, as does a whole html document declared text/plain (the browser
// still reads one). The oracles are Chromium (text/plain served as such) and the five real renderers' pages in it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { repoRoot } from '../../helpers/shared-dir.ts';
import { mustRunRealParts } from '../../real-host/host-suite.ts';
import { realRenderers } from '../markdown/markdown-differential.ts';
import { useChromiumOracles } from './chromium-oracles.ts';
import { judgeSendings, letThrough, refused, type Sending } from './judge-variants.ts';

const { isLive, pageRuns } = useChromiumOracles();
const sendings: Sending[] = [
  ['guide://pkg/README', 'text/plain'],
  ['guide://pkg/README.md', 'text/plain'],
  ['guide://pkg/README.md', 'text/markdown'],
];
const ran = "fetch('http://ran.test/')";

function readme(ctx: TestContext, file: string): string {
  const at = path.join(repoRoot, 'node_modules', file);
  if (!existsSync(at)) {
    if (mustRunRealParts()) throw new Error(`${at} is missing under CI=true`);
    return ctx.skip(`${at} is missing`);
  }
  // the README's own fenced script, made to report a run the oracle sees
  return readFileSync(at, 'utf8').replace(/<script\b[^>]*>/, (tag) => `${tag}${ran};`);
}

// the README with its first html fence's markers taken out: the script is raw html to every renderer
const unfenced = (md: string): string => md.replace(/```html\n([\s\S]*?)```/, '\n$1\n');

describe('a README declared text/plain that opens with a tag: its fenced script is code', () => {
  test.for(['protobufjs/README.md', 'hashery/README.md'])('%s is allowed', { timeout: 180_000 }, async (file, ctx) => {
    const md = readme(ctx, file);
    expect(md).toMatch(/```html\n[^`]*<script[^>]*>fetch/);
    expect(await isLive(ctx, 'text/plain', md)).toBe(false);
    const live: string[] = [];
    for (const [name, render] of Object.entries(realRenderers))
      if (await pageRuns(ctx, render(md), false)) live.push(name);
    expect(live).toEqual([]);
    expect(refused(await judgeSendings({ text: md }, sendings))).toEqual([]);
  });

  // (hashery's fence holds a blank line inside its module script: unfenced, the markdown around it breaks the script)
  test.for(['protobufjs/README.md'])(
    '%s with the script outside its fence runs on a renderer page and is denied',
    { timeout: 180_000 },
    async (file, ctx) => {
      const md = unfenced(readme(ctx, file));
      expect(md).not.toMatch(/```html\n[^`]*<script[^>]*>fetch/);
      expect(await pageRuns(ctx, (realRenderers['commonmark.js'] as (s: string) => string)(md), true)).toBe(true);
      expect(letThrough(await judgeSendings({ text: md }, sendings))).toEqual([]);
    },
  );

  test('a whole html document declared text/plain stays a page', async () => {
    const page = `<!doctype html>\n<html><body>\n<p>notes</p>\n\n    <script>${ran}</script>\n</body></html>\n`;
    // indented after a blank line, the script is code to a markdown renderer: only the browser's reading finds it
    expect(letThrough(await judgeSendings({ text: page }, [['guide://pkg/notes', 'text/plain']]))).toEqual([]);
  });
});
