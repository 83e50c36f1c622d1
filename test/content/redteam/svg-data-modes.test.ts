// An svg `data:` url in markdown, judged in the mode its consumer runs it in (lead's design call, session 14): every
// renderer draws a markdown image as an `<img>` (or, markdown-it, refuses the url and shows the text), where Chromium
// runs an svg with script off and loads nothing from it, so the image is allowed; the same svg through `<object>`,
// `<embed>` or `<iframe>` is a document whose script runs, and as a link target or a refresh a navigation to one, so
// those stay denied. The oracle is the five real renderers (markdown-differential.ts), each page opened in Chromium
// (chromium-oracles.ts): the inner svg reports a run by fetching a url off the page's origin. Under CI=true a missing
// Chromium fails.
import { describe, expect, test } from 'vitest';
import { realRenderers } from '../markdown/markdown-differential.ts';
import { useChromiumOracles } from './chromium-oracles.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const { pageRuns } = useChromiumOracles();
const inner = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>fetch('http://ran.test/',{mode:'no-cors'})</script><rect width="8" height="8" fill="teal"/></svg>`;
const data = `data:image/svg+xml;base64,${Buffer.from(inner).toString('base64')}`;
const sendings = sendingsOf('guide://docs/readme', ['.md', ''], ['text/markdown', 'text/plain', undefined]);
// commonmark.js keeps raw html as written: its page is the one each element is loaded from
const commonmarkJs = realRenderers['commonmark.js'] as (md: string) => string;

describe('a markdown image of an svg data url: drawn with script off by every renderer, allowed', () => {
  test.for([
    ['inline', `# Tool\n\n![logo](${data}) fast.\n`],
    ['by reference', `# Tool\n\n![logo][l]\n\n[l]: ${data}\n`],
    ['inside a link elsewhere', `# Tool\n\n[![logo](${data})](https://example.com/tool)\n`],
  ] as const)('%s', { timeout: 120_000 }, async ([, md], ctx) => {
    const live: string[] = [];
    for (const [name, render] of Object.entries(realRenderers))
      if (await pageRuns(ctx, render(md), false)) live.push(name);
    expect(live).toEqual([]);
    expect(refused(await judgeSendings({ text: md }, sendings))).toEqual([]);
  });
});

describe('the same svg as a document stays denied', () => {
  test.for([
    ['an `<object>`', `# Tool\n\n<object data="${data}"></object>\n`],
    ['an `<embed>`', `# Tool\n\n<embed src="${data}">\n`],
    ['an `<iframe>`', `# Tool\n\n<iframe src="${data}"></iframe>\n`],
  ] as const)('%s: its script runs in Chromium, the gate denies', { timeout: 120_000 }, async ([, md], ctx) => {
    expect(await pageRuns(ctx, commonmarkJs(md), true)).toBe(true);
    expect(letThrough(await judgeSendings({ text: md }, sendings))).toEqual([]);
  });

  // Chromium refuses a page's navigation of the top frame to a `data:` url (since Chrome 60; Firefox since 59), so a
  // click or a refresh runs nothing there: denied by the design call all the same, for hosts whose webview allows it
  test.for([
    ['a link target', `# Tool\n\n[logo](${data})\n`, 'a'],
    ['a link target by reference', `# Tool\n\n[logo][l]\n\n[l]: ${data}\n`, 'a'],
    ['a refresh', `# Tool\n\n<meta http-equiv="refresh" content="0;url=${data}">\n`, null],
  ] as const)(
    '%s: Chromium refuses the navigation, the gate denies',
    { timeout: 120_000 },
    async ([, md, click], ctx) => {
      const act = click === null ? undefined : (tab: { click: (s: string) => Promise<void> }) => tab.click(click);
      expect(await pageRuns(ctx, commonmarkJs(md), false, act)).toBe(false);
      expect(letThrough(await judgeSendings({ text: md }, sendings))).toEqual([]);
    },
  );
});
