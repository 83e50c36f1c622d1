// Red team (issue 39, hidden-style round 5), agent-writable files and doctor. Files: the hook's `--state` folder
// replaced by a symlink to a folder the agent chose, or by a plain file, and a `--records` path that is a device or a
// folder: the hook must not write through them and must not let a read or a result pass. Doctor: set-ups it must not
// call gated: a Claude Code hook whose post group is gone (tool results unjudged) or whose matchers miss MCP tools,
// hooks whose `--records` the hook refuses (a device, a folder), and a Gemini CLI proxy entry whose `cwd` makes its
// relative `--policy` name no file. Each doctor case changes one thing of the printed, gated set-up.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { readRequested, toolReturned } from '../hook/hook-events.ts';
import { runCli } from '../helpers/run-cli.ts';
import { doctorReport, plainServer, printedHook, serverStates, useScratch, write } from '../doctor/doctor-scratch.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none now.
// The hook created its state folder with `mkdir -p` and wrote through a symlink there (the state folder is checked
// since, `src/hook/state-folder.ts`). A Gemini CLI entry's `cwd` was ignored by doctor (fixed with it).
const open = new Set<string>([]);
const it = caseKeys(open);

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const link = (uri: string, name = 'creds') => ({ type: 'resource_link', uri, name });

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-r5files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hookWith = (state: string, records: string, event: unknown) =>
  runCli(
    ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', state, '--records', records],
    JSON.stringify(event),
  );

/** Whether a Claude Code hook run let the host go on: exit 0 with no deny and no withheld result. */
const passed = (run: { code: number; stdout: string }) =>
  run.code === 0 && !/"deny"|"block"|linkgate withheld|linkgate refused/.test(run.stdout);

describe('red team, agent-writable files (round 5): the state folder and the records path', () => {
  it('state symlink')('a --state folder that is a symlink to another folder: nothing is written there', async () => {
    const chosen = join(dir, 'autostart');
    mkdirSync(chosen);
    symlinkSync(chosen, join(dir, 'state'));
    const listed = await hookWith(
      join(dir, 'state'),
      join(dir, 'r.jsonl'),
      toolReturned('docs', 'links', [link('rt://docs/a.md', 'a')]),
    );
    const read = await hookWith(join(dir, 'state'), join(dir, 'r.jsonl'), readRequested('docs', metadata));
    expect(readdirSync(chosen)).toEqual([]);
    expect(passed(read)).toBe(false);
    expect(listed.stdout).not.toContain(metadata);
  });

  it('state file')('a --state path that is a plain file: a read of a refused link does not pass', async () => {
    writeFileSync(join(dir, 'state'), 'planted');
    const run = await hookWith(join(dir, 'state'), join(dir, 'r.jsonl'), readRequested('docs', metadata));
    expect(passed(run)).toBe(false);
  });

  for (const [label, records] of [
    ['a character device (/dev/null)', () => '/dev/null'],
    ['a folder', () => dir],
  ] as const)
    it(`records ${label}`)(
      `a --records path that is ${label}: a tool result holding a link does not pass`,
      async () => {
        const run = await hookWith(
          join(dir, 'state'),
          records(),
          toolReturned('docs', 'links', [link('rt://docs/a.md', 'a'), link(metadata)]),
        );
        expect(passed(run)).toBe(false);
        expect(run.stdout).not.toContain('169.254.169.254/latest');
      },
    );
});

const scratch = useScratch('linkgate-redteam-r5doctor-');

// a Claude Code user whose printed hooks gate `docs`, with `change` applied to the settings
function claudeHooked(
  home: string,
  change: (s: Record<string, unknown>) => void,
  command = printedHook('claude-code'),
) {
  write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
  const settings = hostSettings['claude-code'](command) as Record<string, unknown>;
  change(settings);
  write(path.join(home, '.claude', 'settings.json'), settings);
}

const groupsOf = (s: Record<string, unknown>) =>
  s['hooks'] as Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;

describe('red team, doctor (round 5): Claude Code hooks that do not see what they gate', () => {
  test('control: the printed hooks gate `docs`', async () => {
    const { home, project } = scratch();
    claudeHooked(home, () => undefined);
    expect(serverStates(await doctorReport(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
  });

  it('no post')('the PostToolUse group removed: tool results go unjudged, not gated', async () => {
    const { home, project } = scratch();
    claudeHooked(home, (s) => delete groupsOf(s)['PostToolUse']);
    expect(serverStates(await doctorReport(home, project))).not.toContainEqual(['claude-code', 'docs', 'partly-gated']);
  });

  it('matcher Bash')('every matcher set to `Bash`: no MCP tool or read reaches the hook, not gated', async () => {
    const { home, project } = scratch();
    claudeHooked(home, (s) => {
      for (const groups of Object.values(groupsOf(s))) for (const g of groups) g.matcher = 'Bash';
    });
    expect(serverStates(await doctorReport(home, project))).not.toContainEqual(['claude-code', 'docs', 'partly-gated']);
  });

  it('matcher other server')(
    'post matchers naming another server only (`mcp__other__.*`): `docs` not gated',
    async () => {
      const { home, project } = scratch();
      claudeHooked(home, (s) => {
        for (const g of groupsOf(s)['PostToolUse'] ?? []) g.matcher = 'ReadMcpResourceTool|mcp__other__.*';
      });
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual([
        'claude-code',
        'docs',
        'partly-gated',
      ]);
    },
  );

  for (const [label, records] of [
    ['a character device (/dev/null)', () => '/dev/null'],
    ['a folder', (home: string) => home],
  ] as const)
    it(`doctor records ${label}`)(`a hook whose --records is ${label} (the hook refuses it): not gated`, async () => {
      const { home, project } = scratch();
      claudeHooked(home, () => undefined, printedHook('claude-code', '--records', records(home)));
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual([
        'claude-code',
        'docs',
        'partly-gated',
      ]);
    });
});

describe('red team, doctor (round 5): a Gemini CLI proxy entry started in another folder', () => {
  // Gemini CLI starts a stdio server in its entry's `cwd`: a relative `--policy` resolves there, not in the project
  const relativeProxy = (cwd?: string) => ({
    command: 'node',
    args: [cliEntry(), 'proxy', '--policy', 'policy.yaml', '--', 'node', 's.js'],
    ...(cwd === undefined ? {} : { cwd }),
  });

  it('gemini cwd')("a relative --policy found in the project but not in the entry's `cwd`: not gated", async () => {
    const { home, project } = scratch();
    copyFileSync(path.join(repoRoot, 'policies/default.yaml'), path.join(project, 'policy.yaml'));
    const settings = (entry: object) =>
      write(path.join(home, '.gemini', 'settings.json'), { mcpServers: { docs: entry } });
    const env = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    // control: started in the project, the proxy loads the project's policy (one the agent may rewrite: not gated)
    settings(relativeProxy());
    const { servers } = await doctorReport(home, project, env);
    expect(servers.map((s) => [s.policies[0]?.review, s.problems.length])).toEqual([['not-checked', 1]]);
    expect(servers[0]?.problems[0]).toContain("which the agent's shell may write");
    settings(relativeProxy(home));
    expect(serverStates(await doctorReport(home, project, env))).not.toContainEqual(['gemini-cli', 'docs', 'gated']);
  });
});
