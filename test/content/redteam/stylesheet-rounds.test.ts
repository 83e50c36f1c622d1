// A fresh round for the browser (issue 41): stylesheets a page, an SVG document or a rendered markdown page loads
// from elsewhere by itself, the same load a css `@import` makes (withheld as content.remote-load since cbe5a28) but
// written as a `<link rel="stylesheet">` or a css `xml-stylesheet` instruction. Chromium is the oracle: an attack is
// live when the page, as served (or as each real markdown renderer renders it), asks for anything off its origin by
// itself; a control loads only from its own origin. Under CI=true a missing Chromium fails.
import { describe, expect, type TestContext, test } from 'vitest';
import { realRenderers } from '../markdown/markdown-differential.ts';
import { useChromium } from '../svg-html/chromium-suite.ts';
import { judgeSendings, letThrough, refused, type Sending, sendingsOf } from './judge-variants.ts';

const chromium = useChromium();
const svgNs = 'http://www.w3.org/2000/svg';
const xhtmlNs = 'http://www.w3.org/1999/xhtml';
const origin = 'http://page.test/';

// the urls Chromium asked for off the page's origin once `html` (served as `served`) had loaded
async function offOriginLoads(ctx: TestContext, served: string, body: string): Promise<string[]> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  const asked: string[] = [];
  try {
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === `${origin}page`) return route.fulfill({ contentType: served, body });
      if (!url.startsWith(origin)) asked.push(url);
      return route.fulfill({ status: 404, body: '' });
    });
    // `load` waits for every stylesheet the document asked for
    await page.goto(`${origin}page`, { waitUntil: 'load' });
    return asked;
  } finally {
    await page.close();
  }
}

// the renderers whose page of `md` loads a stylesheet off the page
async function renderersLoadingOff(ctx: TestContext, md: string): Promise<string[]> {
  const live: string[] = [];
  for (const [name, render] of Object.entries(realRenderers)) {
    const page = `<!doctype html><html><body>${render(md)}</body></html>`;
    if ((await offOriginLoads(ctx, 'text/html', page)).length > 0) live.push(name);
  }
  return live;
}

const pageSendings = sendingsOf(
  'guide://site/page',
  ['.html', '.HTM', '.xhtml', ''],
  ['text/plain', 'application/octet-stream', undefined],
);
// a control is sent only as types default.yaml admits (octet-stream is refused by type, whatever the body); an
// undeclared `.xhtml` name is an XHTML page read by the XML parser its name brings, admitted as the `.html` page is
const controlPageSendings = sendingsOf('guide://site/page', ['.html', '.HTM', '.xhtml', ''], ['text/plain', undefined]);
const svgSendings = sendingsOf(
  'guide://art/logo',
  ['.svg', '.SVG', ''],
  ['image/svg+xml', 'text/plain', 'application/xml', undefined],
);
const mdSendings = sendingsOf(
  'guide://docs/guide',
  ['.md', '.markdown', '.txt'],
  ['text/markdown', 'text/plain', undefined],
);

// name, the type Chromium is served (`markdown`: rendered by every real renderer first), body, sendings
type Case = readonly [name: string, served: string, body: string, sendings: readonly Sending[]];

