// Hidden rounds 4 and 5 rebuilt for the browser (issue 41): pages and SVG documents a red team sends, each shown live
// by Chromium itself (a script or handler ran, or the page fetched or navigated off its origin by itself) and withheld
// by the shipped profile under every plausible sending (declared types, none, odd and uppercase extensions); benign
// controls load inert in Chromium and are allowed under every sending. Each attack is judged twice: by the shipped
// profile (which leaves text/html off its allow list, so an html sending is refused for its type whatever the page
// does), and with every type it is sent as allowed, where it must be withheld as active (executable, remote-load,
// too-complex), not for its type. Under CI=true a missing Chromium fails.
import { describe, expect, type TestContext, test } from 'vitest';
import { useChromium } from '../svg-html/chromium-suite.ts';
import {
  htmlAttacks,
  htmlSendings,
  type Page,
  ran,
  svgAttacks,
  svgControls,
  svgSendings,
} from './browser-round-pages.ts';
import { profileGate } from '../consumers/profile-gate.ts';
import { judgeSendings, letThrough, refused, type SendingVerdict, sendingsOf } from './judge-variants.ts';

const chromium = useChromium();
// every type an attack is sent as allowed: a sending is held only when the gate withholds it for what it does
const everyType = profileGate(undefined, ['text/html', 'application/octet-stream']);
const active = /^content\.(executable|remote-load|too-complex)$/;
const notHeldAsActive = (verdicts: readonly SendingVerdict[]): string[] =>
  verdicts
    .filter((v) => v.effect === 'allow' || !v.codes.some((c) => active.test(c)))
    .map((v) => `${v.sending}: ${v.effect} ${v.why}`);

// a page whose `<style>` imports a stylesheet from elsewhere: every sending a browser reads it as a page in (the
// raw html of a markdown page is not covered: docs/policy-reference.md)
const importPage: Page = [
  'a css @import in a page style',
  'text/html',
  '<p>Hi</p><style>@import "http://evil.test/x.css";</style>',
  'leaves',
];
const importSendings = sendingsOf(
  'guide://site/page',
  ['.html', '.HTM', '.txt', ''],
  ['text/html', 'text/plain', 'application/octet-stream', undefined],
);

test("Chromium fetches a page style's @import off the page, the shipped profile withholds it as remote-load", async (ctx) => {
  expect(await liveInChromium(ctx, importPage)).toBe(true);
  const verdicts = await judgeSendings(bodyOf(importPage[2]), importSendings);
  expect(letThrough(verdicts)).toEqual([]);
  expect(verdicts.filter((v) => !v.codes.includes('content.remote-load')).map((v) => v.sending)).toEqual([]);
  expect(notHeldAsActive(await judgeSendings(bodyOf(importPage[2]), importSendings, everyType))).toEqual([]);
});

// an ordinary page, with the markup of an attack shown as text: Chromium runs nothing, and with text/html allowed the
// gate allows it as a page (the attacks above are not withheld merely for being html)
const htmlControl: Page = [
  'an ordinary page showing a handler as text',
  'text/html',
  `<!doctype html><html><head><title>Guide</title><style>p{color:#333}</style></head><body><h1>Guide</h1><p>See <a href="#usage">usage</a>.</p><pre>&lt;img src=x onerror="${ran}"&gt;</pre><textarea><script>${ran}</script></textarea></body></html>`,
];

test('Chromium loads an ordinary page inert, the profile with text/html allowed allows it as a page', async (ctx) => {
  expect(await liveInChromium(ctx, htmlControl)).toBe(false);
  const sendings = sendingsOf('guide://site/page', ['.html', '.HTM', ''], ['text/html']);
  expect(refused(await judgeSendings(bodyOf(htmlControl[2]), sendings, everyType))).toEqual([]);
});

