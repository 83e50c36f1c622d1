// Doctor claims no more than it can see (issue 39): it reads each host's files in its own environment, never the
// flags or environment a session of the host is started with (Claude Code's `--bare` runs no hook, `--settings`
// adds a layer that can turn hooks off, `--mcp-config` adds servers; Codex's `-c`, `--profile`). Where it calls a
// server gated it says so, in the text (once per host, and in the summary) and in `--json` (`unseen` of the server);
// a server it does not call gated carries no such line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { runCommand } from '../helpers/run-cli.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const policy = path.join(repoRoot, 'policies', 'default.yaml');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function write(file: string, value: object | string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}

async function doctor(home: string, project: string, ...args: string[]) {
  const env = { HOME: home, PATH: process.env['PATH'] ?? '' };
  const json = await runCommand(doctorCommand, ['--json', '--no-start', ...args], { cwd: project, env });
  const text = await runCommand(doctorCommand, ['--no-start', ...args], { cwd: project, env });
  return { report: JSON.parse(json.stdout) as DoctorReport, text: text.stdout, code: json.code };
}

test('a gated host says what of its start doctor cannot see; an ungated one does not', async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'linkgate-doctor-unseen-'));
  dirs.push(home);
  const project = path.join(home, 'project');
  mkdirSync(project);
  // claude code: one server behind the proxy, one gated by the printed hooks (matchers cover every tool)
  const proxied = { command: 'node', args: [cliEntry(), 'proxy', '--policy', policy, '--', 'node', 's.js'] };
  write(path.join(home, '.claude.json'), { mcpServers: { proxied, hooked: { command: 'node', args: ['h.js'] } } });
  const hook = ['node', cliEntry(), 'hook', 'claude-code', '--policy', policy].map(shellQuote).join(' ');
  write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](hook));
  // codex: one server with no front end
  write(path.join(home, '.codex', 'config.toml'), '[mcp_servers.plain]\ncommand = "node"\nargs = ["p.js"]\n');

  const { report, text } = await doctor(home, project);
  const state = Object.fromEntries(report.servers.map((s) => [`${s.host}/${s.name}`, s.state]));
  expect(state).toMatchObject({
    'claude-code/proxied': 'gated',
    'claude-code/hooked': 'partly-gated',
    'codex/plain': 'not-gated',
  });
  for (const s of report.servers.filter((s) => s.host === 'claude-code')) {
    expect(s.unseen).toMatch(/^judged from claude code's files and doctor's own environment: doctor cannot see/);
    for (const flag of ['--bare', '--settings FILE', '--mcp-config FILE']) expect(s.unseen).toContain(flag);
  }
  expect(report.servers.find((s) => s.name === 'plain')?.unseen).toBeUndefined();

  // the text: once under claude code (after its servers), none under codex, and the summary says what gated means
  const lines = text.split('\n');
  const notes = lines.filter((l) => l.startsWith('  note: '));
  expect(notes).toHaveLength(1);
  const claude = lines.indexOf('claude-code');
  const codex = lines.indexOf('codex');
  const note = lines.indexOf(notes[0] as string);
  expect(note).toBeGreaterThan(claude);
  expect(note).toBeLessThan(codex);
  expect(notes[0]).toContain(
    'doctor cannot see the flags or environment claude code is started with (`--bare` runs no hook',
  );
  expect(text).toContain('3 servers: 1 gated, 1 partly gated, 1 not gated');
  expect(text).toContain('partly gated (refusals not held across events): hooked (claude-code)');
  expect(text).toContain(
    "gated as the hosts' files and this environment say: the flags and environment a host starts with are not seen",
  );
});

test('with nothing gated, doctor makes no claim to qualify', async () => {
  const home = mkdtempSync(path.join(tmpdir(), 'linkgate-doctor-unseen-'));
  dirs.push(home);
  const project = path.join(home, 'project');
  mkdirSync(project);
  write(path.join(home, '.claude.json'), { mcpServers: { plain: { command: 'node', args: ['p.js'] } } });
  const { report, text } = await doctor(home, project);
  expect(report.servers.map((s) => [s.state, s.unseen])).toEqual([['not-gated', undefined]]);
  expect(text).not.toContain('note: ');
  expect(text).not.toContain('are not seen');
});
