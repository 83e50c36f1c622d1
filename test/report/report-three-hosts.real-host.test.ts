// The report over one records file written by the three real hosts (issue 40 acceptance): Claude Code, Codex CLI and
// Gemini CLI, each run offline with the hooks `linkgate hook HOST --print-config` prints, once in enforce and once in
// observe mode, against the fixture server, reading a refused link, an allowed one, one the policy withholds and one
// the server does not have. The report counts each link once (the provisional records a later record supersedes are
// not links of their own), keeps what the policy stopped apart from what the host or server broke, gives the
// rollout numbers in its first lines, and its html fits a 1280 px page in Chromium.
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, type TestContext, test } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.ts';
import type { ReportCounts } from '../../src/report/report-counts.ts';
import { jsonLines, runCli, runCommand } from '../helpers/run-cli.ts';
import { useChromium } from '../helpers/use-chromium.ts';
import { installClaudeCode, runClaudeCode } from '../real-host/claude-code.ts';
import { installCodexCli, runCodexCli } from '../real-host/codex-cli.ts';
import { fixtureServer } from '../real-host/fixture-process.ts';
import { fixtureNamed } from '../real-host/fixture-resources.ts';
import { installGeminiCli, runGeminiCli } from '../real-host/gemini-cli.ts';
import { builtCli, realHostSuite } from '../real-host/host-suite.ts';

const claude = realHostSuite('claude code', () => installClaudeCode());
const codex = realHostSuite('codex cli', () => installCodexCli());
const gemini = realHostSuite('gemini cli', () => installGeminiCli());
builtCli();
const chromium = useChromium();

type Mode = 'enforce' | 'observe';
const { readme, metadata, banner } = fixtureNamed;
/** A resource the fixture server does not have: its read fails, which is not the policy's doing. */
const missing = 'fixture://docs/not-there.txt';
const reads = [metadata.uri, readme.uri, banner.uri, missing];

// one host run with the printed hooks writing to `records`; returns nothing, the records file is what counts
async function hostRun(host: 'claude-code' | 'codex' | 'gemini-cli', mode: Mode, dir: string, records: string) {
  const printed = await runCli(['hook', host, '--print-config', '--records', records, '--mode', mode]);
  expect(printed.code, printed.stderr).toBe(0);
  const config = JSON.parse(printed.stdout) as Record<string, unknown>;
  const mcpServers = { fixture: fixtureServer(path.join(dir, `${host}-${mode}-requests.jsonl`)) };
  const prompt = 'read the links of the fixture server';
  if (host === 'claude-code') {
    const run = await runClaudeCode({
      mcpServers,
      settings: config,
      prompt,
      script: [
        { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
        ...reads.map((uri, i) => ({
          toolUses: [{ id: `toolu_read${i}`, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri } }],
        })),
        { text: 'done' },
      ],
      allowedTools: ['mcp__fixture__links', 'ReadMcpResourceTool'],
      timeoutMs: 180_000,
    });
    claude.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
  } else if (host === 'codex') {
    const run = await runCodexCli({
      mcpServers,
      hooks: config,
      prompt,
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
        ...reads.map((uri, i) => ({
          toolUses: [{ id: `call_read${i}`, name: 'read_mcp_resource', input: { server: 'fixture', uri } }],
        })),
        { text: 'done' },
      ],
      timeoutMs: 120_000,
    });
    codex.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
  } else {
    const run = await runGeminiCli({
      mcpServers,
      settings: config,
      prompt,
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        ...reads.map((uri, i) => ({ toolUses: [{ id: `call_read${i}`, name: 'read_mcp_resource', input: { uri } }] })),
        { text: 'done' },
      ],
      timeoutMs: 180_000,
    });
    gemini.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
  }
}

// the links of one host's records file whose last record is their discovery record: listed, never read
async function unreadLinks(file: string): Promise<number> {
  const lines = jsonLines(await readFile(file, 'utf8')) as { kind?: string; uri?: string }[];
  const last = new Map<string, string>();
  for (const l of lines) if (l.kind !== 'embedded' && typeof l.uri === 'string') last.set(l.uri, l.kind ?? 'link');
  return [...last.values()].filter((k) => k === 'discovered').length;
}

// the distinct links of one host's records file (each file holds one host, one mode, one server): every uri a link
// record, a discovery record or a provisional read record names, embedded resources left out
async function distinctLinks(file: string): Promise<{ links: number; lines: number }> {
  const lines = jsonLines(await readFile(file, 'utf8')) as { kind?: string; uri?: string }[];
  const uris = new Set(lines.filter((l) => l.kind !== 'embedded' && typeof l.uri === 'string').map((l) => l.uri));
  return { links: uris.size, lines: lines.length };
}

