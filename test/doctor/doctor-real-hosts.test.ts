// linkgate doctor against the real hosts' own view of their configuration: in a scratch HOME and project, each host
// configured bare, proxied, hooked and with a hook that will not run; doctor must list exactly the servers the host
// lists (`claude mcp list`, `codex mcp list`, `gemini mcp list`) and say for each whether linkgate gates it. Codex's
// hook trust is checked against Codex itself: the hash doctor computes is the one `codex app-server` reports, and a
// hook counts as trusted only when Codex says so.
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport, ServerReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { runCommand } from '../helpers/run-cli.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';
import { installClaudeCode } from '../real-host/claude-code.ts';
import { installCodexCli } from '../real-host/codex-cli.ts';
import { installGeminiCli } from '../real-host/gemini-cli.ts';
import { builtCli, realHostSuite } from '../real-host/host-suite.ts';
import { runProcess } from '../real-host/run-process.ts';
import { claudeListing, codexHookList, codexListing, geminiListing, hostEnv } from './host-listings.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

builtCli();
const reviewFolder = reviewFolders();

type Scenario = 'bare' | 'proxied' | 'hooked' | 'untrusted';
const scenarios: readonly Scenario[] = ['bare', 'proxied', 'hooked', 'untrusted'];

/** A scratch HOME and project, a signed policy and the allowed-signers file that verifies it. */
interface Place {
  home: string;
  project: string;
  policy: string;
  allowedSigners: string;
}

async function place(scratch: (prefix: string) => Promise<string>): Promise<Place> {
  const home = await scratch('linkgate-doctor-home-');
  const project = path.join(home, 'project');
  await mkdir(project, { recursive: true });
  const review = reviewFolder({ 'alice@example.com': 'ed25519' });
  review.sign('alice@example.com');
  return { home, project, policy: review.policy, allowedSigners: review.allowedSigners };
}

// a server that is never reached: doctor reads configuration, the hosts' listings only try to start it
const bareServer = (name: string) => ['node', `/nonexistent/${name}-server.js`];
const serverEntry = (name: string) => ({ command: 'node', args: [`/nonexistent/${name}-server.js`] });

function proxied(p: Place, name: string): string[] {
  return [
    'node',
    cliEntry(),
    'proxy',
    '--policy',
    p.policy,
    '--allowed-signers',
    p.allowedSigners,
    '--server',
    name,
    '--',
    ...bareServer(name),
  ];
}

