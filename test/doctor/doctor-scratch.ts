// The scratch set-ups the doctor suites build: a home folder with a project inside, removed after each test, and the
// settings files written into them; the printed hook and proxy entries, and doctor's report on them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { shellQuote } from '../../src/hook/hook-settings.ts';
import { runCommand } from '../helpers/run-cli.ts';

/** Registers the clean-up and returns a maker of fresh `{ home, project }` folders named after `prefix`. */
export function useScratch(prefix: string): () => { home: string; project: string } {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const home = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(home);
    const project = path.join(home, 'project');
    mkdirSync(project);
    return { home, project };
  };
}

/** Writes `value` (a string as is, anything else as JSON) to `file`, making its folder. */
export function write(file: string, value: string | object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}

/** The default policy the doctor suites point hooks and proxies at. */
export const defaultPolicy = path.resolve(import.meta.dirname, '../../policies/default.yaml');

/** The printed hook command for `host` (the built CLI, the default policy, then `options`), quoted for a shell. */
export const printedHook = (host: string, ...options: string[]): string =>
  ['node', cliEntry(), 'hook', host, '--policy', defaultPolicy, ...options].map(shellQuote).join(' ');

/** A plain server entry doctor cannot see behind. */
export const plainServer = { command: 'node', args: ['s.js'] };

/** The same server entry started through `linkgate proxy` with `options`. */
export const proxiedServer = (...options: string[]) => ({
  command: 'node',
  args: [cliEntry(), 'proxy', '--policy', defaultPolicy, ...options, '--', 'node', 's.js'],
});

/**
 * Runs `linkgate doctor --json` plus `args` in `cwd` with `home` as HOME (Claude Code's managed settings under
 * `home/managed`, Codex's system files under `home/codex-system`).
 */
export async function doctorReport(
  home: string,
  cwd: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
): Promise<DoctorReport> {
  const run = await runCommand(doctorCommand, ['--json', ...args], {
    cwd,
    env: {
      HOME: home,
      PATH: process.env['PATH'] ?? '',
      LINKGATE_CLAUDE_MANAGED_DIR: path.join(home, 'managed'),
      LINKGATE_CODEX_SYSTEM_DIR: path.join(home, 'codex-system'),
      ...env,
    },
  });
  return JSON.parse(run.stdout) as DoctorReport;
}

/** Each server of a report as `[host, name, state]`. */
export const serverStates = (report: DoctorReport) => report.servers.map((s) => [s.host, s.name, s.state]);

/** `settings` with `change` applied to every handler of its hooks block. */
export function everyHandler(
  settings: Record<string, unknown>,
  change: (h: Record<string, unknown>) => void,
): Record<string, unknown> {
  const hooks = settings['hooks'] as Record<string, { hooks: Record<string, unknown>[] }[]>;
  for (const groups of Object.values(hooks)) for (const group of groups) for (const h of group.hooks) change(h);
  return settings;
}
