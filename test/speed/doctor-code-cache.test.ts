// Issue 42 item 2: `--print-config` writes the per-event start that uses V8's code cache (`node …/dist/bin/
// linkgate-cached.cjs hook HOST …`); doctor takes it for linkgate's entry and says when its cache does not match the
// event bundle's bytes, the node flags of the command or NODE_OPTIONS (the start then compiles the bundle: slower,
// never wrong), or lies in a folder other users can write (never used).
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedEntryBuildOptions, eventBuildOptions, repoRoot } from '../../scripts/cli-build-options.ts';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import { perEventEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { runCli, runCommand } from '../helpers/run-cli.ts';

const policy = path.join(repoRoot, 'policies', 'default.yaml');
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'linkgate-doctor-cache-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function write(file: string, value: object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

// doctor over a HOME whose Claude Code settings hold `settings`; NODE_OPTIONS as the host would pass it
async function doctor(settings: object, nodeOptions = ''): Promise<DoctorReport> {
  const home = mkdtempSync(path.join(scratch, 'home-'));
  write(path.join(home, '.claude', 'settings.json'), settings);
  const env = { HOME: home, PATH: process.env['PATH'] ?? '', NODE_OPTIONS: nodeOptions };
  const run = await runCommand(doctorCommand, ['--json', '--no-start'], { cwd: home, env });
  return JSON.parse(run.stdout) as DoctorReport;
}

const cacheLines = (report: DoctorReport) =>
  report.hooks.flatMap((h) => h.warnings).filter((w) => w.includes('code cache'));

describe('--print-config and doctor', () => {
  it('every host gets the per-event start by its absolute path; doctor takes it for linkgate', async () => {
    for (const host of ['claude-code', 'codex', 'gemini-cli', 'cursor']) {
      const printed = await runCli(['hook', host, '--print-config']);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain(`node ${perEventEntry()} hook ${host} --policy `);
    }
    expect(path.isAbsolute(perEventEntry())).toBe(true);
    const printed = await runCli(['hook', 'claude-code', '--print-config', '--policy', policy]);
    const report = await doctor(JSON.parse(printed.stdout) as object);
    expect(report.hooks.length).toBeGreaterThan(0);
    for (const hook of report.hooks) {
      expect(hook).toMatchObject({ bundle: perEventEntry(), runs: true, problems: [] });
    }
  });

  describe('the code cache of an installed package', () => {
    let bin: string;
    let cached: string;
    beforeAll(async () => {
      const pkg = path.join(scratch, 'pkg');
      bin = path.join(pkg, 'dist', 'bin');
      await build({ ...eventBuildOptions(bin), logLevel: 'error' });
      await build({ ...cachedEntryBuildOptions(bin), logLevel: 'error' });
      writeFileSync(path.join(bin, 'linkgate.js'), '');
      write(path.join(pkg, 'package.json'), { name: 'linkgate', bin: { linkgate: 'dist/bin/linkgate.js' } });
      cached = path.join(bin, 'linkgate-cached.cjs');
    }, 120_000);

    const settings = (...nodeFlags: string[]) =>
      hostSettings['claude-code'](
        ['node', ...nodeFlags, cached, 'hook', 'claude-code', '--policy', policy].map(shellQuote).join(' '),
      );
    // one eval line through the start, as a host's event would: writes the cache when it has none
    const startOnce = () => {
      const r = spawnSync(process.execPath, [cached, 'eval', '--policy', policy], {
        input: `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'https://example.com/', name: 'a' } })}\n`,
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(r.status, r.stderr).toBe(0);
    };

    it('stale before the first start, fresh after it; stale for an edited bundle, other node flags or NODE_OPTIONS', async () => {
      const before = await doctor(settings());
      expect(before.hooks.length).toBeGreaterThan(0);
      expect(before.hooks.every((h) => h.runs && h.bundle === cached)).toBe(true);
      expect(cacheLines(before)[0]).toMatch(/^the code cache is stale: no code cache in `.*code-cache` matches/);
      startOnce();
      expect(cacheLines(await doctor(settings()))).toEqual([]);
      expect(cacheLines(await doctor(settings('--stack-size=2000')))[0]).toContain('--stack-size=2000');
      expect(cacheLines(await doctor(settings(), '--max-old-space-size=512'))[0]).toContain(
        'NODE_OPTIONS=--max-old-space-size=512',
      );
      const event = path.join(bin, 'linkgate-event.cjs');
      copyFileSync(event, `${event}.orig`);
      appendFileSync(event, '\n// edited\n');
      expect(cacheLines(await doctor(settings()))[0]).toContain('the code cache is stale');
      copyFileSync(`${event}.orig`, event);
      expect(cacheLines(await doctor(settings()))).toEqual([]);
    }, 60_000);

    it('a cache folder other users can write is never used, and doctor says so', async () => {
      startOnce();
      chmodSync(path.join(bin, 'code-cache'), 0o777);
      try {
        expect(cacheLines(await doctor(settings()))[0]).toMatch(/is not one only this user \(or root\) can write/);
      } finally {
        chmodSync(path.join(bin, 'code-cache'), 0o700);
      }
    });
  });
});