describe('a report of one records file from the three real hosts, observe and enforce', () => {
  let dir = '';
  let mixed = '';
  let counts: ReportCounts;
  const expected = { links: 0, lines: 0 };
  // per host, in enforce mode: links whose last record is their discovery record (listed, never read)
  const unread = new Map<string, number>();

  // the six host runs, once, for the first test that gets this far (each test first requires the three hosts)
  let ready: Promise<void> | undefined;
  const prepare = (ctx: TestContext) => {
    claude.require(ctx);
    codex.require(ctx);
    gemini.require(ctx);
    ready ??= (async () => {
      dir = await claude.scratch('linkgate-report-hosts-');
      mixed = path.join(dir, 'records.jsonl');
      for (const mode of ['enforce', 'observe'] as const)
        for (const host of ['claude-code', 'codex', 'gemini-cli'] as const) {
          const file = path.join(dir, `${host}-${mode}.jsonl`);
          await hostRun(host, mode, dir, file);
          const found = await distinctLinks(file);
          expect(found.links, `${host} ${mode} wrote no link records`).toBeGreaterThan(0);
          expected.links += found.links;
          expected.lines += found.lines;
          if (mode === 'enforce') unread.set(host, await unreadLinks(file));
          await appendFile(mixed, await readFile(file, 'utf8'));
        }
      const run = await runCommand(reportCommand, ['--format', 'json', mixed]);
      counts = JSON.parse(run.stdout) as ReportCounts;
    })();
    return ready;
  };

  test('links are counted once: one per mode, host, server and uri, whatever records superseded each other', {
    timeout: 15 * 60_000,
  }, async (ctx) => {
    await prepare(ctx);
    expect(counts.links).toBe(expected.links);
    expect(counts.enforce.links + counts.observe.links).toBe(expected.links);
    // the hosts' files held more lines than links: provisional and refused-then-tried records of the same link
    expect(counts.records).toBeGreaterThan(counts.links);
    expect(counts.superseded).toBeGreaterThan(0);
    expect(counts.enforce.byHost.keys.map((b) => b.key).sort()).toEqual(['claude-code', 'codex', 'gemini-cli']);
    expect(counts.observe.byHost.keys.map((b) => b.key).sort()).toEqual(['claude-code', 'codex', 'gemini-cli']);
  });

  test('each host records the links its tool result listed that nobody read (issue 40 item 3)', {
    timeout: 15 * 60_000,
  }, async (ctx) => {
    await prepare(ctx);
    console.info(`[measure] unread links per host (enforce): ${JSON.stringify(Object.fromEntries(unread))}`);
    for (const host of ['claude-code', 'codex', 'gemini-cli']) expect(unread.get(host) ?? 0).toBeGreaterThan(0);
    expect(counts.enforce.outcomes.unread).toBe([...unread.values()].reduce((a, b) => a + b, 0));
  });

  test('what the policy stopped is kept apart from what the host or server broke', {
    timeout: 15 * 60_000,
  }, async (ctx) => {
    await prepare(ctx);
    const e = counts.enforce.outcomes;
    const o = counts.observe.outcomes;
    // the metadata link is refused and the banner withheld by the policy in enforce mode, on every host
    expect(e.refused).toBeGreaterThanOrEqual(3);
    expect(e.withheld + e.cut).toBeGreaterThanOrEqual(3);
    expect(Object.keys(e.stoppedBy)).toContain('uri.non-public-address');
    // the missing resource fails on every host in both modes: the server's (or Gemini's own) doing, not the policy's
    expect(e.failed).toBeGreaterThanOrEqual(3);
    expect(o.failed).toBeGreaterThanOrEqual(3);
    for (const code of Object.keys(e.stoppedBy)) expect(code).not.toMatch(/^read\./);
    // observe mode let the banner's body reach the model: enforcing would withhold it
    expect(o.reachedWouldWithhold).toBeGreaterThanOrEqual(1);
    // what enforcing would deny outright: the refused and the wholly withheld, not the cut
    expect(counts.observe.wouldDeny).toBe(o.refused + o.withheld);
    expect(o.workingReadsWouldBreak).toBeGreaterThanOrEqual(1);
  });

  test('the first lines give the rollout numbers, and the html fits 1280 px in Chromium', {
    timeout: 15 * 60_000,
  }, async (ctx) => {
    await prepare(ctx);
    const text = await runCommand(reportCommand, [mixed]);
    // the lines before the first mode's section, their wrapping undone
    const head = text.stdout.slice(0, text.stdout.search(/^enforce mode: /m));
    const first = head.replace(/\s+/g, ' ');
    expect(head.split('\n').length).toBeLessThanOrEqual(10);
    const e = counts.enforce.outcomes;
    const o = counts.observe.outcomes;
    expect(first).toContain(
      `if enforced, ${o.reachedWouldWithhold} bod${o.reachedWouldWithhold === 1 ? 'y' : 'ies'} that reached the model would be withheld`,
    );
    expect(first).toContain(`the policy stopped ${e.refused + e.withheld + e.cut}, ${e.refused} refused`);
    expect(first).toContain(`${e.failed} read failures the host's or server's doing, not the policy's`);

    const browser = chromium.browser;
    if (browser === undefined) return ctx.skip(chromium.skipReason);
    const htmlFile = path.join(dir, 'report.html');
    expect((await runCommand(reportCommand, ['--format', 'html', '--out', htmlFile, mixed])).code).toBe(0);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pathToFileURL(htmlFile).href);
    expect(await page.locator('h1').count()).toBe(1);
    const [scroll, client] = await page.locator('html').evaluate((h) => [h.scrollWidth, h.clientWidth]);
    expect(scroll).toBeLessThanOrEqual(client ?? 0);
    const tables = await page
      .locator('table')
      .evaluateAll((ts) => ts.map((t) => [t.id, t.scrollWidth, t.parentElement?.clientWidth ?? 0] as const));
    expect(tables.length).toBeGreaterThan(0);
    expect(tables.filter(([, w, room]) => Number(w) > Number(room))).toEqual([]);
    await page.close();
  });
});