const attacks: Case[] = [
  [
    'a page linking a stylesheet off its origin',
    'text/html',
    '<link rel="stylesheet" href="http://evil.test/x.css"><p>Release notes</p>',
    pageSendings,
  ],
  [
    'a page linking a protocol-relative stylesheet',
    'text/html',
    '<!doctype html><title>x</title><link href="//evil.test/x.css" rel=stylesheet><p>x</p>',
    pageSendings,
  ],
  [
    'a page whose link rel lists stylesheet among other tokens, uppercase',
    'text/html',
    '<LINK REL="Icon  STYLESHEET" HREF="HTTP://EVIL.TEST/x.css"><p>x</p>',
    pageSendings,
  ],
  [
    'a page linking a stylesheet in its body, after CRLF lines',
    'text/html',
    '<p>Intro</p>\r\n<div>\r\n<link\r\nrel=stylesheet\r\nhref=http://evil.test/x.css>\r\n</div>\r\n',
    pageSendings,
  ],
  [
    'a page linking a data: stylesheet that imports another',
    'text/html',
    `<link rel=stylesheet href="data:text/css,${encodeURIComponent('@import url(http://evil.test/x.css);')}"><p>x</p>`,
    pageSendings,
  ],
  [
    'an svg with a css xml-stylesheet instruction off its origin',
    'image/svg+xml',
    `<?xml version="1.0"?>\n<?xml-stylesheet type="text/css" href="http://evil.test/x.css"?>\n<svg xmlns="${svgNs}"><rect width="5" height="5"/></svg>`,
    svgSendings,
  ],
  [
    'an svg with an xml-stylesheet written with character references',
    'image/svg+xml',
    `<?xml-stylesheet href="&#104;ttp://evil.test/x.css" type='text/css'?><svg xmlns="${svgNs}"><rect width="5" height="5"/></svg>`,
    svgSendings,
  ],
  [
    'an svg holding an xhtml link to a stylesheet',
    'image/svg+xml',
    `<svg xmlns="${svgNs}"><link xmlns="${xhtmlNs}" rel="stylesheet" href="http://evil.test/x.css"/><rect width="5" height="5"/></svg>`,
    svgSendings,
  ],
  [
    'an svg holding a prefixed xhtml link to a stylesheet',
    'image/svg+xml',
    `<svg xmlns="${svgNs}" xmlns:h="${xhtmlNs}"><h:link rel="stylesheet" href="http://evil.test/x.css"/><rect width="5" height="5"/></svg>`,
    svgSendings,
  ],
  [
    'a readme whose raw html links a stylesheet',
    'markdown',
    '# Widget\n\n<link rel="stylesheet" href="https://evil.test/theme.css">\n\nA small widget.\n',
    mdSendings,
  ],
  [
    'a readme linking a stylesheet inline in a paragraph',
    'markdown',
    'Styled by <link rel=stylesheet href=//evil.test/x.css> the theme.\n',
    mdSendings,
  ],
];

const controls: Case[] = [
  [
    'a page linking its own stylesheet by a relative path',
    'text/html',
    '<link rel="stylesheet" href="style.css"><link rel=stylesheet href="../theme/print.css" media=print><p>Docs</p>',
    controlPageSendings,
  ],
  [
    'a page with an icon and a canonical link off its origin',
    'text/html',
    '<link rel="canonical" href="https://example.com/docs/"><link rel="alternate" type="application/rss+xml" href="https://example.com/feed.xml"><p>Docs</p>',
    controlPageSendings,
  ],
  [
    'an svg with a relative css xml-stylesheet',
    'image/svg+xml',
    `<?xml version="1.0"?>\n<?xml-stylesheet type="text/css" href="icons.css"?>\n<svg xmlns="${svgNs}"><rect class="a" width="5" height="5"/></svg>`,
    sendingsOf('guide://art/icon', ['.svg', ''], ['image/svg+xml', undefined]),
  ],
  [
    'a readme showing a cdn stylesheet link in a fenced code block',
    'markdown',
    '# Carousel\n\nAdd this to your `<head>`:\n\n```html\n<link rel="stylesheet" type="text/css" href="https://cdn.jsdelivr.net/gh/kenwheeler/slick@1.8.1/slick/slick.css"/>\n```\n',
    mdSendings,
  ],
];

async function liveOff(ctx: TestContext, [, served, body]: Case): Promise<boolean> {
  if (served === 'markdown') return (await renderersLoadingOff(ctx, body)).length > 0;
  return (await offOriginLoads(ctx, served, body)).length > 0;
}

describe('Chromium loads a stylesheet off the page for each attack, the shipped profile withholds it however it is sent', () => {
  test.for(attacks.map((c) => ({ name: c[0], c })))('$name', { timeout: 120_000 }, async ({ c }, ctx) => {
    expect(await liveOff(ctx, c)).toBe(true);
    const verdicts = await judgeSendings({ text: c[2] }, c[3]);
    expect(letThrough(verdicts)).toEqual([]);
    // withheld for the load (or for being a page at all), never allowed
    expect(verdicts.filter((v) => v.effect === 'allow').map((v) => v.sending)).toEqual([]);
  });
});

describe('Chromium loads each control only from its own origin, the shipped profile allows it however it is sent', () => {
  test.for(controls.map((c) => ({ name: c[0], c })))('$name', { timeout: 120_000 }, async ({ c }, ctx) => {
    expect(await liveOff(ctx, c)).toBe(false);
    expect(refused(await judgeSendings({ text: c[2] }, c[3]))).toEqual([]);
  });
});
