// SVG as drawing tools export it (issue 41 item 5: no ordinary file blocked). Adobe Illustrator's classic export
// declares its namespace uris as entities in an internal DTD subset, and draw.io keeps its diagram in the root's
// `content` attribute: Chromium shows both inert, and the shipped profile allows them. The subset is read with its
// entities expanded, as Chromium's XML reader expands them: an entity that expands to a `javascript:` link or a
// stylesheet import is live in Chromium and withheld; a subset holding anything but names and uris stays denied.
import { describe, expect, type TestContext, test } from 'vitest';
import { judgeSendings, letThrough, refused, sendingsOf } from '../redteam/judge-variants.ts';
import { useChromium } from './chromium-suite.ts';

const chromium = useChromium();
const svgNs = 'http://www.w3.org/2000/svg';
const xlinkNs = 'http://www.w3.org/1999/xlink';
const xhtmlNs = 'http://www.w3.org/1999/xhtml';
const ran = 'window.__ran=1';

// an svg with Illustrator's prolog: an internal subset of entities, used in `xmlns:` attributes
const illustrator = (entities: string, body: string): string =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->',
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [',
    '\t<!ENTITY ns_extend "http://ns.adobe.com/Extensibility/1.0/">',
    '\t<!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/">',
    '\t<!ENTITY ns_graphs "http://ns.adobe.com/Graphs/1.0/">',
    entities,
    ']>',
    `<svg version="1.1" id="Layer_1" xmlns:x="&ns_extend;" xmlns:i="&ns_ai;" xmlns:graph="&ns_graphs;" xmlns="${svgNs}" xmlns:xlink="${xlinkNs}" x="0px" y="0px" width="100px" height="100px" viewBox="0 0 100 100" style="enable-background:new 0 0 100 100;" xml:space="preserve">`,
    '<style type="text/css">\n\t.st0{fill:#FF0000;}\n</style>',
    body,
    '</svg>',
    '',
  ].join('\n');

const drawio = `<svg xmlns="${svgNs}" xmlns:xlink="${xlinkNs}" version="1.1" width="121px" height="61px" viewBox="-0.5 -0.5 121 61" content="&lt;mxfile host=&quot;app.diagrams.net&quot;&gt;&lt;diagram id=&quot;d1&quot; name=&quot;Page-1&quot;&gt;jZJNb4MwDIZ/DXdIRrVeO7ZWk3bqYefUOIM2iVECLd2vn1nMR1VN2iFK/Ph98VBEprrTy6u76lnapEWnUQJdqMLkZdFdVjcJcJmWoh5hbNAh32MEa/Ec&lt;/diagram&gt;&lt;/mxfile&gt;"><defs/><g><rect x="0" y="0" width="120" height="60" rx="9" ry="9" fill="#ffffff" stroke="#000000" pointer-events="all"/><g transform="translate(-0.5 -0.5)"><switch><foreignObject pointer-events="none" width="100%" height="100%" requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility" style="overflow: visible; text-align: left;"><div xmlns="${xhtmlNs}" style="display: flex; align-items: unsafe center; justify-content: unsafe center; width: 118px; height: 1px; padding-top: 30px; margin-left: 1px;"><div data-drawio-colors="color: rgb(0, 0, 0); " style="box-sizing: border-box; font-size: 0px; text-align: center;"><div style="display: inline-block; font-size: 12px; font-family: Helvetica; color: rgb(0, 0, 0); line-height: 1.2; pointer-events: all; white-space: normal; overflow-wrap: normal;">Box<br/>two</div></div></div></foreignObject><text x="60" y="34" fill="rgb(0, 0, 0)" font-family="Helvetica" font-size="12px" text-anchor="middle">Box</text></switch></g></g><switch><g requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility"/><a transform="translate(0,-5)" xlink:href="https://www.drawio.com/doc/faq/svg-export-text-problems" target="_blank"><text text-anchor="middle" font-size="10px" x="50%" y="100%">Text is not SVG - cannot display</text></a></switch></svg>`;

type Page = readonly [name: string, body: string, then?: string];

const controls: Page[] = [
  [
    'an Illustrator export (namespace entities in an internal subset)',
    illustrator('', '<rect x="10" y="10" class="st0" width="80" height="80"/>'),
  ],
  [
    'an Illustrator export using an entity in a link and in text',
    illustrator(
      '\t<!ENTITY site "https://example.com/docs#top">',
      '<a xlink:href="&site;"><text y="20">&site;</text></a>',
    ),
  ],
  ['a draw.io export (its diagram in the root `content`)', drawio],
];

const attacks: Page[] = [
  [
    'an entity that expands to a javascript: link',
    illustrator(
      `\t<!ENTITY go "javascript:${ran}">`,
      '<a id="l" xlink:href="&go;"><rect width="100" height="100"/></a>',
    ),
    '#l',
  ],
  [
    'an entity that expands to a stylesheet import',
    illustrator('\t<!ENTITY css "@import url(http://evil.test/x.css);">', '<style>&css;</style>'),
    'leaves',
  ],
  ['an entity that expands to a script', illustrator(`\t<!ENTITY p "<script>${ran}</script>">`, '&p;')],
];

// Chromium opens the svg document: live when a script ran by `load` (after clicking `then`), or, for `leaves`, when
// it asks for anything off its origin by itself
async function liveInChromium(ctx: TestContext, [, body, then]: Page): Promise<boolean> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('**/*', (route) =>
      route.request().url() === 'http://page.test/art.svg'
        ? route.fulfill({ contentType: 'image/svg+xml', body })
        : route.fulfill({ status: 404, body: '' }),
    );
    const leaving =
      then === 'leaves'
        ? page.waitForRequest((r) => !r.url().startsWith('http://page.test/'), { timeout: 60_000 })
        : undefined;
    await page.goto('http://page.test/art.svg', { waitUntil: 'load' });
    if (leaving !== undefined) return (await leaving.then(() => true)) === true;
    if (then !== undefined) await page.click(then, { position: { x: 5, y: 5 } });
    return (await page.evaluate('window.__ran === 1')) === true;
  } finally {
    await page.close();
  }
}

const sendings = sendingsOf('guide://art/figure', ['.svg', '.SVG', ''], ['image/svg+xml', undefined]);

describe('Chromium shows each export inert, the shipped profile allows it', () => {
  test.for(controls.map((page) => ({ name: page[0], page })))('$name', { timeout: 120_000 }, async ({ page }, ctx) => {
    expect(await liveInChromium(ctx, page)).toBe(false);
    expect(refused(await judgeSendings({ text: page[1] }, sendings))).toEqual([]);
  });
});

describe('Chromium runs each entity attack, the shipped profile withholds it', () => {
  test.for(attacks.map((page) => ({ name: page[0], page })))('$name', { timeout: 120_000 }, async ({ page }, ctx) => {
    expect(await liveInChromium(ctx, page)).toBe(true);
    expect(letThrough(await judgeSendings({ text: page[1] }, sendings))).toEqual([]);
  });
});
