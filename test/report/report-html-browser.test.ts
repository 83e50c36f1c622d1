// The html report opened from a file in a real headless Chromium (Debian's `chromium`, installed on demand; driven by
// playwright-core): the numbers shown equal the json counts, the filters work without script, nothing is fetched,
// nothing is logged, and a record holding markup renders as text. A screenshot is kept in test/artifacts/.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { ReportCounts } from '../../src/report/report-counts.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { runCommand } from '../helpers/run-cli.ts';
import { useChromium } from '../helpers/use-chromium.ts';
import { deny, obtainedRecord } from '../record/record-fixtures.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** Where the screenshots go (not committed; docs/report.png is the one users see). */
export const artifactsDir = path.join(repoRoot, 'test', 'artifacts');
const xss = '<img src=x onerror=alert(1)>';

function record(i: number): LinkRecord {
  const base = obtainedRecord();
  const server = ['docs', 'wiki', `evil ${xss}`][i % 3] as string;
  const tool = i % 4 === 0 ? `find ${xss}` : 'search';
  const at = new Date(Date.parse('2026-12-03T09:00:00Z') + i * 60_000).toISOString();
  const discovered = { ...base.stages.discovered, server, tool, at };
  const kind = i % 5;
  if (kind === 0 || kind === 1) return { ...base, stages: { ...base.stages, discovered } };
  if (kind === 2) {
    const uri = i % 2 === 0 ? `x:${xss}` : `http://169.254.169.254/${i}`;
    return {
      ...base,
      uri,
      verdict: 'link-only',
      next: { boundary: 'policy', hint: `link denied by \`links.schemes\` ${xss}` },
      stages: { discovered: { ...discovered, uri }, requested: null, received: null, delivered: null },
      decisions: { link: deny(i % 2 === 0 ? 'uri.invalid' : 'uri.non-public-address'), read: null },
    };
  }
  if (kind === 3) {
    const uri = `demo://slow/${i}`;
    return {
      ...base,
      uri,
      verdict: 'unverifiable',
      next: { boundary: 'origin-server', hint: 'no answer within the `10000` ms deadline' },
      stages: { ...base.stages, discovered: { ...discovered, uri }, received: null, delivered: null },
      decisions: { link: base.decisions.link, read: deny('read.timeout') },
    };
  }
  const uri = `demo://mixed/${i}`;
  return {
    ...base,
    uri,
    verdict: 'partially-interpreted',
    next: { boundary: 'context-assembly', hint: 'only item 0 was delivered' },
    stages: { ...base.stages, discovered: { ...discovered, uri } },
    decisions: { link: base.decisions.link, read: { ...deny('content.executable'), effect: 'partial' } },
  };
}

const chromium = useChromium();

describe('report --format html in a real Chromium', () => {
  test('numbers equal the json counts; filters work; no request, no console error; markup renders as text', async (ctx) => {
    const browser = chromium.browser;
    if (browser === undefined) return ctx.skip(chromium.skipReason);
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-report-html-'));
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify(record(i)));
    lines.splice(7, 0, 'not a record');
    const stdin = `${lines.join('\n')}\n`;
    const htmlFile = path.join(dir, 'report.html');
    const html = await runCommand(reportCommand, ['--format', 'html', '--out', htmlFile], { stdin });
    expect(html.code).toBe(1);
    const counts = JSON.parse(
      (await runCommand(reportCommand, ['--format', 'json'], { stdin })).stdout,
    ) as ReportCounts;

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.setDefaultTimeout(5000);
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    const url = pathToFileURL(htmlFile).href;
    await page.goto(url);

    // the numbers shown
    for (const stage of ['discovered', 'requested', 'received', 'delivered'] as const)
      expect(await page.locator(`[data-stage="${stage}"]`).textContent(), stage).toBe(
        String(counts.enforce.stages[stage]),
      );
    for (const v of ['body-obtained', 'partially-interpreted', 'link-only', 'unverifiable'] as const)
      expect(await page.locator(`[data-verdict="${v}"]`).textContent(), v).toBe(String(counts.enforce.verdicts[v]));
    for (const [code, n] of Object.entries(counts.enforce.reasons))
      expect(await page.locator(`[data-reason="${code}"]`).textContent(), code).toBe(String(n));
    expect(await page.locator('#not-delivered').textContent()).toBe(String(counts.enforce.notDelivered.total));
    expect(await page.locator('#skipped').textContent()).toBe(String(counts.skipped));
    const serverCells = await page
      .locator('#by-server tbody tr')
      .evaluateAll((rows) => rows.map((r) => [r.children[0]?.textContent, Number(r.children[1]?.textContent)]));
    expect(serverCells).toEqual(counts.enforce.byServer.keys.map((k) => [k.key, k.links]));

    // the filters: radio inputs and css, no script
    const visible = () =>
      page
        .locator('#link-table tbody tr')
        .evaluateAll((rows) =>
          rows
            .filter((r) => (r as unknown as { offsetParent: unknown }).offsetParent !== null)
            .map((r) => r.children[0]?.textContent ?? ''),
        );
    const listed = counts.enforce.notDelivered.listed;
    const where = (pred: (l: (typeof listed)[number]) => boolean) =>
      listed.filter(pred).map((l) => `${l.source}:${l.line}`);
    expect(await visible()).toEqual(where(() => true));
    await page.getByRole('radio', { name: /^unverifiable/ }).check();
    expect(await visible()).toEqual(where((l) => l.verdict === 'unverifiable'));
    await page.getByRole('group', { name: 'verdict' }).getByRole('radio', { name: /^all/ }).check();
    await page.getByRole('group', { name: 'server' }).getByRole('radio', { name: /^wiki/ }).check();
    expect(await visible()).toEqual(where((l) => l.server === 'wiki'));
    await page
      .getByRole('group', { name: 'reason' })
      .getByRole('radio', { name: /^uri\.non-public-address/ })
      .check();
    const both = where((l) => l.server === 'wiki' && l.reasons.includes('uri.non-public-address'));
    expect(both.length).toBeGreaterThan(0);
    expect(await visible()).toEqual(both);
    await page.getByRole('group', { name: 'server' }).getByRole('radio', { name: /^all/ }).check();
    await page.getByRole('group', { name: 'reason' }).getByRole('radio', { name: /^all/ }).check();

    // markup from records is text
    expect(await page.locator('img, script, iframe').count()).toBe(0);
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain(`evil ${xss}`);
    // as the report lists it: masked (a space percent-encoded), still text
    expect(text).toContain(maskUri(`x:${xss}`));
    expect(await page.locator('#by-tool').textContent()).toContain(`find ${xss}`);

    // light and dark, print: the page follows the scheme; printing hides the filters
    const background = () =>
      page
        .locator('body')
        .evaluate(
          (b) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(b)
              .backgroundColor,
        );
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).not.toBe(light);
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    expect(await page.locator('form.filters').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen', colorScheme: 'light' });

    await mkdir(artifactsDir, { recursive: true });
    await page.screenshot({ path: path.join(artifactsDir, 'report-html.png'), fullPage: true });
    await page.close();
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
  }, 120_000);
});
