// The system Chromium for a content suite's browser cases: launched once before the suite (installed on demand,
// never skipped under CI=true), closed after it; `browser()` is undefined with the reason to skip otherwise.
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { systemChromium } from '../../helpers/system-chromium.ts';

/** Registers the suite's launch and close; the returned getters read the browser and the skip reason. */
export function useChromium(): { browser: () => Browser | undefined; skipReason: () => string } {
  let browser: Browser | undefined;
  let skipReason = '';
  beforeAll(async () => {
    const found = await systemChromium();
    if (!found.ok) {
      // CI always has root and apt: there the browser test must run, never skip
      if (process.env['CI'] === 'true') throw new Error(`no chromium under CI=true: ${found.reason}`);
      skipReason = found.reason;
      return;
    }
    browser = await chromium.launch({ executablePath: found.bin, args: ['--no-sandbox'] });
  }, 11 * 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return { browser: () => browser, skipReason: () => skipReason };
}
