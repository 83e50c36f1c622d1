// Hidden round 4 rebuilt for markdown renderers (issue 41): pages a red team sends as markdown or text, each rendered
// by the five real renderers in the presets their users run (markdown-differential.ts) and opened in Chromium; an
// attack is live when some renderer's page ran its script or handler, and is withheld by the shipped profile under
// every plausible sending. Controls render inert in every renderer (or, for source files declared text/plain, load
// inert in Chromium as the text they are declared) and are allowed. Under CI=true a missing Chromium fails.
import { describe, expect, type TestContext, test } from 'vitest';
import { realRenderers } from '../markdown/markdown-differential.ts';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from './judge-variants.ts';

const chromium = useChromium();
const ran = 'window.__ran=1';

const attacks: [string, string][] = [
  ['a details ontoggle block', `# Notes\n\n<details open ontoggle="${ran}"><summary>x</summary></details>\n`],
  ['a handler in a gfm table cell', `| a | b |\n|---|---|\n| 1 | <img src=x onerror="${ran}"> |\n`],
  ['a handler in a footnote', `See this[^1].\n\n[^1]: <img src=x onerror="${ran}">\n`],
  ['a handler in a nested list item', `- one\n  - two\n    - <img src=x onerror="${ran}">\n`],
  ['a handler in a block quote', `> quoted\n> <img src=x onerror="${ran}">\n`],
  ['a handler in a setext heading', `Title <img src=x onerror="${ran}">\n===\n`],
  ['an svg animate onbegin inline', `Chart: <svg><animate onbegin="${ran}" attributeName="x" dur="1s"/></svg>\n`],
  ['a noscript title hiding an img', `<noscript><p title="</noscript><img src=x onerror=${ran}>"></p></noscript>\n`],
  ['a script tag broken across lines', `Intro\n\n<script\n>${ran}</script>\n`],
  ['a handler after a comment block', `<!-- generated -->\n<img src=x onerror="${ran}">\n`],
  ['a handler inside emphasis', `*see <img src=x onerror="${ran}">*\n`],
  ['a handler with CRLF lines and a BOM', `\ufeff# Notes\r\n\r\n<IMG SRC=x ONERROR="${ran}">\r\n`],
];

const mdSendings = sendingsOf(
  'guide://docs/guide',
  ['.md', '.MARKDOWN', '.txt', ''],
  ['text/markdown', 'text/plain', 'application/octet-stream', undefined],
);

// name, body, how the oracle reads it ('markdown': every renderer's page; 'text': Chromium shown the text as
// text/plain), sendings
const controls: [string, string, 'markdown' | 'text', Sending[]][] = [
  [
    'typescript source with object, base and iframe in strings and jsx',
    'export const embed = (src: string) => `<object data="${src}"></object>`;\nexport const base = \'<base href="/app/">\';\nexport function Frame() {\n  return <iframe src="https://example.com/" title="x" />;\n}\n',
    'text',
    sendingsOf('guide://src/embed', ['.ts', '.TS', '.tsx', '.d.ts'], ['text/plain']),
  ],
  [
    'css source with markup in comments and content',
    '/* <iframe src="x"></iframe> and <base href="/"> */\n.note::before { content: "<object>"; }\n.icon { background: url(data:image/png;base64,iVBORw0KGgo=); }\n',
    'text',
    sendingsOf('guide://src/site', ['.css', '.CSS', '.scss'], ['text/plain']),
  ],
  [
    'a how-to showing a script in a fence and a handler in code',
    '# Embedding\n\n```html\n<script>window.__ran=1</script>\n```\n\nAvoid `<img src=x onerror=alert(1)>`.\n',
    'markdown',
    // untyped it is text to a browser (no HTML signature at its start), and text/plain is never sniffed as a page
    sendingsOf('guide://docs/howto', ['.md', '.MARKDOWN', '.txt', ''], ['text/markdown', 'text/plain', undefined]),
  ],
  [
    'an indented code block and escaped markup',
    '# Notes\n\n    <img src=x onerror=alert(1)>\n\nWrite \\<img src=x onerror=alert(1)> to see it.\n',
    'markdown',
    sendingsOf('guide://docs/notes', ['.md', '.txt', ''], ['text/markdown']),
  ],
  [
    'a readme with a table, a task list and a footnote',
    '# Project\n\n- [x] build\n- [ ] ship\n\n| os | ok |\n|---|---|\n| linux | yes |\n\nDone[^1].\n\n[^1]: see <https://example.com/>\n',
    'markdown',
    sendingsOf('guide://docs/README', ['.md', '.MD', ''], ['text/markdown', 'text/plain', undefined]),
  ],
];

// whether the html ran anything in Chromium by `load`
async function runs(ctx: TestContext, contentType: string, body: string): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('**/*', (route) =>
      route.request().url() === 'http://md.test/'
        ? route.fulfill({ contentType, body })
        : route.fulfill({ status: 404, body: '' }),
    );
    await page.goto('http://md.test/', { waitUntil: 'load' });
    return (await page.evaluate('window.__ran === 1')) === true;
  } finally {
    await page.close();
  }
}

// the renderers whose page of `md` ran something in Chromium
async function liveIn(ctx: TestContext, md: string): Promise<string[]> {
  const live: string[] = [];
  for (const [name, render] of Object.entries(realRenderers))
    if (await runs(ctx, 'text/html', `<!doctype html><html><body>${render(md)}</body></html>`)) live.push(name);
  return live;
}

describe('a real renderer makes each attack live, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map(([name, body]) => ({ name, body })))('$name', { timeout: 120_000 }, async ({ body }, ctx) => {
    expect(await liveIn(ctx, body)).not.toEqual([]);
    expect(letThrough(await judgeSendings({ text: body }, mdSendings))).toEqual([]);
  });
});

describe('each control is inert in its consumer, the shipped profile allows it however it is sent', () => {
  test.for(controls.map(([name, body, reader, sendings]) => ({ name, body, reader, sendings })))(
    '$name',
    { timeout: 120_000 },
    async ({ body, reader, sendings }, ctx) => {
      if (reader === 'markdown') expect(await liveIn(ctx, body)).toEqual([]);
      else expect(await runs(ctx, 'text/plain', body)).toBe(false);
      expect(refused(await judgeSendings({ text: body }, sendings))).toEqual([]);
    },
  );
});
