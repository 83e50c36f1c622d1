// The browser consumer against Chromium itself (issue 41 item 6): each page is served to the system Chromium (the
// oracle) as the type it is declared. An attack is shown active by Chromium (its script or handler ran by the
// `load` event) and withheld by the gate's browser adapter alone; a benign control loads inert in Chromium and is
// allowed under the default profile. Under CI=true a missing Chromium fails the suite (chromium-suite.ts).
import { describe, expect, type TestContext, test } from 'vitest';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { decideBody, profileGate } from './profile-gate.ts';

const browserOnly = profileGate(['browser']);
// the default profile, with html pages allowed as a type (default.yaml admits svg but not html)
const defaults = profileGate(undefined, ['text/html']);
const chromium = useChromium();

const ran = 'window.__ran=1';
const svgNs = 'http://www.w3.org/2000/svg';
const svgImage = (inner: string): string =>
  `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="${svgNs}" width="10" height="10">${inner}</svg>`).toString('base64')}`;

// name, declared type, page
const attacks: [string, string, string][] = [
  ['a script element', 'text/html', `<!doctype html><p>Hi</p><script>${ran}</script>`],
  ['an image error handler', 'text/html', `<p>Hi</p><img src="missing.png" onerror="${ran}">`],
  ['a body load handler', 'text/html', `<body onload="${ran}"><p>Hi</p></body>`],
  ['a srcdoc frame', 'text/html', `<iframe srcdoc="<script>parent.__ran=1</script>"></iframe>`],
  ['an svg load handler, as a document', 'image/svg+xml', `<svg xmlns="${svgNs}" onload="${ran}"/>`],
  ['an svg script, as a document', 'image/svg+xml', `<svg xmlns="${svgNs}"><script>${ran}</script></svg>`],
  ['an svg in html with a handler', 'text/html', `<p>Chart</p><svg><image href="missing.png" onerror="${ran}"/></svg>`],
  [
    'xhtml script in a foreignObject',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><foreignObject width="9" height="9"><script xmlns="http://www.w3.org/1999/xhtml">${ran}</script></foreignObject></svg>`,
  ],
  [
    'markup in text a sniffing host shows as html',
    'text/csv',
    `name,note\nx,<img src="missing.png" onerror="${ran}">\n`,
  ],
];

const controls: [string, string, string][] = [
  [
    'an ordinary page',
    'text/html',
    '<!doctype html><html><head><title>Guide</title><style>p{color:#333}</style></head><body><h1>Guide</h1><p>See <a href="https://example.com/">the site</a>.</p><table><tr><td>1</td></tr></table></body></html>',
  ],
  [
    'an icon',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" viewBox="0 0 24 24"><path d="M12 2L2 22h20z" fill="#333"/></svg>`,
  ],
  [
    'an svg image with script, shown by <img> (image mode runs no script)',
    'text/html',
    `<!doctype html><p>Logo</p><img src="${svgImage(`<script>parent.__ran=1</script><rect onclick="x" width="5" height="5"/>`)}">`,
  ],
  [
    'an svg showing another svg through <image> (what Inkscape writes)',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" width="20" height="20"><image width="10" height="10" href="${svgImage('<script>parent.__ran=1</script>')}"/></svg>`,
  ],
];

// Chromium opens the page as its declared type; `load` fires after every frame and image has loaded or failed,
// so every handler that would run has run
async function runsInChromium(ctx: TestContext, mimeType: string, body: string): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('http://page.test/**', (route) =>
      route.request().url() === 'http://page.test/page'
        ? route.fulfill({ contentType: mimeType === 'text/csv' ? 'text/html' : mimeType, body })
        : route.fulfill({ status: 404, body: '' }),
    );
    await page.goto('http://page.test/page', { waitUntil: 'load' });
    return (await page.evaluate('window.__ran === 1')) === true;
  } finally {
    await page.close();
  }
}

describe('Chromium runs each attack, the gate withholds it', () => {
  test.for(attacks)('%s', async ([, mime, body], ctx) => {
    expect(await runsInChromium(ctx, mime, body)).toBe(true);
    const verdict = await decideBody(browserOnly, 'guide://site/page', mime, { text: body });
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/executable or active content/);
  });
});

describe('Chromium loads each control inert, the gate allows it', () => {
  test.for(controls)('%s', async ([, mime, body], ctx) => {
    expect(await runsInChromium(ctx, mime, body)).toBe(false);
    expect(await decideBody(defaults, 'guide://site/page', mime, { text: body })).toEqual({ effect: 'allow', why: '' });
  });
});
