// A notebook as its viewers show it: Debian's `jupyter-nbconvert` (installed on demand with apt) renders it to HTML
// with its `basic` template and the system Chromium opens the page. The page gets the jQuery stub nbconvert's own
// template loads (its javascript outputs start with `$(…)`); every other request is answered 404, so nothing else
// is loaded. Under CI=true a missing nbconvert or Chromium fails the file, elsewhere its tests skip.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type TestContext } from 'vitest';
import { aptOracle, runOracle } from '../content/consumers/apt-oracle.ts';
import { realHostSuite } from '../real-host/host-suite.ts';
import { useChromium } from './use-chromium.ts';

/** Whether anything in the notebook `body` ran once nbconvert's html of it loaded in Chromium (skips the test when either is missing). */
export type RunsInViewer = (ctx: TestContext, body: string | Buffer) => Promise<boolean>;

/** The urls off the page's origin Chromium asked for once nbconvert's html of the notebook `body` loaded (skips likewise). */
export type LoadsInViewer = (ctx: TestContext, body: string | Buffer) => Promise<string[]>;

/** Registers the file's nbconvert install and Chromium launch; the returned function renders one notebook. */
export function useNbconvertViewer(): RunsInViewer {
  const view = useNbconvertPage();
  return async (ctx, body) => (await view(ctx, body)).ran;
}

/** Registers the file's nbconvert install and Chromium launch; the returned function lists one notebook's loads off its page. */
export function useNbconvertLoads(): LoadsInViewer {
  const view = useNbconvertPage();
  return async (ctx, body) => (await view(ctx, body)).asked;
}

// one notebook rendered by nbconvert and loaded in Chromium: whether anything ran, and what it asked for elsewhere
function useNbconvertPage(): (ctx: TestContext, body: string | Buffer) => Promise<{ ran: boolean; asked: string[] }> {
  const nbconvert = realHostSuite('nbconvert', () => aptOracle('jupyter-nbconvert', '/usr/bin/jupyter-nbconvert'));
  const chromium = useChromium();
  return async (ctx, body) => {
    const bin = nbconvert.require(ctx);
    const browser = chromium.browser;
    if (browser === undefined) return ctx.skip(chromium.skipReason);
    const dir = await nbconvert.scratch('linkgate-nbconvert-');
    const file = path.join(dir, 'analysis.ipynb');
    await writeFile(file, body);
    const run = await runOracle(bin, ['--to', 'html', '--template', 'basic', '--stdout', file], {
      env: { ...process.env, HOME: dir, JUPYTER_CONFIG_DIR: dir },
    });
    expect(run.code, run.out.slice(-500)).toBe(0);
    const html = run.out.slice(0, run.out.lastIndexOf('</div>') + 6);
    const page = await browser.newPage();
    const asked: string[] = [];
    try {
      await page.addInitScript('window.$ = () => ({});');
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url === 'http://nb.test/')
          return route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><body>${html}</body></html>` });
        if (!url.startsWith('http://nb.test/')) asked.push(url);
        return route.fulfill({ status: 404, body: '' });
      });
      // `load` fires after every image and stylesheet has loaded or failed, so every handler that would run has run
      await page.goto('http://nb.test/', { waitUntil: 'load' });
      return { ran: (await page.evaluate('window.__ran === 1')) === true, asked };
    } finally {
      await page.close();
    }
  };
}
