// One tab of the driven Firefox (system-firefox.ts) as an oracle: a body is served at http://page.test/page as the
// type given, every other request is answered 404 and recorded, and the tab says whether a script ran (it fetched
// http://page.test/ran or set `window.__ran`), after an optional click, and what the page asked for off its origin.
import type { FirefoxBrowser, FirefoxPage, FirefoxRequest } from './system-firefox.ts';

/** The url a body is served at. */
export const firefoxPageUrl = 'http://page.test/page';

/** What to load: the type the body is served as, the body, and what to do after load. */
export interface FirefoxLoad {
  served: string;
  body: string | Buffer;
  /** a selector to click after load (a link attack), waiting for its script to have run */
  click?: string;
  /** wait for the page to ask for something off its origin by itself (a refresh fires after load) */
  leaves?: boolean;
  /** more files the page's origin serves (an XSLT stylesheet), by path: the type and the body */
  files?: Readonly<Record<string, readonly [type: string, body: string]>>;
}

/** What Firefox did with a loaded body. */
export interface FirefoxVisit {
  /** a script or handler ran */
  ran: boolean;
  /** the urls asked for off http://page.test/, in order */
  asked: string[];
}

/** A tab that loads one body after another. */
export interface FirefoxTab {
  load(what: FirefoxLoad): Promise<FirefoxVisit>;
  close(): Promise<void>;
}

// longest a wait for an event may take before it counts as not having happened (never the wait itself)
const ceilingMs = 30_000;
const settled = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))))';

/** Opens a tab in `browser` whose every request is answered by the test. */
export async function openFirefoxTab(browser: FirefoxBrowser): Promise<FirefoxTab> {
  const page: FirefoxPage = await browser.newPage();
  let current: FirefoxLoad = { served: 'text/plain', body: '' };
  let beacons = 0;
  let asked: string[] = [];
  let onLeave: (() => void) | undefined;
  let onBeacon: (() => void) | undefined;
  await page.setRequestInterception(true);
  page.on('request', (request: FirefoxRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    const url = request.url();
    if (url === 'http://page.test/ran') {
      beacons++;
      onBeacon?.();
      void request.respond({ status: 204, body: '' }).catch(() => {});
      return;
    }
    if (url === firefoxPageUrl) {
      void request.respond({ status: 200, contentType: current.served, body: current.body }).catch(() => {});
      return;
    }
    const file = current.files?.[url.slice('http://page.test'.length)];
    if (url.startsWith('http://page.test/') && file !== undefined) {
      void request.respond({ status: 200, contentType: file[0], body: file[1] }).catch(() => {});
      return;
    }
    // a `data:` url the page names is no request off its origin
    if (!url.startsWith('http://page.test/') && !url.startsWith('data:')) {
      asked.push(url);
      onLeave?.();
    }
    void request.respond({ status: 404, contentType: 'text/plain', body: '' }).catch(() => {});
  });
  const ranInPage = async (): Promise<boolean> =>
    beacons > 0 || (await page.evaluate('window.__ran === 1').catch(() => false)) === true;
  // resolves true once `arm`'s event fires, false past the ceiling
  const eventOrCeiling = (arm: (fire: () => void) => void, already: () => boolean): Promise<boolean> =>
    new Promise((resolve) => {
      if (already()) return resolve(true);
      const timer = setTimeout(() => resolve(false), ceilingMs);
      arm(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  return {
    async load(what) {
      current = what;
      beacons = 0;
      asked = [];
      onLeave = undefined;
      onBeacon = undefined;
      await page.goto('about:blank');
      const leaving = what.leaves
        ? eventOrCeiling(
            (fire) => {
              onLeave = fire;
            },
            () => asked.length > 0,
          )
        : undefined;
      await page.goto(firefoxPageUrl, { waitUntil: 'load', timeout: ceilingMs });
      await page.evaluate(settled).catch(() => {});
      if (leaving !== undefined) await leaving;
      if (what.click !== undefined) {
        await page.click(what.click, { offset: { x: 5, y: 5 } });
        // a `javascript:` link runs as a navigation task after the click: wait for the page to say it ran
        const beacon = eventOrCeiling(
          (fire) => {
            onBeacon = fire;
          },
          () => beacons > 0,
        );
        const flag = page
          .waitForFunction('window.__ran === 1', { timeout: ceilingMs })
          .then(() => true)
          .catch(() => false);
        await Promise.race([beacon, flag]);
      }
      return { ran: await ranInPage(), asked: [...asked] };
    },
    close: () => page.close(),
  };
}
