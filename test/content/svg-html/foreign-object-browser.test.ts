// SVG `foreignObject` content is a page to the browser (issue 41 item 3): an XHTML meta refresh inside it
// navigates the svg document in Chromium (the oracle), and the gate judges that content as a rendered page and
// denies it; an ordinary `foreignObject` (text in a div, what diagram tools write) stays allowed.
import { describe, expect, test } from 'vitest';
import { useChromium } from './chromium-suite.ts';
import { decideItem } from '../decide-item.ts';

const origin = 'http://svg.test';
const svgWith = (inner: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><foreignObject width="200" height="100">${inner}</foreignObject></svg>`;
const refresh = `<meta xmlns="http://www.w3.org/1999/xhtml" http-equiv="refresh" content="0;url=${origin}/refreshed"/>`;

const chromium = useChromium();

describe('foreignObject content judged as html', () => {
  test('a meta refresh inside: Chromium navigates, the gate denies', async (ctx) => {
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    const page = await browser.newPage();
    try {
      await page.route(`${origin}/**`, (route) =>
        route.request().url().endsWith('/refreshed')
          ? route.fulfill({ contentType: 'text/plain', body: 'navigated' })
          : route.fulfill({ contentType: 'image/svg+xml', body: svgWith(refresh) }),
      );
      const navigated = page.waitForRequest(`${origin}/refreshed`, { timeout: 0 });
      await page.goto(`${origin}/a.svg`);
      await navigated;
    } finally {
      await page.close();
    }
    const verdict = await decideItem(Buffer.from(svgWith(refresh)), 'image/svg+xml');
    expect(verdict.effect).toBe('deny');
    expect(verdict.messages).toMatch(/meta refresh/);
  });

  test.each([
    ['a frame', '<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://example.com/"></iframe>', /frame/],
    [
      'a form',
      '<form xmlns="http://www.w3.org/1999/xhtml" action="https://example.com/"><input name="q"/></form>',
      /form/,
    ],
    ['a base', '<base xmlns="http://www.w3.org/1999/xhtml" href="https://example.com/"/>', /base/],
  ])('%s inside is denied', async (_, inner, message) => {
    const verdict = await decideItem(Buffer.from(svgWith(inner)), 'image/svg+xml');
    expect(verdict.effect).toBe('deny');
    expect(verdict.messages).toMatch(message);
  });

  test('ordinary foreignObject text (what diagram tools write) is allowed', async () => {
    const inner =
      '<div xmlns="http://www.w3.org/1999/xhtml" style="display: flex; font-size: 12px"><span>Client</span><br/><b>API</b></div>';
    expect(await decideItem(Buffer.from(svgWith(inner)), 'image/svg+xml')).toMatchObject({ effect: 'allow' });
  });
});
