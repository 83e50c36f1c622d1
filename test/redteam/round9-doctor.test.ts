// Red team (issue 39, hidden-style round 9), doctor: set-ups it calls held that are not. Round 8 made doctor say, for a
// Claude Code hook that sees tool results, that its memory of refusals across events is not held unless Claude Code's
// sandbox keeps the agent's shell out of the state folder (`sandbox.enabled`, `allowUnsandboxedCommands: false`, the
// state folder outside the project). Two more settings open the folder to the shell with the sandbox on: a command
// listed in `sandbox.excludedCommands` runs outside the sandbox (`rm` deletes the state), and a folder in
// `permissions.additionalDirectories` is a working folder the sandboxed shell may write (here the cache root that
// holds the default state folder). The control: the sandbox on and closed, nothing excluded or added, gets no such
// warning. The printed Claude Code hooks, doctor in process over a scratch home.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { doctorReport, printedHook, useScratch, write } from '../doctor/doctor-scratch.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: excluded commands — doctor (src/doctor/refusal-memory.ts reads `enabled`/`allowUnsandboxedCommands` only) — owner: doctor39
// key: additional directories — doctor (the same file: `permissions.additionalDirectories` not read) — owner: doctor39
const open = new Set<string>([]);
const it = caseKeys(open);

const scratch = useScratch('linkgate-redteam-r9doctor-');
const notHeld = "the hook's memory of refusals across events is not held";

/** The post hooks' warnings doctor gives for the printed Claude Code hooks under `extra` settings. */
async function postWarnings(extra: (home: string) => Record<string, unknown>): Promise<string[]> {
  const { home, project } = scratch();
  const settings = hostSettings['claude-code'](printedHook('claude-code')) as Record<string, unknown>;
  const more = extra(home);
  const sandbox = { enabled: true, allowUnsandboxedCommands: false, ...(more['sandbox'] as object | undefined) };
  write(path.join(home, '.claude', 'settings.json'), { ...settings, ...more, sandbox });
  const report = await doctorReport(home, project);
  const post = report.hooks.filter((h) => h.phase === 'post');
  expect(post.length).toBeGreaterThan(0);
  return post.flatMap((h) => h.warnings);
}

describe('red team, doctor (round 9): the sandbox open to the state folder another way', () => {
  test('control: the sandbox on and closed, nothing excluded or added: no warning', async () => {
    expect((await postWarnings(() => ({}))).join('\n')).not.toContain(notHeld);
  });

  test('control: the sandbox off: the warning', async () => {
    expect((await postWarnings(() => ({ sandbox: { enabled: false } }))).join('\n')).toContain(notHeld);
  });

  it('excluded commands')('`sandbox.excludedCommands` lists `rm`: the warning', async () => {
    const warnings = await postWarnings(() => ({ sandbox: { excludedCommands: ['rm'] } }));
    expect(warnings.join('\n')).toContain(notHeld);
  });

  it('additional directories')(
    '`permissions.additionalDirectories` holds the cache root of the state folder: the warning',
    async () => {
      const warnings = await postWarnings((home) => ({
        permissions: { additionalDirectories: [path.join(home, '.cache')] },
      }));
      expect(warnings.join('\n')).toContain(notHeld);
    },
  );
});
