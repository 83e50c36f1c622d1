// Red team, doctor: `linkgate doctor` must never say "gated" for a server that is not. Each case sets up a host's
// files the way a user (or an agent that can write them) might, where the gate does not stand, and checks that doctor
// does not call the server gated. Hosts' own switches are read as their binaries read them (Claude Code 2.1.332:
// `CLAUDE_CONFIG_DIR`, bare mode `CLAUDE_CODE_SIMPLE`, `managed-mcp.json`).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import {
  defaultPolicy,
  doctorReport,
  plainServer,
  printedHook,
  proxiedServer,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';

const policy = defaultPolicy;
const fresh = useScratch('linkgate-redteam-doctor-');
function scratch(): { home: string; project: string; managed: string } {
  const { home, project } = fresh();
  return { home, project, managed: path.join(home, 'managed') };
}

const words = (host: string, ...options: string[]) => [
  'node',
  cliEntry(),
  'hook',
  host,
  '--policy',
  policy,
  ...options,
];
const hookCommand = printedHook;
const server = plainServer;
const proxied = proxiedServer;
const doctor = (home: string, cwd: string, env: Record<string, string> = {}) => doctorReport(home, cwd, env);
const states = serverStates;

// a Claude Code user whose hooks gate `docs`, in `home`; `command` replaces the printed hook command
function claudeHooked(home: string, command = hookCommand('claude-code')): void {
  write(path.join(home, '.claude.json'), { mcpServers: { docs: server } });
  write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](command));
}

describe('red team, doctor: the baseline is gated', () => {
  test('the printed Claude Code hooks gate a server (so every case below changes one thing)', async () => {
    const { home, project } = scratch();
    claudeHooked(home);
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
  });
});

describe('red team, doctor: observe mode', () => {
  test('`--mode=observe` on a proxy is observe', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { docs: proxied('--mode=observe') } });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'observe']]);
  });

  test('`--mode observe` before the host name of a hook is observe', async () => {
    const { home, project } = scratch();
    const command = ['node', cliEntry(), 'hook', '--mode', 'observe', 'claude-code', '--policy', policy]
      .map(shellQuote)
      .join(' ');
    claudeHooked(home, command);
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'observe']]);
  });

  test('a later `--mode observe` overrides an earlier `--mode enforce` (the last one wins, as in the command)', async () => {
    const { home, project } = scratch();
    claudeHooked(home, hookCommand('claude-code', '--mode', 'enforce', '--mode=observe'));
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'observe']]);
  });
});

