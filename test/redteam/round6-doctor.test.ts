// Red team (issue 39, hidden-style round 6), doctor: set-ups `linkgate doctor` must not call gated, each one thing
// changed from a set-up it calls gated (the control in the same test). A trusted Codex project's own
// `.codex/config.toml` turning hooks off, or setting only the proxy's `args` of a server whose user entry sets
// NODE_OPTIONS (codex merges the project layer into the user's, table by table); node started with
// `--env-file` whose file sets `NODE_OPTIONS` (node 20 honours it: other code runs first); Claude Code's project
// settings `env` setting `NODE_OPTIONS` for every hook and server it starts; a `--policy` written through a symlink and
// then `..` (the kernel follows the symlink before `..`, a lexical resolve drops both); a project settings
// file replacing a gated server of the same name; hooks switched off in a local settings file; `--mode=observe`; Gemini
// CLI's env file (a trusted project's `.env`, loaded into its own environment) and a Gemini hook's own `env` setting
// NODE_OPTIONS.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { codexHookHash, codexHookKey } from '../../src/hosts/codex-hook-trust.ts';
import { codex } from '../../src/hosts/codex.ts';
import { hookHandlers } from '../../src/hosts/hook-groups.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import {
  defaultPolicy,
  doctorReport,
  everyHandler,
  plainServer,
  printedHook,
  proxiedServer,
  serverStates,
  useScratch,
  write,
} from '../doctor/doctor-scratch.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const scratch = useScratch('linkgate-redteam-r6doctor-');
const gated = (host: string) => [host, 'docs', 'gated'];
// a host's hooks alone hold no refusal across events where the agent's shell can write their state: partly gated
const hooked = (host: string) => [host, 'docs', 'partly-gated'];

