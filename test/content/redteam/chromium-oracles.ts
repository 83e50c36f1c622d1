// The rounds' Chromium oracles, one system Chromium per test file (chromium-suite.ts): a body served under a type
// (or none: Chromium sniffs it) is live when a script ran or the page asked for anything off its origin by itself;
// a markdown text is live in a renderer when that renderer's page of it is (markdown-differential.ts's five real
// renderers in their presets). Each returns what the consumer did, never what the gate's own reader thinks.
import type { Page } from 'playwright-core';
import type { TestContext } from 'vitest';
import { realRenderers } from '../markdown/markdown-differential.ts';
import { useChromium } from '../svg-html/chromium-suite.ts';

const origin = 'http://page.test/';

/** The page oracles over the file's Chromium (registers its launch and close). */
export function useChromiumOracles() {
  const chromium = useChromium();
  // Chromium loads `body` served as `served` (undefined: no type, Chromium sniffs) and `look` watches the page: an
  // attack waits for what it does (a script run or a request off the origin, whenever it comes: a refresh fires after
  // load), a control looks once the page has loaded and painted two frames
  async function inChromium<T>(
    ctx: TestContext,
    served: string | undefined,
    body: string | Buffer,
    look: (page: Page, off: Promise<string>, offSeen: () => boolean) => Promise<T>,
    imagesAreLinks = false,
  ): Promise<T> {
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    const page = await browser.newPage();
    let resolveOff: (url: string) => void = () => {};
    const off = new Promise<string>((resolve) => {
      resolveOff = resolve;
    });
    let offSeen = false;
    try {
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url === `${origin}page`)
          return route.fulfill(served === undefined ? { body, headers: {} } : { contentType: served, body });
        // on a renderer's page an image or a video from elsewhere is a link the gate judges as a link
        const linked = imagesAreLinks && ['image', 'media'].includes(route.request().resourceType());
        if (!url.startsWith(origin) && !linked) {
          offSeen = true;
          resolveOff(url);
        }
        return route.fulfill({ status: 404, body: '' });
      });
      return await look(page, off, () => offSeen);
    } finally {
      await page.close();
    }
  }

  /** An attack: resolves true once a script ran or the page asked for anything off its origin (the test's timeout bounds it). */
  const becomesLive = (ctx: TestContext, served: string | undefined, body: string | Buffer): Promise<boolean> =>
    inChromium(ctx, served, body, async (page, off) => {
      const scriptRan = page
        .waitForFunction('window.__ran === 1', undefined, { timeout: 0 })
        .then(() => true)
        .catch(() => false);
      await page.goto(`${origin}page`, { waitUntil: 'commit' });
      return await Promise.race([off.then(() => true), scriptRan.then((r) => r || off.then(() => true))]);
    });

  /** A control: whether anything ran or was asked for elsewhere once the page loaded (every subresource) and painted two frames; `imagesAreLinks`: an image or video from elsewhere does not count (the gate judges it as a link). */
  const isLive = (
    ctx: TestContext,
    served: string | undefined,
    body: string | Buffer,
    imagesAreLinks = false,
  ): Promise<boolean> =>
    inChromium(
      ctx,
      served,
      body,
      async (page, _off, offSeen) => {
        await page.goto(`${origin}page`, { waitUntil: 'load' });
        await page.evaluate('new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)))');
        return offSeen() || (await page.evaluate('window.__ran === 1')) === true;
      },
      imagesAreLinks,
    );

  /**
   * Whether a renderer's `page` (served as text/html) runs a script or asks for anything but an image off its origin, after
   * `act` (a click) once it loaded. Where a run is expected its request is the event waited for (the test's timeout
   * bounds it); where not, a round trip the page makes afterwards is routed after any request a script made.
   */
  const pageRuns = (
    ctx: TestContext,
    page: string,
    expectRun: boolean,
    act?: (tab: Page) => Promise<void>,
  ): Promise<boolean> =>
    inChromium(
      ctx,
      'text/html',
      `<!doctype html><html><body>${page}</body></html>`,
      async (tab, off, offSeen) => {
        await tab.goto(`${origin}page`, { waitUntil: 'load' });
        if (act !== undefined) await act(tab);
        if (expectRun) return off.then(() => true);
        await tab.evaluate(`fetch('${origin}after').then(() => true, () => true)`);
        return offSeen();
      },
      true,
    );

  // the renderers whose page of `md` ran a script or asked for anything but an image off its origin by `load`, and
  // for a refresh, once it fires (an attack waits for it; a control's page is looked at after load and two frames)
  async function renderersLive(ctx: TestContext, md: string, waitForRefresh: boolean): Promise<string[]> {
    const browser = chromium.browser();
    if (browser === undefined) return ctx.skip(chromium.skipReason());
    const live: string[] = [];
    for (const [name, render] of Object.entries(realRenderers)) {
      const page = await browser.newPage();
      let off = false;
      let left: () => void = () => {};
      const leaving = new Promise<void>((resolve) => {
        left = resolve;
      });
      try {
        await page.route('**/*', (route) => {
          const url = route.request().url();
          if (url === 'http://md.test/')
            return route.fulfill({
              contentType: 'text/html',
              body: `<!doctype html><html><body>${render(md)}</body></html>`,
            });
          // an image or a video from elsewhere is a link the gate judges as a link: only other loads count
          if (!['image', 'media'].includes(route.request().resourceType())) {
            off = true;
            left();
          }
          return route.fulfill({ status: 404, body: '' });
        });
        await page.goto('http://md.test/', { waitUntil: 'load' });
        if (waitForRefresh && !off) await leaving;
        else
          await page
            .evaluate('new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)))')
            .catch(() => undefined);
        if (off || (await page.evaluate('window.__ran === 1').catch(() => false)) === true) live.push(name);
      } finally {
        await page.close();
      }
    }
    return live;
  }

  return { becomesLive, isLive, pageRuns, renderersLive };
}
