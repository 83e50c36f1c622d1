// Red team (issue 39, hidden-style round 15), doctor on Claude Code set-ups it may call gated that are not: the
// hooks turned off in the project's shared `.claude/settings.json` (round 14 tried the local file), a hook whose
// `--mode` is a shell default (`${LG_MODE:-observe}`: Claude Code runs the command through `sh -c`), a hook whose
// `--policy` is a path relative to the folder the host runs it in (the project the agent writes), the pre hook's
// matcher narrowed to `WebFetch` (reads of MCP resources never judged), the post hooks removed, and the printed hooks
// given in the user's settings while the project's settings add an observe copy (both run: still gated, a control).
// `linkgate doctor --json` over a scratch home.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import {
  defaultPolicy,
  doctorReport,
  everyHandler,
  plainServer,
  printedHook,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';

const scratch = useScratch('linkgate-redteam-r15doctor-');
const sandbox = { enabled: true, allowUnsandboxedCommands: false };
const state = (report: DoctorReport) => serverStates(report).find(([, n]) => n === 'docs')?.[2];
type Settings = Record<string, unknown>;
type Groups = Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;

/** Doctor's report on the printed hooks (`options` added) in the user's settings after `tweak`, `docs` a plain server. */
async function hooked(tweak: (project: string, settings: Settings) => void = () => {}, ...options: string[]) {
  const { home, project } = scratch();
  const settings = hostSettings['claude-code'](printedHook('claude-code', ...options)) as Settings;
  tweak(project, settings);
  write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox });
  write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
  return doctorReport(home, project);
}

describe('red team, doctor (round 15): Claude Code hooks that do not gate', () => {
  test('control: the printed hooks: gated', async () => {
    expect(state(await hooked())).toBe('gated');
  });
  test("`disableAllHooks` in the project's shared .claude/settings.json: not gated", async () => {
    const report = await hooked((project) =>
      write(path.join(project, '.claude', 'settings.json'), { disableAllHooks: true }),
    );
    expect(state(report)).not.toBe('gated');
  });
  test('`--mode ${LG_MODE:-observe}` in the hook command: not gated', async () => {
    const report = await hooked((_, settings) =>
      everyHandler(settings, (h) => {
        h['command'] = `${String(h['command'])} --mode \${LG_MODE:-observe}`;
      }),
    );
    expect(state(report)).not.toBe('gated');
  });
  test('`--policy` a path relative to the folder the hook runs in: not gated', async () => {
    const report = await hooked((_, settings) =>
      everyHandler(settings, (h) => {
        h['command'] = String(h['command'])
          .replace(`'${defaultPolicy}'`, 'policy.yaml')
          .replace(defaultPolicy, 'policy.yaml');
      }),
    );
    expect(state(report)).not.toBe('gated');
  });
  test('the pre hook matched to `WebFetch` only: not gated', async () => {
    const report = await hooked((_, settings) => {
      const hooks = settings['hooks'] as Groups;
      hooks['PreToolUse'] = (hooks['PreToolUse'] ?? []).map((g) => ({ ...g, matcher: 'WebFetch' }));
    });
    expect(state(report)).not.toBe('gated');
  });
  test('the post hooks removed: not gated', async () => {
    const report = await hooked((_, settings) => {
      const hooks = settings['hooks'] as Groups;
      delete hooks['PostToolUse'];
    });
    expect(state(report)).not.toBe('gated');
  });
  test("control: the project's settings add an observe copy of the hooks beside the user's: still gated", async () => {
    const report = await hooked((project) =>
      write(
        path.join(project, '.claude', 'settings.json'),
        hostSettings['claude-code'](printedHook('claude-code', '--mode', 'observe')),
      ),
    );
    expect(state(report)).toBe('gated');
  });
});
