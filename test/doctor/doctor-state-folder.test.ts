// The hook refuses a state folder an agent could have put elsewhere or others can write (src/hook/state-folder.ts):
// every event then fails closed. Doctor reads the hook's `--state` (or the default folder the hook takes) and runs the
// same check, so it says the hook will not run, naming the folder, exactly when the hook fails closed; the real hook
// run on the same folder is the oracle. Nothing is made: doctor only looks (issue 39).
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { runCli, runCommand } from '../helpers/run-cli.ts';
import { readRequested } from '../hook/hook-events.ts';
import { defaultPolicy, printedHook, useScratch, write } from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-state-');

/** Doctor's `--json` report and its text on the claude code hooks of `home` run with `options`. */
async function doctorOn(
  home: string,
  project: string,
  options: string[],
  env: Record<string, string> = {},
): Promise<{ report: DoctorReport; text: string }> {
  write(path.join(home, '.claude.json'), { mcpServers: { docs: { command: 'node', args: ['s.js'] } } });
  write(
    path.join(home, '.claude', 'settings.json'),
    hostSettings['claude-code'](printedHook('claude-code', ...options)),
  );
  const run = (args: string[]) =>
    runCommand(doctorCommand, args, { cwd: project, env: { HOME: home, PATH: process.env['PATH'] ?? '', ...env } });
  return { report: JSON.parse((await run(['--json'])).stdout) as DoctorReport, text: (await run([])).stdout };
}

/** The hook's exit code for a read the default policy allows, with `options` and `env`: 2 when it fails closed. */
async function hookReadCode(options: string[], env: Record<string, string> = {}): Promise<number> {
  const event = JSON.stringify(readRequested('docs', 'rt://docs/a.md'));
  return (await runCli(['hook', 'claude-code', '--policy', defaultPolicy, ...options], event, env)).code;
}

/** Each hook's state-folder lines. */
const stateLines = (report: DoctorReport) =>
  report.hooks.map((h) => h.problems.filter((p) => p.includes('state folder')));