describe('red team, doctor (round 6): a layer that switches the gate off', () => {
  // a Codex user whose printed hooks gate `docs`, each trusted in `[hooks.state]`, the project trusted
  function codexHooked(home: string, project: string) {
    const settings = hostSettings.codex(printedHook('codex')) as Record<string, unknown>;
    write(path.join(home, '.codex', 'hooks.json'), settings);
    const file = path.join(home, '.codex', 'hooks.json');
    const state = hookHandlers(settings['hooks'], codex.events).map(
      (h) =>
        `[hooks.state.${JSON.stringify(codexHookKey(file, h))}]\ntrusted_hash = ${JSON.stringify(codexHookHash(h))}\n`,
    );
    const trusted = `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`;
    write(
      path.join(home, '.codex', 'config.toml'),
      `[mcp_servers.docs]\ncommand = "node"\nargs = ["s.js"]\n${trusted}${state.join('')}`,
    );
  }

  it('codex project features')(
    "codex: a trusted project's .codex/config.toml with `[features] hooks = false`: not gated",
    async () => {
      const { home, project } = scratch();
      codexHooked(home, project);
      mkdirSync(path.join(project, '.codex'));
      expect(serverStates(await doctorReport(home, project))).toContainEqual(hooked('codex'));
      write(path.join(project, '.codex', 'config.toml'), '[features]\nhooks = false\n');
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(hooked('codex'));
    },
  );

  it('codex project merge')(
    "codex: a trusted project's `[mcp_servers.docs]` puts the proxy in front, the user's entry below it sets NODE_OPTIONS: not gated",
    async () => {
      const { home, project } = scratch();
      const trusted = `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`;
      const user = (env: string) =>
        write(
          path.join(home, '.codex', 'config.toml'),
          `[mcp_servers.docs]\ncommand = "node"\nargs = ["s.js"]\n${env}${trusted}`,
        );
      const args = [cliEntry(), 'proxy', '--policy', defaultPolicy, '--', 'node', 's.js'];
      write(
        path.join(project, '.codex', 'config.toml'),
        `[mcp_servers.docs]\ncommand = "node"\nargs = ${JSON.stringify(args)}\n`,
      );
      user('');
      expect(serverStates(await doctorReport(home, project))).toEqual([gated('codex')]);
      // codex merges the project's table into the user's key by key: the user's `env` stays under the proxy
      user(`env = { NODE_OPTIONS = "--require ${path.join(project, 'x.cjs')}" }\n`);
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(gated('codex'));
    },
  );

  // a Claude Code user whose printed hooks gate `docs` (the user scope), with the project's settings.local.json
  function claudeHooked(home: string, project: string, local?: object) {
    write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](printedHook('claude-code')));
    if (local !== undefined) write(path.join(project, '.claude', 'settings.local.json'), local);
  }

  it('claude local disable')(
    'claude code: `disableAllHooks` in the project settings.local.json: not gated',
    async () => {
      const { home, project } = scratch();
      claudeHooked(home, project);
      expect(serverStates(await doctorReport(home, project))).toEqual([hooked('claude-code')]);
      claudeHooked(home, project, { disableAllHooks: true });
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(hooked('claude-code'));
    },
  );

  it('claude settings env hooks')(
    "claude code: the project settings' `env` sets NODE_OPTIONS=--require for the hooks: not gated",
    async () => {
      const { home, project } = scratch();
      writeFileSync(path.join(project, 'x.cjs'), 'process.stdout.write("{}"); process.exit(0);');
      claudeHooked(home, project, { env: { NODE_OPTIONS: `--require ${path.join(project, 'x.cjs')}` } });
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(hooked('claude-code'));
    },
  );

  it('claude settings env proxy')(
    "claude code: the project settings' `env` sets NODE_OPTIONS=--require for a proxied server: not gated",
    async () => {
      const { home, project } = scratch();
      write(path.join(home, '.claude.json'), { mcpServers: { docs: proxiedServer() } });
      expect(serverStates(await doctorReport(home, project))).toEqual([gated('claude-code')]);
      write(path.join(project, '.claude', 'settings.local.json'), {
        env: { NODE_OPTIONS: `--require ${path.join(project, 'x.cjs')}` },
      });
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(gated('claude-code'));
    },
  );

  it('env file')("node's `--env-file` whose file sets NODE_OPTIONS before the proxy: not gated", async () => {
    const { home, project } = scratch();
    writeFileSync(path.join(project, '.env'), `NODE_OPTIONS=--require ${path.join(project, 'x.cjs')}\n`);
    const entry = (...flags: string[]) => ({
      command: 'node',
      args: [...flags, cliEntry(), 'proxy', '--policy', defaultPolicy, '--', 'node', 's.js'],
    });
    write(path.join(home, '.claude.json'), { mcpServers: { docs: entry() } });
    expect(serverStates(await doctorReport(home, project))).toEqual([gated('claude-code')]);
    for (const flags of [[`--env-file=${path.join(project, '.env')}`], ['--env-file', path.join(project, '.env')]]) {
      write(path.join(home, '.claude.json'), { mcpServers: { docs: entry(...flags) } });
      expect(serverStates(await doctorReport(home, project))).not.toContainEqual(gated('claude-code'));
    }
  });

  it('gemini project replaces')(
    'gemini cli: the trusted project settings replace the gated `docs` with a plain one: not gated',
    async () => {
      const { home, project } = scratch();
      const env = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
      write(path.join(home, '.gemini', 'settings.json'), { mcpServers: { docs: proxiedServer() } });
      expect(serverStates(await doctorReport(home, project, env))).toEqual([gated('gemini-cli')]);
      write(path.join(project, '.gemini', 'settings.json'), { mcpServers: { docs: plainServer } });
      expect(serverStates(await doctorReport(home, project, env))).not.toContainEqual(gated('gemini-cli'));
    },
  );

  it('gemini env file')(
    'gemini cli: a `.env` in the trusted project sets NODE_OPTIONS (gemini cli loads it into its own environment): not gated',
    async () => {
      const { home, project } = scratch();
      const env = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
      write(path.join(home, '.gemini', 'settings.json'), { mcpServers: { docs: proxiedServer() } });
      expect(serverStates(await doctorReport(home, project, env))).toEqual([gated('gemini-cli')]);
      writeFileSync(path.join(project, '.env'), `NODE_OPTIONS="--require ${path.join(project, 'x.cjs')}"\n`);
      expect(serverStates(await doctorReport(home, project, env))).not.toContainEqual(gated('gemini-cli'));
    },
  );

  it('gemini env file colon')(
    'gemini cli: a `.env` line `NODE_OPTIONS: --require x` (dotenv reads `KEY: value` too): not gated',
    async () => {
      const { home, project } = scratch();
      const env = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
      write(path.join(home, '.gemini', 'settings.json'), { mcpServers: { docs: proxiedServer() } });
      writeFileSync(path.join(project, '.env'), 'NODE_OPTIONS: --no-warnings\n');
      expect(serverStates(await doctorReport(home, project, env))).toEqual([gated('gemini-cli')]);
      const evil = path.join(project, 'x.cjs');
      for (const text of [
        `NODE_OPTIONS: --require ${evil}\n`,
        `A=1\nexport NODE_OPTIONS:  "--require ${evil}" # c\n`,
      ]) {
        writeFileSync(path.join(project, '.env'), text);
        expect(serverStates(await doctorReport(home, project, env))).not.toContainEqual(gated('gemini-cli'));
      }
    },
  );

  it('gemini env file unreadable')(
    'gemini cli: the `.env` it picks exists but cannot be read (a folder): not gated, and said',
    async () => {
      const { home, project } = scratch();
      const env = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
      write(path.join(home, '.gemini', 'settings.json'), {
        mcpServers: { docs: proxiedServer() },
        ...hostSettings['gemini-cli'](printedHook('gemini-cli')),
      });
      expect(serverStates(await doctorReport(home, project, env))).toEqual([gated('gemini-cli')]);
      // gemini cli stops at the first `.env` that exists (fs.existsSync) and reads nothing from a folder
      mkdirSync(path.join(project, '.gemini', '.env'), { recursive: true });
      const report = await doctorReport(home, project, env);
      expect(serverStates(report)).not.toContainEqual(gated('gemini-cli'));
      expect(JSON.stringify(report)).toMatch(/env file .* cannot be read/);
    },
  );

  it('gemini hook env')("gemini cli: a hook handler's own `env` sets NODE_OPTIONS: not gated", async () => {
    const { home, project } = scratch();
    const env = { GEMINI_CLI_TRUST_WORKSPACE: 'true' };
    const settings = (change: (h: Record<string, unknown>) => void) =>
      write(path.join(home, '.gemini', 'settings.json'), {
        mcpServers: { docs: plainServer },
        ...everyHandler(hostSettings['gemini-cli'](printedHook('gemini-cli')), change),
      });
    settings(() => undefined);
    expect(serverStates(await doctorReport(home, project, env))).toEqual([hooked('gemini-cli')]);
    settings((h) => {
      h['env'] = { NODE_OPTIONS: `--require ${path.join(project, 'x.cjs')}` };
    });
    expect(serverStates(await doctorReport(home, project, env))).not.toContainEqual(hooked('gemini-cli'));
  });

  it('claude local scope')(
    "claude code: a local-scope `docs` (~/.claude.json's project entry) beside the gated user one: not all gated",
    async () => {
      const { home, project } = scratch();
      write(path.join(home, '.claude.json'), { mcpServers: { docs: proxiedServer() } });
      expect((await doctorReport(home, project)).ok).toBe(true);
      write(path.join(home, '.claude.json'), {
        mcpServers: { docs: proxiedServer() },
        projects: { [project]: { mcpServers: { docs: plainServer } } },
      });
      expect((await doctorReport(home, project)).ok).toBe(false);
    },
  );

  it('claude settings env quoted')(
    'claude code: the settings\' `env` sets NODE_OPTIONS with node\'s own quoting (`"--require" x`, `--re""quire x`, an unclosed quote): not gated',
    async () => {
      const { home, project } = scratch();
      const evil = path.join(project, 'x.cjs');
      claudeHooked(home, project, { env: { NODE_OPTIONS: '--no-warnings' } });
      expect(serverStates(await doctorReport(home, project))).toEqual([hooked('claude-code')]);
      for (const value of [
        `"--require" ${evil}`,
        `--re""quire ${evil}`,
        `"--env-file=${evil}"`,
        `"--require ${evil}`,
      ]) {
        claudeHooked(home, project, { env: { NODE_OPTIONS: value } });
        expect(serverStates(await doctorReport(home, project))).not.toContainEqual(hooked('claude-code'));
      }
    },
  );

  it('observe equals')('a hook with `--mode=observe` (one word): not gated', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
    const command = [printedHook('claude-code'), shellQuote('--mode=observe')].join(' ');
    write(path.join(home, '.claude', 'settings.json'), hostSettings['claude-code'](command));
    expect(serverStates(await doctorReport(home, project))).not.toContainEqual(hooked('claude-code'));
  });
});

