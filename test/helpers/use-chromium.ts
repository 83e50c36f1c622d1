// One headless system Chromium per test file, launched before its tests and closed after; under CI=true a missing
// browser fails the file instead of skipping it (CI always has root and apt).
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { systemChromium } from './system-chromium.ts';

/** The file's browser, once `beforeAll` has run: the browser, or why there is none (the test skips with it). */
export interface ChromiumForFile {
  readonly browser: Browser | undefined;
  readonly skipReason: string;
}

/** Registers the hooks that launch and close the system Chromium for the calling test file. */
export function useChromium(): ChromiumForFile {
  const state: { browser: Browser | undefined; skipReason: string } = { browser: undefined, skipReason: '' };
  beforeAll(async () => {
    const found = await systemChromium();
    if (!found.ok) {
      if (process.env['CI'] === 'true') throw new Error(`no chromium under CI=true: ${found.reason}`);
      state.skipReason = found.reason;
      return;
    }
    state.browser = await chromium.launch({ executablePath: found.bin, args: ['--no-sandbox'] });
  }, 11 * 60_000);
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}
