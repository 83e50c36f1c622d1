// The xml-stylesheet cases opened in a real headless Chromium (the system's, driven by playwright-core): an SVG
// whose `xml-stylesheet` instruction names XSLT, with `type="text/css"` spelled inside another pseudo-attribute's
// value, is transformed by the browser (the stylesheet adds an `onload` handler), and the gate denies it; the same
// document naming CSS is not transformed, and the gate allows it. Each document is served over a routed origin, as
// a page serves it, so the browser fetches the stylesheet it names.
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { useChromium } from './chromium-suite.ts';
import { decideItem } from '../decide-item.ts';

const origin = 'http://svg.test';
const SVG = 'http://www.w3.org/2000/svg';
// the transform writes an svg with an `onload` handler: script the source document never held
const xslt = `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><svg xmlns="${SVG}" onload="document.title='ran'"><rect width="1"/></svg></xsl:template></xsl:stylesheet>`;
const css = 'rect { fill: teal }';
const svgWith = (body: string): string => `<?xml-stylesheet ${body}?><svg xmlns="${SVG}"><rect width="1"/></svg>`;

const chromium = useChromium();

// opens the svg in Chromium and says whether its document ends up holding an `onload` handler
async function browserAddsHandler(open: Browser, svg: string): Promise<boolean> {
  const page = await open.newPage();
  try {
    await page.route(`${origin}/**`, (route) => {
      const url = route.request().url();
      if (url.endsWith('.svg')) return route.fulfill({ contentType: 'image/svg+xml', body: svg });
      if (url.includes('.xsl')) return route.fulfill({ contentType: 'text/xsl', body: xslt });
      return route.fulfill({ contentType: 'text/css', body: css });
    });
    await page.goto(`${origin}/a.svg`, { waitUntil: 'load' });
    return (await page.evaluate("document.querySelector('[onload]') !== null")) === true;
  } finally {
    await page.close();
  }
}

describe('xml-stylesheet instructions in Chromium and in the gate', () => {
  test.for([
    ['type="text/css" inside the href', `href='t.xsl type="text/css"' type="text/xsl"`],
    ['type="text/css" inside a title', `title=' type="text/css"' type="text/xsl" href="t.xsl"`],
  ])('xslt with %s: the browser adds a handler, the gate denies', async ([, body = ''], ctx) => {
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    const svg = svgWith(body);
    expect(await browserAddsHandler(browser, svg)).toBe(true);
    const verdict = await decideItem(Buffer.from(svg, 'utf8'), 'image/svg+xml');
    expect(verdict.effect).toBe('deny');
    expect(verdict.messages).toMatch(/xml-stylesheet/);
  });

  test('css: the browser adds nothing, the gate allows', async (ctx) => {
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    const svg = svgWith(`type="text/css" href="t.css"`);
    expect(await browserAddsHandler(browser, svg)).toBe(false);
    expect((await decideItem(Buffer.from(svg, 'utf8'), 'image/svg+xml')).effect).toBe('allow');
  });
});