// Chromium loads the page served as `served` (`''`: with no type, Chromium sniffs); live when a script or handler ran by `load` (and after clicking
// `then`), or, for `then: 'leaves'`, when the page asks for anything off its origin by itself
async function liveInChromium(ctx: TestContext, [, served, body, then]: Page): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('**/*', (route) =>
      route.request().url() === 'http://page.test/page'
        ? route.fulfill(served === '' ? { body, headers: {} } : { contentType: served, body })
        : route.fulfill({ status: 404, body: '' }),
    );
    const leaving =
      then === 'leaves'
        ? page.waitForRequest((r) => !r.url().startsWith('http://page.test/'), { timeout: 60_000 })
        : undefined;
    await page.goto('http://page.test/page', { waitUntil: 'load' });
    if (leaving !== undefined) return (await leaving.then(() => true)) === true;
    if (then === undefined) return (await page.evaluate('window.__ran === 1')) === true;
    // an animation applies its value on a frame after load, and a `javascript:` link runs as a navigation task after
    // the click: wait for two frames before clicking, and for the script to have run after it (an attack expects it)
    await page.evaluate('new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)))');
    await page.click(then, { position: { x: 5, y: 5 } });
    return await page
      .waitForFunction('window.__ran === 1', undefined, { timeout: 60_000 })
      .then(() => true)
      .catch(() => false);
  } finally {
    await page.close();
  }
}

const bodyOf = (body: string | Buffer) => (typeof body === 'string' ? { text: body } : { blob: body });

describe('Chromium runs each attack, the shipped profile withholds it however it is sent', () => {
  test.for([
    ...svgAttacks.map((page) => ({ name: page[0], page, kind: 'svg' })),
    ...htmlAttacks.map((page) => ({ name: page[0], page, kind: 'html' })),
  ])('$name', { timeout: 120_000 }, async ({ page: attack, kind }, ctx) => {
    expect(await liveInChromium(ctx, attack)).toBe(true);
    const sendings = kind === 'svg' ? svgSendings : htmlSendings;
    expect(letThrough(await judgeSendings(bodyOf(attack[2]), sendings))).toEqual([]);
    expect(notHeldAsActive(await judgeSendings(bodyOf(attack[2]), sendings, everyType))).toEqual([]);
  });
});

// json data holding markup, served as json: Chromium shows it as text
const jsonControl: Page = [
  'json data holding markup in its strings',
  'application/json',
  JSON.stringify({ title: 'Embed', snippet: `<script>${ran}</script>`, html: `<img src=x onerror="${ran}">` }),
];

test('Chromium shows json data holding markup inert, the shipped profile allows it as json', async (ctx) => {
  expect(await liveInChromium(ctx, jsonControl)).toBe(false);
  const sendings = sendingsOf('guide://api/embed', ['.json', '.JSON', ''], ['application/json']);
  expect(refused(await judgeSendings(bodyOf(jsonControl[2]), sendings))).toEqual([]);
});

describe('Chromium loads each control inert, the shipped profile allows it however it is sent', () => {
  test.for(svgControls.map((page) => ({ name: page[0], page })))(
    '$name',
    { timeout: 120_000 },
    async ({ page: control }, ctx) => {
      expect(await liveInChromium(ctx, control)).toBe(false);
      const sendings = sendingsOf('guide://art/icon', ['.svg', '.SVG', ''], ['image/svg+xml', undefined]);
      expect(refused(await judgeSendings(bodyOf(control[2]), sendings))).toEqual([]);
    },
  );
});

// a README that opens with a centred heading and shows a browser install snippet in a fenced block: served as
// text/plain, Chromium shows it as text, and declared text or markdown it is the markdown renderers' under any name
// (the fence is code to them: lead's design call, session 14); served with no type, Chromium sniffs it as a page and
// the fenced script runs, so undeclared it is withheld under any name
const readme: Page = [
  'a README with a fenced script snippet, served as text/plain',
  'text/plain',
  `<p align="center"><img src="logo.png" width="120"></p>\n\n# widget\n\nIn a browser:\n\n\`\`\`html\n<script src="https://cdn.example.com/widget.js"></script>\n<script>${ran}</script>\n\`\`\`\n`,
];

test('Chromium shows a README served as text/plain inert and runs it served with no type: the shipped profile allows it declared text or markdown and withholds it undeclared', async (ctx) => {
  expect(await liveInChromium(ctx, readme)).toBe(false);
  const declared = sendingsOf(
    'guide://repo/README',
    ['.md', '.markdown', '.MD', '', '.txt'],
    ['text/plain', 'text/markdown'],
  );
  expect(refused(await judgeSendings(bodyOf(readme[2]), declared))).toEqual([]);
  expect(await liveInChromium(ctx, [readme[0], '', readme[2]])).toBe(true);
  const undeclared = sendingsOf('guide://repo/README', ['.md', '', '.txt'], [undefined]);
  expect(letThrough(await judgeSendings(bodyOf(readme[2]), undeclared))).toEqual([]);
});
