// The system Chromium for a content suite's browser cases, as getters over the one launcher of
// `test/helpers/use-chromium.ts`: launched once before the suite (installed on demand, never skipped under CI=true),
// closed after it; `browser()` is undefined with the reason to skip otherwise.
import type { Browser } from 'playwright-core';
import { useChromium as useChromiumForFile } from '../../helpers/use-chromium.ts';

/** Registers the suite's launch and close; the returned getters read the browser and the skip reason. */
export function useChromium(): { browser: () => Browser | undefined; skipReason: () => string } {
  const state = useChromiumForFile();
  return { browser: () => state.browser, skipReason: () => state.skipReason };
}
