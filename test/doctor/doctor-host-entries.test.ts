// Entries a host reads otherwise than their fields suggest (issue 42 item 3, probed): a Codex `[mcp_servers.NAME]`
// with both `command` and `url` is a configuration error to codex-rs (`TryFrom<RawMcpServerConfig>`: "url is not
// supported for stdio"), so Codex loads nothing of the file: doctor must not call the proxied command gated. And a
// hook that fails open is gated only when its host gives it the time it may need to answer: its own deadline (10 s,
// counted once its code has loaded) plus its start and its answer, not the deadline alone.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { hookAnswerSeconds } from '../../src/doctor/configured-hook.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { hookTimeoutSeconds, hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { useScratch, write } from './doctor-scratch.ts';

const policy = path.resolve(import.meta.dirname, '../../policies/default.yaml');
const scratch = useScratch('linkgate-doctor-entries-');
const proxyArgs = [cliEntry(), 'proxy', '--policy', policy, '--', 'node', 's.js'];
const toml = (value: unknown) => JSON.stringify(value);

const doctor = (home: string, cwd: string): Promise<DoctorReport> =>
  runDoctor({ home, cwd, env: { HOME: home, PATH: process.env['PATH'] ?? '' } }, { startServers: false });
const states = (report: DoctorReport) => report.servers.map((s) => [s.host, s.name, s.state]);

describe('codex: an mcp server entry with a `url` beside its `command`', () => {
  test('codex refuses the file: the proxied entry is not gated, and the run fails naming why', async () => {
    const { home, project } = scratch();
    const config = (extra: string) =>
      write(
        path.join(home, '.codex', 'config.toml'),
        `[mcp_servers.docs]\ncommand = "node"\nargs = ${toml(proxyArgs)}\n${extra}`,
      );
    config('');
    let report = await doctor(home, project);
    expect(states(report)).toEqual([['codex', 'docs', 'gated']]);
    expect(report.ok).toBe(true);
    for (const extra of ['url = "http://127.0.0.1:9/mcp"', 'http_headers = { a = "b" }', 'bearer_token = "t"']) {
      config(extra);
      report = await doctor(home, project);
      expect(states(report)).toEqual([['codex', 'docs', 'disabled']]);
      expect(report.ok).toBe(false);
      expect(report.problems.join('\n')).toMatch(
        /codex refuses `\[mcp_servers.docs\]` .*is not supported beside `command`/,
      );
    }
  });

  test('a url entry with stdio fields is refused as well; a plain url entry is a remote server', async () => {
    const { home, project } = scratch();
    const config = (body: string) => write(path.join(home, '.codex', 'config.toml'), `[mcp_servers.r]\n${body}`);
    config('url = "https://e.example/mcp"\n');
    let report = await doctor(home, project);
    expect(report.servers.map((s) => [s.transport, s.state])).toEqual([['remote', 'not-gated']]);
    expect(report.problems).toEqual([]);
    config('url = "https://e.example/mcp"\nargs = ["x"]\n');
    report = await doctor(home, project);
    expect(report.problems.join('\n')).toContain('`args` is not supported beside `url`');
  });
});

describe('a hook that fails open, and the time its host gives it', () => {
  const hookCommand = ['node', cliEntry(), 'hook', 'claude-code', '--policy', policy].map(shellQuote).join(' ');
  const withTimeout = (timeout: number) => {
    const settings = hostSettings['claude-code'](hookCommand) as {
      hooks: Record<string, { hooks: Record<string, unknown>[] }[]>;
    };
    for (const groups of Object.values(settings.hooks))
      for (const group of groups)
        for (const h of group.hooks) {
          delete h['onFailure'];
          h['timeout'] = timeout;
        }
    return settings;
  };

  test('the threshold is the deadline plus its start and answer, below the printed timeout', () => {
    // the deadline is a third of the printed timeout (`hookDeadlineMs`)
    expect(hookAnswerSeconds).toBeGreaterThan(hookTimeoutSeconds / 3);
    expect(hookAnswerSeconds).toBeLessThanOrEqual(hookTimeoutSeconds);
  });

  test('a timeout equal to the deadline (10 s) is not enough; the threshold and the printed one are', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { docs: { command: 'node', args: ['s.js'] } } });
    const cases: [number, string][] = [
      [hookTimeoutSeconds / 3, 'not-gated'],
      [hookAnswerSeconds - 1, 'not-gated'],
      [hookAnswerSeconds, 'partly-gated'],
      [hookTimeoutSeconds, 'partly-gated'],
    ];
    for (const [timeout, state] of cases) {
      write(path.join(home, '.claude', 'settings.json'), withTimeout(timeout));
      const report = await doctor(home, project);
      expect([timeout, report.servers[0]?.state]).toEqual([timeout, state]);
      if (state === 'not-gated')
        expect(report.servers[0]?.problems.join('\n')).toMatch(/less than the 15 s it may need to answer/);
    }
  });
});
