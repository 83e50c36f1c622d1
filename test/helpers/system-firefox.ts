// Firefox as a second browser oracle beside Chromium (issue 41 item 1): Debian's `firefox-esr` (installed on demand
// with apt, one install per machine) driven over WebDriver BiDi by `puppeteer-core` (installed on demand into the
// test cache with npm, never a project dependency; playwright-core cannot drive a stock Firefox). Under CI=true a
// missing or unlaunchable Firefox fails the file instead of skipping it.
import { afterAll, beforeAll } from 'vitest';
import { aptOracle, runOracle } from '../content/consumers/apt-oracle.ts';
import { importFrom, installFramework } from '../frameworks/framework-package.ts';
import { type HostInstall, installTimeoutMs } from '../real-host/install-package.ts';

/** Where Debian's package puts the browser; `LINKGATE_FIREFOX` names another. */
export const debianFirefox = '/usr/bin/firefox-esr';

/** The puppeteer-core release that drives Firefox over WebDriver BiDi. */
export const puppeteerCore = {
  name: 'puppeteer-core',
  version: '25.19.0',
  entry: 'node_modules/puppeteer-core/lib/puppeteer/puppeteer-core.js',
} as const;

/** The few puppeteer-core types the oracle uses (the package is not a dependency, so its own types are not here). */
export interface FirefoxRequest {
  url(): string;
  respond(response: { status?: number; contentType?: string; body?: string | Buffer }): Promise<void>;
  isInterceptResolutionHandled(): boolean;
}

/** A page of the driven Firefox. */
export interface FirefoxPage {
  setRequestInterception(on: boolean): Promise<void>;
  on(event: 'request', listener: (request: FirefoxRequest) => void): void;
  goto(url: string, options?: { waitUntil?: 'load'; timeout?: number }): Promise<unknown>;
  evaluate(script: string): Promise<unknown>;
  click(selector: string, options?: { offset?: { x: number; y: number } }): Promise<void>;
  waitForFunction(script: string, options?: { timeout?: number }): Promise<unknown>;
  url(): string;
  close(): Promise<void>;
}

/** The driven Firefox. */
export interface FirefoxBrowser {
  newPage(): Promise<FirefoxPage>;
  version(): Promise<string>;
  close(): Promise<void>;
}

interface Puppeteer {
  launch(options: Record<string, unknown>): Promise<FirefoxBrowser>;
}

/** Firefox ready to launch (its binary and the puppeteer-core install), or why not; never throws. */
export async function systemFirefox(): Promise<
  { ok: true; bin: string; driver: string } | { ok: false; reason: string }
> {
  try {
    const own = process.env['LINKGATE_FIREFOX'];
    const browser: HostInstall =
      own !== undefined && own !== ''
        ? { ok: true, bin: own, version: 'own', dir: '' }
        : await aptOracle('firefox-esr', debianFirefox);
    if (!browser.ok) return browser;
    const check = await runOracle(browser.bin, ['--version'], { timeoutMs: 60_000 });
    if (check.code !== 0 || !/firefox/i.test(check.out))
      return { ok: false, reason: `\`${browser.bin} --version\` failed: ${check.out.trim().slice(-300)}` };
    const driver = await installFramework(puppeteerCore);
    if (!driver.ok) return driver;
    return { ok: true, bin: browser.bin, driver: driver.dir };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** The file's Firefox once `beforeAll` has run, or why there is none (the test skips with it). */
export interface FirefoxForFile {
  readonly browser: FirefoxBrowser | undefined;
  readonly skipReason: string;
}

/** Registers the hooks that launch a headless Firefox before the calling file's tests and close it after them. */
export function useFirefox(): FirefoxForFile {
  const state: { browser: FirefoxBrowser | undefined; skipReason: string } = { browser: undefined, skipReason: '' };
  beforeAll(async () => {
    const found = await systemFirefox();
    let reason = found.ok ? '' : found.reason;
    if (found.ok) {
      try {
        const puppeteer = await importFrom<{ default: Puppeteer }>(found.driver, 'puppeteer-core');
        state.browser = await puppeteer.default.launch({
          browser: 'firefox',
          executablePath: found.bin,
          headless: true,
          // no updates, no telemetry, no first-run pages: nothing but the page under test asks for anything
          extraPrefsFirefox: {
            'app.update.enabled': false,
            'browser.shell.checkDefaultBrowser': false,
            'datareporting.policy.dataSubmissionEnabled': false,
            'toolkit.telemetry.enabled': false,
          },
        });
      } catch (e) {
        reason = `firefox did not launch: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    if (state.browser !== undefined) return;
    if (process.env['CI'] === 'true') throw new Error(`no firefox under CI=true: ${reason}`);
    state.skipReason = reason;
  }, installTimeoutMs + 120_000);
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}