describe('red team, doctor (round 6): a path through a symlink and then `..`', () => {
  // `project/via` is a symlink to `home/elsewhere/deep`: the kernel opens `via/../p.yaml` as `home/elsewhere/p.yaml`,
  // a lexical resolve as `project/p.yaml`; doctor must judge the file the real proxy opens, whichever that is
  const proxyStarts = (project: string, policy: string) =>
    new Promise<boolean>((resolve) => {
      const child = spawn(process.execPath, [cliEntry(), 'proxy', '--policy', policy, '--', 'node', '-e', ''], {
        cwd: project,
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      child.on('exit', (code) => resolve(code === 0));
    });

  for (const [label, where] of [
    ['the lexical path', (_home: string, project: string) => path.join(project, 'p.yaml')],
    ['the path the kernel follows', (home: string) => path.join(home, 'elsewhere', 'p.yaml')],
  ] as const)
    it(`policy dotdot ${label}`)(
      `a --policy through a symlink and \`..\`, the policy at ${label} only: doctor agrees with the real proxy`,
      async () => {
        const { home, project } = scratch();
        mkdirSync(path.join(home, 'elsewhere', 'deep'), { recursive: true });
        symlinkSync(path.join(home, 'elsewhere', 'deep'), path.join(project, 'via'));
        copyFileSync(defaultPolicy, where(home, project));
        const entry = {
          command: 'node',
          args: [cliEntry(), 'proxy', '--policy', 'via/../p.yaml', '--', 'node', 's.js'],
        };
        write(path.join(home, '.claude.json'), { mcpServers: { docs: entry } });
        const starts = await proxyStarts(project, 'via/../p.yaml');
        // whether the policy loads (a policy in the project gates nothing: the agent may rewrite it)
        const { servers } = await doctorReport(home, project);
        expect(servers.some((s) => s.policies[0]?.review === 'not-checked')).toBe(starts);
      },
    );
});
