// The differential property of the browser consumer against a second browser (issue 41 items 1 and 6): the pages
// the Chromium differential generates (generated-pages.ts) are served to Firefox ESR, driven over WebDriver BiDi
// (test/helpers/system-firefox.ts); whenever a script ran there (it fetched the beacon url), the gate's browser
// adapter alone (text/html allowed) must withhold the page as active, not for its type. Under CI=true a missing
// Firefox fails the suite.
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { type FirefoxTab, openFirefoxTab } from '../../helpers/firefox-page.ts';
import { useFirefox } from '../../helpers/system-firefox.ts';
import { pages, run } from './generated-pages.ts';
import { decideBody, profileGate } from './profile-gate.ts';

// text/html allowed, so a page is judged for what it does, not refused for its type
const browserOnly = profileGate(['browser'], ['text/html']);
const firefox = useFirefox();
let tab: FirefoxTab | undefined;

afterAll(async () => {
  await tab?.close();
});

// Firefox opens `html` as text/html; true when a script of it fetched the beacon by the time the load event and two
// animation frames and a task after it have passed
async function runsInFirefox(html: string): Promise<boolean> {
  const browser = firefox.browser;
  if (browser === undefined) throw new Error(firefox.skipReason);
  tab ??= await openFirefoxTab(browser);
  return (await tab.load({ served: 'text/html', body: html })).ran;
}

describe('Firefox against the browser adapter', () => {
  test('the oracle sees a script run, and sees an inert page run nothing', async (ctx) => {
    if (firefox.browser === undefined) return ctx.skip(firefox.skipReason);
    expect(await runsInFirefox(`<p>x</p><img src="x" onerror="${run}">`)).toBe(true);
    expect(await runsInFirefox(`<p>x</p><textarea><img src="x" onerror="${run}"></textarea>`)).toBe(false);
  });

  test('whenever Firefox runs a page, the gate does not allow it (fixed seeds)', {
    timeout: 20 * 60_000,
  }, async (ctx) => {
    if (firefox.browser === undefined) return ctx.skip(firefox.skipReason);
    let ran = 0;
    // the Chromium differential's seed, and one of Firefox's own
    for (const seed of [20261206, 153]) {
      await fc.assert(
        fc.asyncProperty(pages, async (html) => {
          if (!(await runsInFirefox(html))) return;
          ran++;
          const verdict = await decideBody(browserOnly, 'guide://site/page', 'text/html', { text: html });
          expect(verdict.effect, html).not.toBe('allow');
          expect(verdict.why, html).toMatch(/content\.(executable|remote-load|too-complex)/);
        }),
        { seed, numRuns: 250 },
      );
    }
    // most generated pages hold a payload that runs
    expect(ran).toBeGreaterThan(160);
  });
});