describe("doctor reads the hook's state folder", () => {
  test('control: a folder of its own and one not made yet: the hooks run, nothing is made', async () => {
    const { home, project } = scratch();
    const own = path.join(home, 'own');
    mkdirSync(own, { mode: 0o700 });
    for (const state of [own, path.join(home, 'new', 'state')]) {
      const { report } = await doctorOn(home, project, ['--state', state]);
      expect(report.hooks.map((h) => [h.runs, h.problems])).toEqual(report.hooks.map(() => [true, []]));
    }
    expect(existsSync(path.join(home, 'new'))).toBe(false);
    expect(await hookReadCode(['--state', own])).toBe(0);
  });

  test('a --state folder reached through a symlink (relative to the project): every hook will not run', async () => {
    const { home, project } = scratch();
    mkdirSync(path.join(home, 'chosen'), { mode: 0o700 });
    symlinkSync(path.join(home, 'chosen'), path.join(project, 'link'));
    const { report, text } = await doctorOn(home, project, ['--state', 'link/state']);
    const line = `the state folder \`${path.join(project, 'link', 'state')}\` is refused: the folder \`${path.join(project, 'link', 'state')}\` is reached through the symlink \`${path.join(project, 'link')}\``;
    expect(report.hooks.length).toBeGreaterThan(0);
    for (const hook of report.hooks) {
      expect(hook.runs).toBe(false);
      expect(hook.problems).toHaveLength(1);
      expect(hook.problems[0]).toContain(line);
      expect(hook.problems[0]).toContain('the hook fails closed on every event');
    }
    expect(report.ok).toBe(false);
    expect(report.servers[0]?.gated).toBe(false);
    expect(text).toContain('will not run');
    expect(text).toContain(line);
    expect(await hookReadCode(['--state', path.join(project, 'link', 'state')])).toBe(2);
  });

  test('a world-writable --state folder: named with its mode, as the hook refuses it', async () => {
    const { home, project } = scratch();
    const state = path.join(home, 'state');
    mkdirSync(state);
    chmodSync(state, 0o777);
    const { report } = await doctorOn(home, project, ['--state', state]);
    expect(stateLines(report)).toEqual(
      report.hooks.map(() => [
        `the state folder \`${state}\` is writable by its group or others (mode 777): \`chmod go-w\` it: the hook fails closed on every event (a read is denied, a tool result withheld)`,
      ]),
    );
    expect(report.hooks.every((h) => !h.runs)).toBe(true);
    expect(await hookReadCode(['--state', state])).toBe(2);
  });

  test('without --state: the default folder the hook takes ($XDG_CACHE_HOME, else ~/.cache) is checked', async () => {
    const { home, project } = scratch();
    const byHome = path.join(home, '.cache', 'linkgate', 'hook');
    mkdirSync(byHome, { recursive: true, mode: 0o700 });
    chmodSync(byHome, 0o707);
    expect(stateLines((await doctorOn(home, project, [])).report)[0]).toEqual([
      expect.stringContaining(`the state folder \`${byHome}\` is writable by its group or others (mode 707)`),
    ]);
    const cache = path.join(home, 'cache');
    const byXdg = path.join(cache, 'linkgate', 'hook');
    mkdirSync(byXdg, { recursive: true, mode: 0o700 });
    chmodSync(byXdg, 0o770);
    const { report } = await doctorOn(home, project, [], { XDG_CACHE_HOME: cache });
    expect(stateLines(report)[0]).toEqual([expect.stringContaining(`the state folder \`${byXdg}\` is writable`)]);
    expect(await hookReadCode([], { XDG_CACHE_HOME: cache })).toBe(2);
  });

  test('without --state, a cache root the user made a symlink is followed as the hook follows it', async () => {
    const { home, project } = scratch();
    const disk = path.join(home, 'disk');
    mkdirSync(path.join(disk, 'cache'), { recursive: true, mode: 0o700 });
    symlinkSync(path.join(disk, 'cache'), path.join(home, '.cache'));
    // ~/.cache and $XDG_CACHE_HOME alike: no problem, and the hook runs
    const byHome = (await doctorOn(home, project, [])).report;
    expect(byHome.hooks.length).toBeGreaterThan(0);
    expect(byHome.hooks.map((h) => [h.runs, h.problems])).toEqual(byHome.hooks.map(() => [true, []]));
    const xdg = path.join(home, 'xdg');
    symlinkSync(path.join(disk, 'cache'), xdg);
    const { report } = await doctorOn(home, project, [], { XDG_CACHE_HOME: xdg });
    expect(report.hooks.map((h) => [h.runs, h.problems])).toEqual(report.hooks.map(() => [true, []]));
    expect(await hookReadCode([], { XDG_CACHE_HOME: xdg })).toBe(0);
    // below the root the hook walks as before: `linkgate` a symlink is refused by both
    rmSync(path.join(disk, 'cache', 'linkgate'), { recursive: true, force: true });
    mkdirSync(path.join(home, 'chosen'));
    symlinkSync(path.join(home, 'chosen'), path.join(disk, 'cache', 'linkgate'));
    const planted = await doctorOn(home, project, [], { XDG_CACHE_HOME: xdg });
    expect(stateLines(planted.report)[0]).toEqual([
      expect.stringContaining(`is reached through the symlink \`${path.join(disk, 'cache', 'linkgate')}\``),
    ]);
    expect(await hookReadCode([], { XDG_CACHE_HOME: xdg })).toBe(2);
  });

  test('a plain file on the way to a folder not made yet: the hook cannot make it, and doctor says so', async () => {
    const { home, project } = scratch();
    write(path.join(home, 'file'), 'planted');
    const state = path.join(home, 'file', 'a', 'state');
    const { report } = await doctorOn(home, project, ['--state', state]);
    expect(stateLines(report)[0]).toEqual([
      expect.stringMatching(/^the state folder `[^`]+\/file\/a\/state` cannot be used: ENOTDIR: not a directory/),
    ]);
    expect(await hookReadCode(['--state', state])).toBe(2);
  });

  test("a session's folder in it that is a symlink: that session's events fail closed", async () => {
    const { home, project } = scratch();
    const state = path.join(home, 'state');
    mkdirSync(state, { mode: 0o700 });
    mkdirSync(path.join(home, 'chosen'));
    const session = path.join(state, `s-${'0'.repeat(32)}`);
    symlinkSync(path.join(home, 'chosen'), session);
    const { report } = await doctorOn(home, project, ['--state', state]);
    expect(stateLines(report)[0]).toEqual([
      `the session's state folder \`${session}\` is not a folder (a symlink): the hook fails closed on every event of that session (a read is denied, a tool result withheld)`,
    ]);
  });
});
