// Observe and enforce sessions against the same hostile server, through the real proxy (a process, a real SDK
// Client) and the Claude Code hook (the CLI), written to one records file: the report keeps the two modes apart, and
// its observe part lists every link the enforce sessions stopped, with the verdict enforcing gave it, in json, text,
// markdown and html; the html is opened in a real Chromium and its observe filters used.
import { readFileSync } from 'node:fs';
import { appendFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { ListedLink, ReportCounts } from '../../src/report/report-counts.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { runCommand } from '../helpers/run-cli.ts';
import { useChromium } from '../helpers/use-chromium.ts';
import { hookSession, proxySession } from './report-sessions.ts';

// the proxy session as Claude Code starts it: the host's client name is `claude-code`
const session = {
  server: tsServer('test/fixtures/servers/hostile-server.ts'),
  label: 'hostile',
  tool: 'links',
  clientName: 'claude-code',
};

const records = (file: string): LinkRecord[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LinkRecord);

// a listed link by what the two sessions share: the link, the host and the front end that saw it, the verdict
const key = (l: ListedLink) => `${l.uri} ${l.host} ${l.frontEnd} ${l.verdict}`;

const chromium = useChromium();

describe('observe and enforce sessions against the same hostile server, one records file', () => {
  let dir = '';
  let counts: ReportCounts;
  let stopped: ListedLink[] = [];
  let mixed = '';

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkgate-report-observe-'));
    const files = [
      await proxySession(dir, { ...session, mode: 'enforce' }),
      await hookSession(dir, 'enforce'),
      await proxySession(dir, { ...session, mode: 'observe' }),
      await hookSession(dir, 'observe'),
    ];
    // one file, the two modes interleaved as a team's shared records file would hold them
    mixed = path.join(dir, 'records.jsonl');
    for (const f of [files[2], files[0], files[3], files[1]] as string[])
      await appendFile(mixed, readFileSync(f, 'utf8'));
    const observed = [...records(files[2] as string), ...records(files[3] as string)];
    expect(observed.length).toBeGreaterThan(0);
    expect(observed.every((r) => r.mode === 'observe')).toBe(true);
    // observe mode enforced nothing: the hostile links reached the context
    expect(observed.some((r) => r.wouldDeny === true && r.verdict === 'body-obtained')).toBe(true);
    const run = await runCommand(reportCommand, ['--format', 'json', mixed]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    counts = JSON.parse(run.stdout) as ReportCounts;
    stopped = counts.enforce.notDelivered.listed;
  }, 120_000);

  test('json: the modes apart; observe counts what enforcing did, and lists every link it stopped', () => {
    expect(counts.enforce.links).toBe(counts.observe.links);
    expect(counts.links).toBe(counts.enforce.links + counts.observe.links);
    expect(stopped.length).toBeGreaterThanOrEqual(3);
    // the proxy and the hook sessions are one host (claude-code) seeing the same links: each counted once
    const enforced = records(mixed).filter((r) => r.mode !== 'observe');
    expect(new Set(enforced.map((r) => r.stages.discovered.frontEnd))).toEqual(new Set(['proxy', 'hook']));
    expect(counts.enforce.links).toBe(new Set(enforced.map((r) => r.uri)).size);
    expect(enforced.length).toBeGreaterThan(counts.enforce.links);
    expect(new Set(stopped.map((l) => l.host))).toEqual(new Set(['claude-code']));
    const observed = counts.observe.notDelivered.listed;
    expect(observed.map(key).sort()).toEqual(stopped.map(key).sort());
    expect(observed.every((l) => l.mode === 'observe')).toBe(true);
    expect(observed.every((l) => l.next?.hint.startsWith('would ') === true)).toBe(true);
    // the charts: the funnel and verdicts of observe mode are what the enforce sessions did
    expect(counts.observe.verdicts).toEqual(counts.enforce.verdicts);
    expect(counts.observe.stages).toEqual(counts.enforce.stages);
    expect(counts.observe.reasons).toEqual(counts.enforce.reasons);
    expect(counts.observe.byFrontEnd).toEqual(counts.enforce.byFrontEnd);
    expect(counts.observe.wouldDeny).toBeGreaterThanOrEqual(stopped.length);
  });

  test('text and markdown: every stopped link in the observe part, the hints say "would not be delivered"', async () => {
    for (const format of ['text', 'markdown'] as const) {
      const run = await runCommand(reportCommand, ['--format', format, mixed]);
      expect(run.code).toBe(0);
      const observePart = run.stdout.slice(run.stdout.search(/observe mode: would not be delivered whole/i));
      expect(observePart, format).toMatch(/would not be delivered whole: \d+/i);
      for (const l of stopped) expect(observePart, `${format} ${l.uri}`).toContain(l.uri);
      expect(run.stdout, format).toMatch(/would not be delivered: the (link|read) would be denied by/);
      expect(run.stdout, format).not.toMatch(/every link was delivered whole/i);
    }
  });

  test('html in Chromium: observe charts and list as enforce, filterable the same way', async (ctx) => {
    const browser = chromium.browser;
    if (browser === undefined) return ctx.skip(chromium.skipReason);
    const htmlFile = path.join(dir, 'report.html');
    expect((await runCommand(reportCommand, ['--format', 'html', '--out', htmlFile, mixed])).code).toBe(0);
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.setDefaultTimeout(5000);
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    await page.goto(pathToFileURL(htmlFile).href);
    for (const p of ['', 'o-']) {
      const mode = p === '' ? counts.enforce : counts.observe;
      for (const stage of ['discovered', 'requested', 'received', 'delivered'] as const)
        expect(await page.locator(`#${p}funnel [data-stage="${stage}"]`).textContent()).toBe(
          String(mode.stages[stage]),
        );
      for (const v of ['body-obtained', 'partially-interpreted', 'link-only', 'unverifiable'] as const)
        expect(await page.locator(`#${p}verdicts [data-verdict="${v}"]`).textContent()).toBe(String(mode.verdicts[v]));
      expect(await page.locator(`#${p}not-delivered`).textContent()).toBe(String(mode.notDelivered.total));
    }
    const rows = (p: string) =>
      page
        .locator(`#${p}link-table tbody tr`)
        .evaluateAll((trs) =>
          trs
            .filter((r) => (r as unknown as { offsetParent: unknown }).offsetParent !== null)
            .map((r) => r.children[2]?.textContent ?? ''),
        );
    const observed = counts.observe.notDelivered.listed;
    expect((await rows('o-')).sort()).toEqual(stopped.map((l) => l.uri).sort());
    // the observe filters act on the observe table only, as the enforce filters do on theirs
    const observeForm = page.locator('#o-links form.filters');
    const reason = stopped[0]?.reasons[0] ?? '';
    await observeForm
      .getByRole('group', { name: 'reason' })
      .getByRole('radio', { name: new RegExp(`^${reason.replace('.', '\\.')} `) })
      .check();
    expect(await rows('o-')).toEqual(observed.filter((l) => l.reasons.includes(reason)).map((l) => l.uri));
    expect((await rows('')).length).toBe(stopped.length);
    await observeForm.getByRole('group', { name: 'reason' }).getByRole('radio', { name: /^all/ }).check();
    await observeForm.getByRole('group', { name: 'front end' }).getByRole('radio', { name: /^hook/ }).check();
    expect(await rows('o-')).toEqual(observed.filter((l) => l.frontEnd === 'hook').map((l) => l.uri));
    const text = (await page.locator('#o-mode').textContent()) ?? '';
    expect(text).toContain('would not be delivered');
    expect(text).not.toContain('never delivered');
    await page.close();

    // at 1280 px (issue 40 item 4): one headline; the rollout numbers first; no table wider than the page
    const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await wide.goto(pathToFileURL(htmlFile).href);
    expect(await wide.locator('h1').count()).toBe(1);
    const o = counts.observe.outcomes;
    const e = counts.enforce.outcomes;
    expect(await wide.locator('#o-rollout').textContent()).toContain(
      `${o.reachedWouldWithhold} bodies that reached the model would be withheld and ${o.workingReadsWouldBreak} working reads would break; ${o.failed} read failure`,
    );
    expect(await wide.locator('#rollout').textContent()).toContain(
      `the policy stopped ${e.refused + e.withheld + e.cut}, ${e.refused} refused, ${e.withheld} withheld, ${e.cut} cut`,
    );
    const widths = {
      page: await wide.locator('html').evaluate((h) => [h.scrollWidth, h.clientWidth]),
      tables: await wide
        .locator('table')
        .evaluateAll((ts) => ts.map((t) => [t.id, t.scrollWidth, t.parentElement?.clientWidth ?? 0] as const)),
    };
    expect(widths.page[0]).toBeLessThanOrEqual(widths.page[1] ?? 0);
    expect(widths.tables.filter(([, w, room]) => Number(w) > Number(room))).toEqual([]);
    await wide.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