describe('red team, doctor: hooks switched off by a host setting', () => {
  test("the project's local settings turn `disableAllHooks` on over the user's hooks", async () => {
    const { home, project } = scratch();
    claudeHooked(home);
    write(path.join(project, '.claude', 'settings.local.json'), { disableAllHooks: true });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test('Gemini CLI `hooksConfig.enabled: false` leaves its hooks unrun', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.gemini', 'settings.json'), {
      mcpServers: { docs: server },
      ...hostSettings['gemini-cli'](hookCommand('gemini-cli')),
      hooksConfig: { enabled: false },
    });
    const report = await doctor(home, project, { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(states(report)).toEqual([['gemini-cli', 'docs', 'not-gated']]);
  });

  test('Codex `[features] codex_hooks = false` leaves its hooks unrun', async () => {
    const { home, project } = scratch();
    write(
      path.join(home, '.codex', 'config.toml'),
      '[features]\ncodex_hooks = false\n[mcp_servers.docs]\ncommand = "node"\nargs = ["s.js"]\n',
    );
    write(path.join(home, '.codex', 'hooks.json'), hostSettings.codex(hookCommand('codex')));
    expect(states(await doctor(home, project))).toEqual([['codex', 'docs', 'not-gated']]);
  });

  test('Claude Code bare mode (`CLAUDE_CODE_SIMPLE=1` in the environment) runs no settings hook', async () => {
    const { home, project } = scratch();
    claudeHooked(home);
    expect(states(await doctor(home, project, { CLAUDE_CODE_SIMPLE: '1' }))).toEqual([
      ['claude-code', 'docs', 'not-gated'],
    ]);
  });

  test('Claude Code bare mode set by a settings file (`env.CLAUDE_CODE_SIMPLE`) runs no settings hook', async () => {
    const { home, project } = scratch();
    claudeHooked(home);
    write(path.join(project, '.claude', 'settings.json'), { env: { CLAUDE_CODE_SIMPLE: '1' } });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });
});

describe('red team, doctor: a hook command that does not run linkgate as printed', () => {
  test('a hook command whose entry is missing is not gated', async () => {
    const { home, project } = scratch();
    claudeHooked(
      home,
      ['node', path.join(home, 'gone', 'linkgate.js'), 'hook', 'claude-code', '--policy', policy]
        .map(shellQuote)
        .join(' '),
    );
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test('a stale entry: a script named linkgate.js that is not linkgate (it answers nothing) is not gated', async () => {
    const { home, project } = scratch();
    const stale = path.join(home, 'old', 'bin', 'linkgate.js');
    write(stale, 'process.exit(0)\n');
    write(path.join(home, 'old', 'package.json'), { name: 'not-linkgate', bin: { other: 'bin/linkgate.js' } });
    claudeHooked(home, ['node', stale, 'hook', 'claude-code', '--policy', policy].map(shellQuote).join(' '));
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  // a shell runs the hook's command line: an operator after linkgate's words changes what the host sees
  for (const [label, tail] of [
    ['`|| true` (a hook that cannot start answers nothing, exit 0)', '|| true'],
    ['`; exit 0` (the deny exit code is lost)', '; exit 0'],
    ['`&` (runs in the background, the host never waits for it)', '&'],
    ['`> /dev/null` (its answer never reaches the host)', '> /dev/null'],
    ['`| cat >/dev/null` (its answer never reaches the host)', '| cat >/dev/null'],
  ] as const)
    test(`a hook command ending in ${label} is not gated`, async () => {
      const { home, project } = scratch();
      claudeHooked(home, `${hookCommand('claude-code')} ${tail}`);
      const report = await doctor(home, project);
      expect(states(report)).toEqual([['claude-code', 'docs', 'not-gated']]);
    });

  test('Gemini CLI: the printed hook gates, the same command ending in `|| true` does not', async () => {
    const { home, project } = scratch();
    const settings = (command: string) => ({
      mcpServers: { docs: server },
      ...hostSettings['gemini-cli'](command),
    });
    const env = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    write(path.join(home, '.gemini', 'settings.json'), settings(hookCommand('gemini-cli')));
    expect(states(await doctor(home, project, env))).toEqual([['gemini-cli', 'docs', 'partly-gated']]);
    write(path.join(home, '.gemini', 'settings.json'), settings(`${hookCommand('gemini-cli')} || true`));
    expect(states(await doctor(home, project, env))).toEqual([['gemini-cli', 'docs', 'not-gated']]);
  });

  test('a quoted `||` inside an argument is no operator (the printed command with such a path still gates)', async () => {
    const { home, project } = scratch();
    const records = path.join(home, 'a || b; c & d');
    mkdirSync(records);
    claudeHooked(home, hookCommand('claude-code', '--records', path.join(records, 'r.jsonl')));
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
  });

  test('`--mode` with a value the command refuses (`Observe`) does not start: not gated', async () => {
    const { home, project } = scratch();
    claudeHooked(home, hookCommand('claude-code', '--mode', 'Observe'));
    expect(states(await doctor(home, project))).not.toEqual([['claude-code', 'docs', 'partly-gated']]);
  });
});

describe('red team, doctor: a policy file the agent can write', () => {
  test('`--strict-files` over a policy this user can change: the hook refuses to load it, so not gated', async () => {
    const { home, project } = scratch();
    const own = path.join(project, 'policy.yaml');
    write(own, '');
    writeFileSync(own, (await import('node:fs')).readFileSync(policy));
    chmodSync(own, 0o666);
    claudeHooked(
      home,
      ['node', cliEntry(), 'hook', 'claude-code', '--policy', own, '--strict-files'].map(shellQuote).join(' '),
    );
    const report = await doctor(home, project);
    expect(states(report)).toEqual([['claude-code', 'docs', 'not-gated']]);
  });
});

describe('red team, doctor: a records file the agent planted', () => {
  test('a `--records` path that is a symlink (the hook refuses to write through it) is not gated', async () => {
    const { home, project } = scratch();
    const target = path.join(home, 'bashrc');
    write(target, 'export PATH=/usr/bin\n');
    const records = path.join(home, 'records.jsonl');
    symlinkSync(target, records);
    claudeHooked(home, hookCommand('claude-code', '--records', records));
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test('a `--records` path that is a FIFO (a write that never ends) is not gated', async () => {
    const { home, project } = scratch();
    const records = path.join(home, 'records.fifo');
    execFileSync('mkfifo', [records]);
    claudeHooked(home, hookCommand('claude-code', '--records', records));
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });
});

describe('red team, doctor: a signed policy the agent can re-sign', () => {
  const reviewFolder = reviewFolders();

  test('`--require-signed`: a review that verifies, over files this user can change, does not gate', async () => {
    const { home, project } = scratch();
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const command = [
      'node',
      cliEntry(),
      'hook',
      'claude-code',
      '--policy',
      f.policy,
      '--allowed-signers',
      f.allowedSigners,
    ];
    claudeHooked(home, command.map(shellQuote).join(' '));
    // the review verifies: gated without the flag
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
    const report = await doctorReport(home, project, {}, ['--require-signed']);
    expect(states(report)).toEqual([['claude-code', 'docs', 'not-gated']]);
    expect(report.hooks[0]?.problems.join('\n')).toContain('can change what its review rests on');
  });
});

describe('red team, doctor: managed settings over user settings', () => {
  test('managed `disableAllHooks` turns off the user hooks a user `disableAllHooks: false` asks for', async () => {
    const { home, project, managed } = scratch();
    claudeHooked(home);
    write(path.join(project, '.claude', 'settings.local.json'), { disableAllHooks: false });
    write(path.join(managed, 'managed-settings.json'), { disableAllHooks: true });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test('managed `allowManagedHooksOnly` leaves the user hooks unrun', async () => {
    const { home, project, managed } = scratch();
    claudeHooked(home);
    write(path.join(managed, 'managed-settings.d', '10-only.json'), { allowManagedHooksOnly: true });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test("a server the administrator's managed-mcp.json delivers is listed, and not gated by a proxy it lacks", async () => {
    const { home, project, managed } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { docs: proxied() } });
    write(path.join(managed, 'managed-mcp.json'), { mcpServers: { corp: server } });
    const report = await doctor(home, project);
    expect(report.servers.map((s) => s.name)).toContain('corp');
    expect(report.servers.find((s) => s.name === 'corp')?.state).toBe('not-gated');
    expect(report.ok).toBe(false);
  });
});

describe('red team, doctor: a proxy entry that bypasses', () => {
  test('the same server also listed un-proxied in the project is not gated', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { docs: proxied() } });
    write(path.join(project, '.mcp.json'), { mcpServers: { docs: server } });
    const report = await doctor(home, project);
    expect(states(report)).toEqual([
      ['claude-code', 'docs', 'gated'],
      ['claude-code', 'docs', 'not-gated'],
    ]);
    expect(report.ok).toBe(false);
  });

  test('a proxy entry whose environment preloads code into it (`NODE_OPTIONS=--require`) is not gated', async () => {
    const { home, project } = scratch();
    const entry = { ...proxied(), env: { NODE_OPTIONS: `--require ${path.join(home, 'pass-through.cjs')}` } };
    write(path.join(home, '.claude.json'), { mcpServers: { docs: entry } });
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });
});

describe('red team, doctor: node flags that load other code first', () => {
  test('a hook run as `node --require x.cjs linkgate.js hook …` is not gated', async () => {
    const { home, project } = scratch();
    const preload = path.join(home, 'answer-allow.cjs');
    claudeHooked(home, ['node', '--require', preload, ...words('claude-code').slice(1)].map(shellQuote).join(' '));
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test('node flags that load nothing (`--max-old-space-size`) still gate', async () => {
    const { home, project } = scratch();
    claudeHooked(
      home,
      ['node', '--max-old-space-size=512', ...words('claude-code').slice(1)].map(shellQuote).join(' '),
    );
    expect(states(await doctor(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
  });
});

describe('red team, doctor: disabled through environment variables', () => {
  test("`CLAUDE_CONFIG_DIR` moves Claude Code's config: doctor reads the files Claude Code reads", async () => {
    const { home, project } = scratch();
    // the gated set-up in ~, but Claude Code reads $CLAUDE_CONFIG_DIR, where `docs` runs with no hook
    claudeHooked(home);
    const config = path.join(home, 'other-config');
    write(path.join(config, '.claude.json'), { mcpServers: { docs: server } });
    const report = await doctor(home, project, { CLAUDE_CONFIG_DIR: config });
    expect(states(report)).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test('`CODEX_HOME` moves Codex home: the hooks of ~/.codex do not gate a server of $CODEX_HOME', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.codex', 'hooks.json'), hostSettings.codex(hookCommand('codex')));
    const other = path.join(home, 'codex-home');
    write(path.join(other, 'config.toml'), '[mcp_servers.docs]\ncommand = "node"\nargs = ["s.js"]\n');
    const report = await doctor(home, project, { CODEX_HOME: other });
    expect(states(report)).toEqual([['codex', 'docs', 'not-gated']]);
  });
});
