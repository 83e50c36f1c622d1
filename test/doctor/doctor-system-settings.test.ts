// Doctor reads what the hosts read above the user (issue 40, doctor leftovers): Claude Code's managed settings
// (managed hooks, `allowManagedHooksOnly`, `disableAllHooks`), Gemini CLI's system and system-defaults settings
// (root-owned only) and its folder trust (an untrusted folder loads no project settings, runs no settings hook and
// starts no configured server). The system paths are pointed at temp folders the way the hosts allow
// (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`, `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, `GEMINI_CLI_TRUSTED_FOLDERS_PATH`) and, for
// Claude Code, which takes no override, `LINKGATE_CLAUDE_MANAGED_DIR`; nothing is written under /etc.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { codex } from '../../src/hosts/codex.ts';
import { codexHookHash, codexHookKey } from '../../src/hosts/codex-hook-trust.ts';
import { hookHandlers } from '../../src/hosts/hook-groups.ts';
import { runCommand } from '../helpers/run-cli.ts';

const policy = path.resolve(import.meta.dirname, '../../policies/default.yaml');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(base = tmpdir()): string {
  const dir = mkdtempSync(path.join(base, 'linkgate-doctor-system-'));
  dirs.push(dir);
  return dir;
}

function write(file: string, value: object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
}

const hookCommand = (host: string) => ['node', cliEntry(), 'hook', host, '--policy', policy].map(shellQuote).join(' ');
const server = { command: 'node', args: ['s.js'] };

async function doctor(home: string, cwd: string, env: Record<string, string>): Promise<DoctorReport> {
  const run = await runCommand(doctorCommand, ['--json'], {
    cwd,
    env: { HOME: home, PATH: process.env['PATH'] ?? '', ...env },
  });
  return JSON.parse(run.stdout) as DoctorReport;
}

const states = (report: DoctorReport, host: string) =>
  report.servers.filter((s) => s.host === host).map((s) => [s.name, s.state]);

describe('claude code: managed settings', () => {
  function place() {
    const home = scratch();
    const project = path.join(home, 'project');
    mkdirSync(project);
    const managed = path.join(home, 'managed');
    write(path.join(home, '.claude.json'), { mcpServers: { docs: server } });
    return { home, project, managed, env: { LINKGATE_CLAUDE_MANAGED_DIR: managed } };
  }

  test('a managed hook gates; `disableAllHooks` there turns every hook off, a user one only the unmanaged', async () => {
    const { home, project, managed, env } = place();
    write(path.join(managed, 'managed-settings.json'), hostSettings['claude-code'](hookCommand('claude-code')));
    let report = await doctor(home, project, env);
    expect(states(report, 'claude-code')).toEqual([['docs', 'partly-gated']]);
    expect(report.hooks.map((h) => h.file)).toEqual(Array(3).fill(path.join(managed, 'managed-settings.json')));

    // the user's `disableAllHooks` leaves the administrator's hooks running
    write(path.join(home, '.claude', 'settings.json'), { disableAllHooks: true });
    expect(states(await doctor(home, project, env), 'claude-code')).toEqual([['docs', 'partly-gated']]);

    // a drop-in of the managed folder turning all hooks off turns off the managed ones too
    write(path.join(managed, 'managed-settings.d', '50-off.json'), { disableAllHooks: true });
    report = await doctor(home, project, env);
    expect(states(report, 'claude-code')).toEqual([['docs', 'not-gated']]);
    expect(report.hooks[0]?.problems[0]).toContain('`disableAllHooks` is set in the managed settings');
  });

  test('`allowManagedHooksOnly` leaves a user hook unrun', async () => {
    const { home, project, managed, env } = place();
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](hookCommand('claude-code')));
    expect(states(await doctor(home, project, env), 'claude-code')).toEqual([['docs', 'partly-gated']]);
    write(path.join(managed, 'managed-settings.json'), { allowManagedHooksOnly: true });
    const report = await doctor(home, project, env);
    expect(states(report, 'claude-code')).toEqual([['docs', 'not-gated']]);
    expect(report.hooks.every((h) => h.problems[0]?.includes('`allowManagedHooksOnly`'))).toBe(true);
  });
});