function hookCommand(p: Place, host: string, entry = cliEntry()): string {
  return ['node', entry, 'hook', host, '--policy', p.policy, '--allowed-signers', p.allowedSigners]
    .map(shellQuote)
    .join(' ');
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function doctor(p: Place): Promise<{ code: number; report: DoctorReport; text: string }> {
  const json = await runCommand(doctorCommand, ['--json'], { cwd: p.project, env: hostEnv(p.home) });
  const text = await runCommand(doctorCommand, [], { cwd: p.project, env: hostEnv(p.home) });
  expect(text.code).toBe(json.code);
  return { code: json.code, report: JSON.parse(json.stdout) as DoctorReport, text: text.stdout };
}

const namesOf = (report: DoctorReport, host: string) =>
  report.servers
    .filter((s) => s.host === host)
    .map((s) => s.name)
    .sort();

// hooks alone are `partly-gated` where the agent's shell can write their state folder (no host sandbox here)
function expectGates(servers: readonly ServerReport[], gate: ServerReport['gate'], state: ServerReport['state']): void {
  const enabled = servers.filter((s) => s.gate !== 'disabled');
  expect(enabled.length).toBeGreaterThan(0);
  for (const s of enabled)
    expect({ name: s.name, gate: s.gate, state: s.state }).toEqual({ name: s.name, gate, state });
}

describe('claude code: user, project and local scopes', () => {
  const suite = realHostSuite('claude code', () => installClaudeCode());

  test.for(scenarios)(
    '%s: doctor lists what `claude mcp list` lists and judges each server',
    { timeout: 180_000 },
    async (scenario, ctx) => {
      const bin = suite.require(ctx);
      const p = await place((prefix) => suite.scratch(prefix));
      const command = (name: string) => (scenario === 'proxied' ? proxied(p, name) : bareServer(name));
      const server = (name: string) => {
        const [cmd, ...args] = command(name);
        return { type: 'stdio', command: cmd, args };
      };
      await writeJson(path.join(p.home, '.claude.json'), {
        mcpServers: { 'user-one': server('user-one') },
        projects: { [p.project]: { mcpServers: { 'local-one': server('local-one') } } },
      });
      await writeJson(path.join(p.project, '.mcp.json'), { mcpServers: { 'project-one': server('project-one') } });
      if (scenario === 'hooked' || scenario === 'untrusted') {
        // untrusted here: the hook names a linkgate entry that is not there (Claude Code asks no trust of hooks)
        const entry = scenario === 'hooked' ? cliEntry() : path.join(p.home, 'gone', 'linkgate.js');
        await writeJson(
          path.join(p.home, '.claude', 'settings.json'),
          hostSettings['claude-code'](hookCommand(p, 'claude-code', entry)),
        );
      }

      const { code, report, text } = await doctor(p);
      expect(namesOf(report, 'claude-code')).toEqual(await claudeListing(bin, p.home, p.project));
      expect(namesOf(report, 'claude-code')).toEqual(['local-one', 'project-one', 'user-one']);
      const servers = report.servers.filter((s) => s.host === 'claude-code');
      expect(servers.map((s) => `${s.name} ${s.scope}`).sort()).toEqual([
        'local-one local',
        'project-one project',
        'user-one user',
      ]);
      if (scenario === 'bare') {
        expectGates(servers, 'none', 'not-gated');
        expect(code).toBe(1);
        expect(text).toContain('no linkgate proxy in front of it and no linkgate hook of claude-code covers it');
      } else if (scenario === 'proxied') {
        expectGates(servers, 'proxy', 'gated');
        expect(servers.every((s) => s.policies[0]?.review === 'verified')).toBe(true);
        expect(code).toBe(0);
      } else if (scenario === 'hooked') {
        expectGates(servers, 'hook', 'partly-gated');
        expect(report.hooks.map((h) => h.event).sort()).toEqual(['PostToolUse', 'PostToolUseFailure', 'PreToolUse']);
        expect(report.hooks.every((h) => h.runs && h.policy.review === 'verified')).toBe(true);
        expect(code).toBe(1); // partly gated fails the run
      } else {
        expectGates(servers, 'hook', 'not-gated');
        expect(report.hooks.every((h) => !h.runs && h.problems.some((m) => m.includes('is not there')))).toBe(true);
        expect(code).toBe(1);
      }
    },
  );
});

describe('claude code: the shipped plugin, installed from a marketplace', () => {
  const suite = realHostSuite('claude code', () => installClaudeCode());

  test('its hooks gate every server while it is enabled, and none once `claude plugin disable` turned it off', async (ctx) => {
    const bin = suite.require(ctx);
    const p = await place((prefix) => suite.scratch(prefix));
    // a marketplace folder holding the package as a plugin: its manifest, hooks, default policy and bundle
    const market = path.join(p.home, 'market');
    const plugin = path.join(market, 'plugins', 'linkgate');
    for (const file of ['.claude-plugin/plugin.json', 'hooks/hooks.json', 'policies/default.yaml']) {
      await mkdir(path.dirname(path.join(plugin, file)), { recursive: true });
      await copyFile(path.join(repoRoot, file), path.join(plugin, file));
    }
    await mkdir(path.join(plugin, 'dist', 'bin'), { recursive: true });
    await copyFile(cliEntry(), path.join(plugin, 'dist', 'bin', 'linkgate.js'));
    await writeJson(path.join(market, '.claude-plugin', 'marketplace.json'), {
      name: 'team',
      owner: { name: 'security' },
      plugins: [{ name: 'linkgate', source: './plugins/linkgate' }],
    });
    const claude = async (...args: string[]) => {
      const run = await runProcess(bin, args, { cwd: p.project, env: hostEnv(p.home), timeoutMs: 90_000 });
      expect(run.exitCode, run.stderr).toBe(0);
    };
    await claude('plugin', 'marketplace', 'add', market);
    await claude('plugin', 'install', 'linkgate@team');
    await writeJson(path.join(p.home, '.claude.json'), {
      mcpServers: { docs: { type: 'stdio', ...serverEntry('docs') } },
    });

    let { code, report } = await doctor(p);
    expect(namesOf(report, 'claude-code')).toEqual(await claudeListing(bin, p.home, p.project));
    expect(report.servers.map((s) => [s.name, s.gate, s.state])).toEqual([['docs', 'hook', 'partly-gated']]);
    const installed = path.join(p.home, '.claude', 'plugins');
    expect(report.hooks.every((h) => h.file.startsWith(installed) && h.bundle.startsWith(installed) && h.runs)).toBe(
      true,
    );
    expect(report.hooks.map((h) => h.event).sort()).toEqual(['PostToolUse', 'PostToolUseFailure', 'PreToolUse']);
    expect(code).toBe(1); // partly gated fails the run

    await claude('plugin', 'disable', 'linkgate@team');
    ({ code, report } = await doctor(p));
    expect(report.hooks).toEqual([]);
    expect(report.servers.map((s) => [s.name, s.gate, s.gated])).toEqual([['docs', 'none', false]]);
    expect(code).toBe(1);
  }, 180_000);
});

describe('codex: config.toml servers, hooks.json hooks and the trust codex records', () => {
  const suite = realHostSuite('codex cli', () => installCodexCli());

  const toml = (value: string) => JSON.stringify(value);
  const serverToml = (name: string, argv: readonly string[], extra = '') =>
    `[mcp_servers.${toml(name)}]\ncommand = ${toml(argv[0] ?? '')}\nargs = [${argv.slice(1).map(toml).join(', ')}]\n${extra}`;

  test.for(scenarios)(
    '%s: doctor lists what `codex mcp list` lists and judges each server',
    { timeout: 180_000 },
    async (scenario, ctx) => {
      const bin = suite.require(ctx);
      const p = await place((prefix) => suite.scratch(prefix));
      const command = (name: string) => (scenario === 'proxied' ? proxied(p, name) : bareServer(name));
      const config = [
        serverToml('alpha', command('alpha')),
        serverToml('beta two', command('beta two')),
        serverToml('off', bareServer('off'), 'enabled = false\n'),
      ];
      const codexHome = path.join(p.home, '.codex');
      await mkdir(codexHome, { recursive: true });
      await writeFile(path.join(codexHome, 'config.toml'), config.join('\n'));
      if (scenario === 'hooked' || scenario === 'untrusted') {
        await writeJson(path.join(codexHome, 'hooks.json'), hostSettings.codex(hookCommand(p, 'codex')));
        const listed = await codexHookList(bin, p.home, p.project);
        expect(listed.map((h) => h.trustStatus)).toEqual(['untrusted', 'untrusted']);
        if (scenario === 'hooked') {
          // what Codex's /hooks screen writes when the user trusts both handlers
          const state = listed.map((h) => `[hooks.state.${toml(h.key)}]\ntrusted_hash = ${toml(h.currentHash)}\n`);
          await writeFile(path.join(codexHome, 'config.toml'), [...config, ...state].join('\n'));
          expect((await codexHookList(bin, p.home, p.project)).map((h) => h.trustStatus)).toEqual([
            'trusted',
            'trusted',
          ]);
        }
      }

      const { code, report, text } = await doctor(p);
      expect(namesOf(report, 'codex')).toEqual(await codexListing(bin, p.home, p.project));
      const servers = report.servers.filter((s) => s.host === 'codex');
      expect(servers.find((s) => s.name === 'off')?.gate).toBe('disabled');
      if (scenario === 'bare') {
        expectGates(servers, 'none', 'not-gated');
        expect(code).toBe(1);
      } else if (scenario === 'proxied') {
        expectGates(servers, 'proxy', 'gated');
        expect(servers.filter((s) => s.gate === 'proxy').every((s) => s.policies[0]?.review === 'verified')).toBe(true);
        expect(code).toBe(0);
      } else if (scenario === 'hooked') {
        expectGates(servers, 'hook', 'partly-gated');
        expect(report.hooks.map((h) => h.runs)).toEqual([true, true]);
        expect(code).toBe(1); // partly gated fails the run
      } else {
        expectGates(servers, 'hook', 'not-gated');
        expect(report.hooks.map((h) => h.runs)).toEqual([false, false]);
        expect(text).toContain('not trusted in codex: review it in `/hooks`');
        expect(code).toBe(1);
      }
    },
  );

  test('a trusted hook whose command changed is reported as codex reports it: modified, will not run', async (ctx) => {
    const bin = suite.require(ctx);
    const p = await place((prefix) => suite.scratch(prefix));
    const codexHome = path.join(p.home, '.codex');
    await mkdir(codexHome, { recursive: true });
    const config = serverToml('alpha', bareServer('alpha'));
    await writeFile(path.join(codexHome, 'config.toml'), config);
    await writeJson(path.join(codexHome, 'hooks.json'), hostSettings.codex(hookCommand(p, 'codex')));
    const listed = await codexHookList(bin, p.home, p.project);
    const state = listed.map((h) => `[hooks.state.${toml(h.key)}]\ntrusted_hash = ${toml(h.currentHash)}\n`);
    await writeFile(path.join(codexHome, 'config.toml'), [config, ...state].join('\n'));
    // the hook now runs in observe mode: not what was trusted
    await writeJson(
      path.join(codexHome, 'hooks.json'),
      hostSettings.codex(`${hookCommand(p, 'codex')} --mode observe`),
    );
    expect((await codexHookList(bin, p.home, p.project)).map((h) => h.trustStatus)).toEqual(['modified', 'modified']);
    const { code, report } = await doctor(p);
    expect(
      report.hooks.every((h) => !h.runs && h.problems.some((m) => m.startsWith('changed since it was trusted'))),
    ).toBe(true);
    expect(code).toBe(1);
  });

  test('a project layer counts once the project is trusted, as codex loads it', async (ctx) => {
    const bin = suite.require(ctx);
    const p = await place((prefix) => suite.scratch(prefix));
    const codexHome = path.join(p.home, '.codex');
    await mkdir(path.join(p.project, '.git'), { recursive: true });
    await mkdir(codexHome, { recursive: true });
    const user = serverToml('user-one', bareServer('user-one'));
    await writeFile(path.join(codexHome, 'config.toml'), user);
    await mkdir(path.join(p.project, '.codex'), { recursive: true });
    await writeFile(
      path.join(p.project, '.codex', 'config.toml'),
      serverToml('project-one', bareServer('project-one')),
    );
    await writeJson(path.join(p.project, '.codex', 'hooks.json'), hostSettings.codex(hookCommand(p, 'codex')));

    // untrusted: codex loads the project's layer disabled
    let { report } = await doctor(p);
    expect(namesOf(report, 'codex')).toEqual(await codexListing(bin, p.home, p.project));
    expect(namesOf(report, 'codex')).toEqual(['user-one']);
    expect(report.hooks).toEqual([]);

    const trusted = `${user}\n[projects.${toml(p.project)}]\ntrust_level = "trusted"\n`;
    await writeFile(path.join(codexHome, 'config.toml'), trusted);
    ({ report } = await doctor(p));
    expect(namesOf(report, 'codex')).toEqual(await codexListing(bin, p.home, p.project));
    expect(report.servers.map((s) => [s.name, s.scope, s.gate, s.gated])).toEqual([
      ['user-one', 'user', 'hook', false],
      ['project-one', 'project', 'hook', false],
    ]);
    // the project's hooks, trusted as /hooks would: now they run
    const listed = await codexHookList(bin, p.home, p.project);
    expect(listed.map((h) => h.key.startsWith(path.join(p.project, '.codex', 'hooks.json')))).toEqual([true, true]);
    const state = listed.map((h) => `[hooks.state.${toml(h.key)}]\ntrusted_hash = ${toml(h.currentHash)}\n`);
    // with codex's read-only sandbox the agent's shell cannot touch the hooks' state folder: the hooks alone gate
    await writeFile(path.join(codexHome, 'config.toml'), ['sandbox_mode = "read-only"', trusted, ...state].join('\n'));
    expect((await codexHookList(bin, p.home, p.project)).map((h) => h.trustStatus)).toEqual(['trusted', 'trusted']);
    const after = await doctor(p);
    expect(after.report.servers.map((s) => [s.name, s.gated])).toEqual([
      ['user-one', true],
      ['project-one', true],
    ]);
    expect(after.code).toBe(0);
  }, 180_000);
});

describe('gemini cli: user and project settings.json', () => {
  const suite = realHostSuite('gemini cli', () => installGeminiCli());

  test.for(scenarios)(
    '%s: doctor lists what `gemini mcp list` lists and judges each server',
    { timeout: 180_000 },
    async (scenario, ctx) => {
      const bin = suite.require(ctx);
      const p = await place((prefix) => suite.scratch(prefix));
      const server = (name: string) => {
        const [cmd, ...args] = scenario === 'proxied' ? proxied(p, name) : bareServer(name);
        return { command: cmd, args };
      };
      const hooks =
        scenario === 'hooked' || scenario === 'untrusted'
          ? hostSettings['gemini-cli'](
              hookCommand(
                p,
                'gemini-cli',
                scenario === 'hooked' ? cliEntry() : path.join(p.home, 'gone', 'linkgate.js'),
              ),
            )
          : {};
      // gemini cli starts the servers and runs the hooks of a folder it trusts only (as `gemini trust` records it)
      await writeJson(path.join(p.home, '.gemini', 'trustedFolders.json'), { [p.project]: 'TRUST_FOLDER' });
      // a project entry of the same name as a user entry replaces it
      await writeJson(path.join(p.home, '.gemini', 'settings.json'), {
        mcpServers: { 'user-one': server('user-one'), shared: server('shared') },
        ...hooks,
      });
      await writeJson(path.join(p.project, '.gemini', 'settings.json'), {
        mcpServers: { 'project-one': server('project-one'), shared: server('shared') },
      });

      const { code, report } = await doctor(p);
      expect(namesOf(report, 'gemini-cli')).toEqual(await geminiListing(bin, p.home, p.project));
      expect(namesOf(report, 'gemini-cli')).toEqual(['project-one', 'shared', 'user-one']);
      const servers = report.servers.filter((s) => s.host === 'gemini-cli');
      if (scenario === 'bare') {
        expectGates(servers, 'none', 'not-gated');
        expect(code).toBe(1);
      } else if (scenario === 'proxied') {
        expectGates(servers, 'proxy', 'gated');
        expect(code).toBe(0);
      } else if (scenario === 'hooked') {
        expectGates(servers, 'hook', 'partly-gated');
        expect(report.hooks.map((h) => h.event).sort()).toEqual(['AfterTool', 'BeforeTool']);
        expect(code).toBe(1); // partly gated fails the run
      } else {
        expectGates(servers, 'hook', 'not-gated');
        expect(code).toBe(1);
      }
    },
  );
});
