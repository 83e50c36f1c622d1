// SVG shown as an image, checked in a real headless Chromium: an svg whose `<image href>` (or an html `<img src>`)
// is a `data:image/svg+xml` url holding script is drawn with script off, so the script never runs and the gate
// allows it; the same inner svg loaded as a document (an `<iframe src>`) runs its script and the gate denies it.
// The inner script reports itself by fetching a routed url, which the browser can do from any mode that runs it.
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { useChromium } from './chromium-suite.ts';
import { decideItem } from '../decide-item.ts';

const origin = 'http://svg.test';
const inner = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>fetch('${origin}/ran',{mode:'no-cors'})</script><rect width="8" height="8" fill="teal"/></svg>`;
const data = `data:image/svg+xml;base64,${Buffer.from(inner).toString('base64')}`;

const chromium = useChromium();

// opens `body` (served as `type`) and says whether the inner svg's script ran. The page's `load` waits for its
// images and frames; a round trip the page makes afterwards is routed after any request the inner script made
async function innerScriptRuns(open: Browser, body: string, type: string, expectRun = false): Promise<boolean> {
  const page = await open.newPage();
  let ran = false;
  try {
    await page.route(`${origin}/**`, (route) => {
      const url = route.request().url();
      if (url.endsWith('/ran')) ran = true;
      if (url.endsWith('/ran') || url.endsWith('/after')) return route.fulfill({ status: 204 });
      return route.fulfill({ contentType: type, body });
    });
    // where the script is expected to run, its request is the event waited for
    const reported = expectRun ? page.waitForRequest(`${origin}/ran`, { timeout: 0 }) : null;
    await page.goto(`${origin}/doc`, { waitUntil: 'load' });
    if (reported !== null) await reported;
    if (!ran) await page.evaluate(`fetch('${origin}/after').then(() => true)`);
    return ran;
  } finally {
    await page.close();
  }
}

describe('an svg data url as an image runs with script off (Chromium), as a document it runs', () => {
  test.for([
    [
      'svg `<image href>`',
      `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><image width="8" height="8" href="${data}"/></svg>`,
      'image/svg+xml',
    ],
    ['html `<img src>`', `<!doctype html><img alt="i" src="${data}">`, 'text/html'],
  ] as const)('%s: the script does not run, the gate allows', async ([, body, type], ctx) => {
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    expect(await innerScriptRuns(browser, body, type)).toBe(false);
    const mime = type === 'text/html' ? 'text/markdown' : type;
    expect((await decideItem(Buffer.from(body.replace('<!doctype html>', ''), 'utf8'), mime)).effect).toBe('allow');
  });

  test('html `<iframe src>`: the script runs, the gate denies', async (ctx) => {
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    const body = `<!doctype html><iframe src="${data}"></iframe>`;
    expect(await innerScriptRuns(browser, body, 'text/html', true)).toBe(true);
    expect((await decideItem(Buffer.from(body.replace('<!doctype html>', ''), 'utf8'), 'text/markdown')).effect).toBe(
      'deny',
    );
  });
});
