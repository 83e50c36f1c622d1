// Red team (issue 39, hidden-style round 7), doctor: Claude Code hook commands `linkgate doctor` must not call gated,
// each the printed hook with one thing changed (the printed one, gated, is the control in the same test). The hook
// itself is the oracle: each changed command is run on Claude Code's pre-read event for the metadata address and lets
// it through (exit 0, no deny), while the printed one denies it. Changes: a node flag that never runs the script
// (`--check`, `-c`); an option that makes the command print and exit (`--help`, `--print-config`); the hook of another
// host (`hook gemini-cli`, `hook cursor`, `hook codex`: their adapters take Claude Code's event as not theirs). Then
// `npx` running another package's `linkgate` bin (`--package=…`, an `npm:` alias): no oracle offline, npm's own
// semantics (npx installs the `--package` spec or the alias target and runs its bin).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import {
  defaultPolicy,
  doctorReport,
  plainServer,
  printedHook,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';
import { readRequested } from '../hook/hook-events.ts';
import { metadata } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none now.
// Doctor read a hook command's node flags only for code they load first, and its own options only for `--mode`:
// `node --check`/`-c` never runs linkgate, `--help` and `--print-config` print and exit 0; Claude Code takes each as an
// allow. Mended in src/doctor/linkgate-invocation.ts (node's command line read as node reads it, `argProblem`).
const open = new Set<string>([]);
const it = caseKeys(open);

const scratch = useScratch('linkgate-redteam-r7doctor-');
const gated = ['claude-code', 'docs', 'partly-gated'];
const quoted = (argv: readonly string[]) => argv.map(shellQuote).join(' ');

/** Claude Code's user settings with `command` as the hook, `docs` a plain server. */
function claudeHooked(home: string, command: string) {
  write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
  write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](command));
}

/** `command` run by `sh -c` on Claude Code's pre-read event for the metadata address: whether it denied the read. */
function denies(command: string, state: string): boolean {
  const run = spawnSync('sh', ['-c', `${command} --state ${shellQuote(state)}`], {
    input: JSON.stringify(readRequested('docs', metadata)),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return run.status !== 0 || /"deny"/.test(run.stdout);
}

const hook = (host: string, ...options: string[]) =>
  quoted(['node', cliEntry(), 'hook', host, '--policy', defaultPolicy, ...options]);
const changed: [string, string][] = [
  ['node --check', quoted(['node', '--check', cliEntry(), 'hook', 'claude-code', '--policy', defaultPolicy])],
  ['node -c', quoted(['node', '-c', cliEntry(), 'hook', 'claude-code', '--policy', defaultPolicy])],
  ['--help', hook('claude-code', '--help')],
  ['--print-config', hook('claude-code', '--print-config')],
  ['hook gemini-cli', hook('gemini-cli')],
  ['hook cursor', hook('cursor')],
  ['hook codex', hook('codex')],
];

describe('red team, doctor (round 7): a Claude Code hook command that answers nothing', () => {
  for (const [label, command] of changed)
    it(label)(`claude code: the printed hook changed to \`${label}\` lets the read through: not gated`, async () => {
      const { home, project } = scratch();
      const state = path.join(home, 'state');
      expect(denies(printedHook('claude-code'), state)).toBe(true);
      claudeHooked(home, printedHook('claude-code'));
      expect(serverStates(await doctorReport(home, project))).toEqual([gated]);
      expect(denies(command, state)).toBe(false);
      claudeHooked(home, command);
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(gated);
    });

  for (const [label, npx] of [
    ['npx --package', ['npx', '--yes', '--package=linkgate-shim', 'linkgate']],
    ['npx npm alias', ['npx', '--yes', 'linkgate@npm:linkgate-shim']],
  ] as const)
    it(label)(`claude code: the hook run as \`${npx.join(' ')} hook claude-code\`: not gated`, async () => {
      const { home, project } = scratch();
      claudeHooked(home, quoted([...npx, 'hook', 'claude-code', '--policy', defaultPolicy]));
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(gated);
    });
});
