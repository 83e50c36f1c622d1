// `<link rel=prefetch|preload|prerender|dns-prefetch|preconnect|modulepreload>` to another origin in markdown follows
// the remote-image rule (lead's design call, session 14): a page a renderer makes fetches it without a click, as it
// fetches `![](https://…)`, and the content rules judge neither (a url in a body is not a link the gate decides; no
// policy setting withholds either). So each gets the verdict a remote image gets, under every shipped policy that
// admits markdown. What Chromium really fetches is measured here (a request routed off the page's origin): prefetch,
// modulepreload and preload with an `as` do; preload without `as`, prerender, preconnect and dns-prefetch ask for no
// url. A `<link rel="stylesheet">` is not such a fetch: its css applies to the page, and it stays withheld
// (`content.remote-load`). Under CI=true a missing Chromium fails.
import path from 'node:path';
import { describe, expect, type TestContext, test } from 'vitest';
import { createGate } from '../../../src/gate/create-gate.ts';
import { loadPolicy } from '../../../src/policy/load-policy.ts';
import { repoRoot } from '../../helpers/shared-dir.ts';
import { realRenderers } from '../markdown/markdown-differential.ts';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { judgeSendings } from './judge-variants.ts';

const chromium = useChromium();
const off = 'https://cdn.off.test/x';
const image = `# Tool\n\n![logo](${off})\n`;
const linkIn = (attrs: string): string => `# Tool\n\n<link ${attrs} href="${off}">\n\nFast.\n`;
const rels: readonly [string, string, boolean][] = [
  ['prefetch', 'rel="prefetch"', true],
  ['modulepreload', 'rel="modulepreload"', true],
  ['preload as image', 'rel="preload" as="image"', true],
  ['preload as script', 'rel="preload" as="script"', true],
  ['preload as style', 'rel="preload" as="style"', true],
  ['preload as fetch', 'rel="preload" as="fetch" crossorigin', true],
  ['preload without as', 'rel="preload"', false],
  ['prerender', 'rel="prerender"', false],
  ['preconnect', 'rel="preconnect"', false],
  ['dns-prefetch', 'rel="dns-prefetch"', false],
];

// the urls off its origin a renderer's page asks for: where one is expected, once it came (a prefetch may come after
// `load`; the test's timeout bounds the wait); else by `load` and one more round trip the page makes
async function fetchedOff(ctx: TestContext, page: string, expected: boolean): Promise<string[]> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const tab = await browser.newPage();
  const asked: string[] = [];
  let came: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    came = resolve;
  });
  try {
    await tab.route('**/*', (route) => {
      const url = route.request().url();
      if (url === 'http://md.test/')
        return route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><body>${page}</body></html>` });
      if (!url.startsWith('http://md.test/')) {
        asked.push(url);
        came();
      }
      return route.fulfill({ status: 404, body: '' });
    });
    await tab.goto('http://md.test/', { waitUntil: 'load' });
    if (expected) await first;
    await tab.evaluate("fetch('http://md.test/after').then(() => true, () => true)");
    return asked;
  } finally {
    await tab.close();
  }
}

const policies = ['default', 'strict', 'web-public'];
const gates = await Promise.all(
  policies.map(async (name) => createGate(await loadPolicy(path.join(repoRoot, `policies/${name}.yaml`)))),
);
const verdicts = async (md: string): Promise<string[]> => {
  const out: string[] = [];
  for (const [i, gate] of gates.entries()) {
    const judged = await judgeSendings(
      { text: md },
      [
        ['guide://docs/readme.md', 'text/markdown'],
        ['guide://docs/readme', 'text/plain'],
      ],
      gate,
    );
    out.push(...judged.map((v) => `${policies[i]} ${v.sending}: ${v.effect} ${v.codes.join(',')}`));
  }
  return out;
};

describe('a preload link to another origin gets the verdict a remote image gets', () => {
  test('a remote image: Chromium fetches it, every policy allows it', { timeout: 60_000 }, async (ctx) => {
    expect(await fetchedOff(ctx, (realRenderers.marked as (md: string) => string)(image), true)).toEqual([off]);
    expect((await verdicts(image)).filter((v) => !/: allow $/.test(v))).toEqual([]);
  });

  test.for(rels)('%s', { timeout: 60_000 }, async ([, attrs, fetches], ctx) => {
    const md = linkIn(attrs);
    // commonmark.js keeps raw html as written
    const asked = await fetchedOff(ctx, (realRenderers['commonmark.js'] as (md: string) => string)(md), fetches);
    expect(asked).toEqual(fetches ? [off] : []);
    expect(await verdicts(md)).toEqual(await verdicts(image));
  });

  test('a stylesheet from elsewhere is fetched and applied, and withheld', { timeout: 60_000 }, async (ctx) => {
    const md = linkIn('rel="stylesheet"');
    expect(await fetchedOff(ctx, (realRenderers['commonmark.js'] as (md: string) => string)(md), true)).toEqual([off]);
    expect((await verdicts(md)).filter((v) => !/remote-load/.test(v))).toEqual([]);
  });
});