describe('gemini cli: folder trust and system settings', () => {
  function place() {
    const home = scratch();
    const project = path.join(home, 'project');
    mkdirSync(project);
    write(path.join(home, '.gemini', 'settings.json'), {
      mcpServers: { g: server },
      ...hostSettings['gemini-cli'](hookCommand('gemini-cli')),
    });
    write(path.join(project, '.gemini', 'settings.json'), { mcpServers: { p: server } });
    const nowhere = path.join(home, 'no-system');
    const env = {
      GEMINI_CLI_SYSTEM_SETTINGS_PATH: path.join(nowhere, 'settings.json'),
      GEMINI_CLI_TRUSTED_FOLDERS_PATH: path.join(home, 'trusted.json'),
    };
    return { home, project, env };
  }

  test('an untrusted folder: no settings hook runs, no server starts; trusting it gates them', async () => {
    const { home, project, env } = place();
    let report = await doctor(home, project, env);
    expect(states(report, 'gemini-cli')).toEqual([
      ['g', 'disabled'],
      ['p', 'disabled'],
    ]);
    expect(report.servers[0]?.problems[0]).toContain(`gemini cli does not trust \`${project}\``);
    expect(report.hooks.every((h) => !h.runs && /does not trust/.test(h.problems[0] ?? ''))).toBe(true);
    expect(report.ok).toBe(false);

    write(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH, { [home]: 'TRUST_FOLDER' });
    report = await doctor(home, project, env);
    expect(states(report, 'gemini-cli')).toEqual([
      ['g', 'partly-gated'],
      ['p', 'partly-gated'],
    ]);
    // the longest rule decides
    write(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH, { [home]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' });
    expect(states(await doctor(home, project, env), 'gemini-cli')).toEqual([
      ['g', 'disabled'],
      ['p', 'disabled'],
    ]);
    // the environment overrides the file, as gemini cli's own check does
    expect(states(await doctor(home, project, { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'true' }), 'gemini-cli')).toEqual([
      ['g', 'partly-gated'],
      ['p', 'partly-gated'],
    ]);
    // folder trust switched off in the user settings trusts every folder
    write(path.join(home, '.gemini', 'settings.json'), {
      mcpServers: { g: server },
      security: { folderTrust: { enabled: false } },
      ...hostSettings['gemini-cli'](hookCommand('gemini-cli')),
    });
    write(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH, {});
    expect(states(await doctor(home, project, env), 'gemini-cli')).toEqual([
      ['g', 'partly-gated'],
      ['p', 'partly-gated'],
    ]);
  });

  test('a system settings file in a folder others may write is skipped, as gemini cli skips it', async () => {
    const { home, project, env } = place();
    write(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH, { [project]: 'TRUST_FOLDER' });
    // under the temp folder (writable by everyone): gemini cli ignores it, `hooksConfig.enabled: false` included
    const system = path.join(scratch(), 'settings.json');
    write(system, { hooksConfig: { enabled: false } });
    const report = await doctor(home, project, { ...env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: system });
    expect(states(report, 'gemini-cli')).toEqual([
      ['g', 'partly-gated'],
      ['p', 'partly-gated'],
    ]);
    expect(report.problems.some((p) => p.includes(`gemini cli skips its system settings \`${system}\``))).toBe(true);
  });

  // a folder only root can write exists for root (the home folder): the system files are read and outrank the user
  test.runIf(process.getuid?.() === 0)(
    'root-owned system settings: `hooksConfig`, servers and defaults count',
    async () => {
      const { home, project, env } = place();
      write(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH, { [project]: 'TRUST_FOLDER' });
      const admin = scratch(homedir());
      const system = path.join(admin, 'settings.json');
      write(system, { mcpServers: { s: server }, hooksConfig: { enabled: false } });
      const withSystem = { ...env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: system };
      let report = await doctor(home, project, withSystem);
      expect(report.problems).toEqual([]);
      expect(states(report, 'gemini-cli')).toEqual([
        ['g', 'not-gated'],
        ['p', 'not-gated'],
        ['s', 'not-gated'],
      ]);
      expect(report.hooks[0]?.problems[0]).toContain(`\`hooksConfig.enabled: false\` in \`${system}\``);
      // the system file outranks the project: the project turning hooks back on changes nothing
      write(path.join(project, '.gemini', 'settings.json'), {
        mcpServers: { p: server },
        hooksConfig: { enabled: true },
      });
      expect(states(await doctor(home, project, withSystem), 'gemini-cli').map(([, s]) => s)).toEqual(
        Array(3).fill('not-gated'),
      );
      // the system defaults rank below the user: folder trust off there, unless the user turns it on again
      const defaults = path.join(admin, 'system-defaults.json');
      write(system, {});
      write(defaults, { security: { folderTrust: { enabled: false } } });
      write(env.GEMINI_CLI_TRUSTED_FOLDERS_PATH, {});
      report = await doctor(home, project, withSystem);
      expect(states(report, 'gemini-cli').map(([, s]) => s)).toEqual(['partly-gated', 'partly-gated']);
    },
  );
});

// Codex's files above the user (codex-rs config_loader): /etc/codex/config.toml below the user's config,
// /etc/codex/managed_config.toml above every layer, /etc/codex/requirements.toml pinning what no layer changes. Doctor
// reads them under `LINKGATE_CODEX_SYSTEM_DIR` (Codex takes no override of that folder).
describe('codex: system, managed and requirements files', () => {
  function place(userConfig: string) {
    const home = scratch();
    const project = path.join(home, 'project');
    mkdirSync(project);
    const system = path.join(home, 'codex-system');
    const hooksFile = path.join(home, '.codex', 'hooks.json');
    const settings = hostSettings.codex(hookCommand('codex')) as Record<string, unknown>;
    write(hooksFile, settings);
    // the [hooks.state] Codex's `/hooks` writes when the user trusts every handler
    const trusted = hookHandlers(settings['hooks'], codex.events).map(
      (h) => `[hooks.state.${JSON.stringify(codexHookKey(hooksFile, h))}]\ntrusted_hash = "${codexHookHash(h)}"\n`,
    );
    const servers = '[mcp_servers.docs]\ncommand = "node"\nargs = ["s.js"]\n';
    writeFileSync(path.join(home, '.codex', 'config.toml'), [userConfig, servers, ...trusted].join('\n'));
    mkdirSync(system);
    const run = async () => doctor(home, project, { LINKGATE_CODEX_SYSTEM_DIR: system });
    return { system, run };
  }
  const readOnly = 'sandbox_mode = "read-only"\n';

  test('trusted hooks under a read-only sandbox gate; a hooks switch in any system file stops them', async () => {
    const { system, run } = place(readOnly);
    expect(states(await run(), 'codex')).toEqual([['docs', 'gated']]);
    for (const [file, text, why] of [
      ['config.toml', '[features]\nhooks = false\n', '`[features] hooks = false` in'],
      ['managed_config.toml', '[features]\ncodex_hooks = false\n', '`[features] hooks = false` in'],
      ['requirements.toml', '[features]\nhooks = false\n', '`[features] hooks = false` in'],
      ['requirements.toml', 'allow_managed_hooks_only = true\n', '`allow_managed_hooks_only = true` in'],
    ] as const) {
      writeFileSync(path.join(system, file), text);
      const report = await run();
      expect(states(report, 'codex'), file).toEqual([['docs', 'not-gated']]);
      expect(report.hooks[0]?.problems[0]).toContain(`${why} \`${path.join(system, file)}\``);
      rmSync(path.join(system, file));
    }
  });

  test('the managed sandbox_mode wins over the user’s; the system one stands where the user sets none', async () => {
    const { system, run } = place(readOnly);
    writeFileSync(path.join(system, 'managed_config.toml'), 'sandbox_mode = "danger-full-access"\n');
    let report = await run();
    expect(states(report, 'codex')).toEqual([['docs', 'partly-gated']]);
    expect(report.hooks.flatMap((h) => h.warnings).join('\n')).toContain(
      `\`danger-full-access\` in \`${path.join(system, 'managed_config.toml')}\``,
    );

    const unset = place('');
    expect(states(await unset.run(), 'codex')).toEqual([['docs', 'partly-gated']]);
    writeFileSync(path.join(unset.system, 'config.toml'), readOnly);
    report = await unset.run();
    expect(states(report, 'codex')).toEqual([['docs', 'gated']]);
  });

  test('a system file that does not parse is named (codex does not start with it)', async () => {
    const { system, run } = place(readOnly);
    writeFileSync(path.join(system, 'requirements.toml'), 'allow_managed_hooks_only = \n');
    expect((await run()).problems.join('\n')).toContain(path.join(system, 'requirements.toml'));
  });
});
