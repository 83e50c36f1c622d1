// Doctor on a gate the agent can rewrite (issue 39 item 6): a hook reads its policy at every event and a proxy at every
// start, so a policy, review or linkgate code in a folder the agent's shell may write gates nothing the agent wants
// through. Doctor named only the folder it runs in, and only as a warning beside "gated". Each case moves one file of a
// set-up doctor calls gated (the controls, everything outside) into a folder the agent may write: the project root
// above the folder doctor runs in (`.git`, Codex's `project_root_markers`), Codex's `writable_roots` and temporary
// folders, Claude Code's `permissions.additionalDirectories`, `sandbox.filesystem.allowWrite` and `Edit(…)` allow
// rules, Gemini CLI's `context.includeDirectories`, and the same by way of a symbolic link either way.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { hostSettings, shellQuote } from '../../src/hook/hook-settings.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';
import { defaultPolicy, doctorReport, plainServer, proxiedServer, useScratch, write } from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-writable-');
const reviewFolder = reviewFolders();
const written = "which the agent's shell may write";

/** The installed package's root (holding `dist/` and `package.json`). */
const packageRoot = path.resolve(path.dirname(cliEntry()), '../..');

/** `docs`'s state in `report`, and its problems that name a folder the agent may write. */
function verdict(report: DoctorReport): { state: string; lines: string[] } {
  const docs = report.servers.find((s) => s.name === 'docs');
  if (docs === undefined) throw new Error(`no docs server: ${JSON.stringify(report.servers)}`);
  return { state: docs.state, lines: docs.problems.filter((p) => p.includes(written)) };
}

/** A copy of the default policy at `file`. */
function policyAt(file: string): string {
  write(file, readFileSync(defaultPolicy, 'utf8'));
  return file;
}

/**
 * Claude Code's printed hooks (`node ENTRY hook claude-code --policy POLICY …options`) with its sandbox on and closed
 * (the set-up doctor calls held) and `extra` settings, for a plain `docs` server; doctor runs in `cwd`.
 */
async function claudeHooks(
  home: string,
  cwd: string,
  policy: string,
  options: { entry?: string; extra?: Record<string, unknown>; args?: string[] } = {},
) {
  const argv = [
    'node',
    options.entry ?? cliEntry(),
    'hook',
    'claude-code',
    '--policy',
    policy,
    ...(options.args ?? []),
  ];
  const settings = hostSettings['claude-code'](argv.map(shellQuote).join(' ')) as Record<string, unknown>;
  const sandbox = { enabled: true, allowUnsandboxedCommands: false };
  write(path.join(home, '.claude', 'settings.json'), { ...settings, sandbox, ...options.extra });
  write(path.join(home, '.claude.json'), { mcpServers: { docs: plainServer } });
  return verdict(await doctorReport(home, cwd));
}

/** Codex's user config proxying `docs` with `policy`, plus `extra` lines; doctor runs in `cwd`. */
async function codexProxy(home: string, cwd: string, policy: string, extra = '') {
  const { command, args } = proxiedServer();
  const argv = args.map((a) => (a === defaultPolicy ? policy : a));
  write(
    path.join(home, '.codex', 'config.toml'),
    `${extra}\n[mcp_servers.docs]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(argv)}\n`,
  );
  return verdict(await doctorReport(home, cwd));
}

/** Gemini CLI's user settings proxying `docs` with `policy`, plus `extra` settings, in a trusted folder. */
async function geminiProxy(home: string, cwd: string, policy: string, extra: Record<string, unknown> = {}) {
  const { command, args } = proxiedServer();
  const docs = { command, args: args.map((a) => (a === defaultPolicy ? policy : a)) };
  write(path.join(home, '.gemini', 'settings.json'), { mcpServers: { docs }, ...extra });
  return verdict(await doctorReport(home, cwd, { GEMINI_CLI_TRUST_WORKSPACE: 'true' }));
}

/** A project with `.git` and a folder `app` in it, where doctor runs. */
function gitProject() {
  const { home, project } = scratch();
  mkdirSync(path.join(project, '.git'));
  const app = path.join(project, 'app');
  mkdirSync(app);
  return { home, project, app };
}

describe('doctor: a gate whose files the agent may write is not gated (claude code, sandbox closed)', () => {
  test('control: policy, review and code outside every folder the agent may write: gated', async () => {
    const { home, app } = gitProject();
    const extra = { permissions: { additionalDirectories: [path.join(home, 'elsewhere')] } };
    expect(await claudeHooks(home, app, defaultPolicy, { extra })).toEqual({ state: 'gated', lines: [] });
  });

  test('the policy in the folder doctor runs in: not gated', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(project, 'linkgate.yaml'));
    const { state, lines } = await claudeHooks(home, project, policy);
    expect(state).toBe('not-gated');
    expect(lines).toEqual([
      expect.stringContaining(`its policy \`${policy}\` lies in \`${project}\`, the project folder`),
    ]);
  });

  test('the policy in the project root above it (`.git`): not gated', async () => {
    const { home, project, app } = gitProject();
    const policy = policyAt(path.join(project, 'linkgate.yaml'));
    const { state, lines } = await claudeHooks(home, app, policy);
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining(`lies in \`${project}\`, the project root (its \`.git\`)`)]);
  });

  test('the policy in `permissions.additionalDirectories`: not gated', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(home, 'shared', 'linkgate.yaml'));
    const extra = { permissions: { additionalDirectories: ['~/shared'] } };
    const { state, lines } = await claudeHooks(home, project, policy, { extra });
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining('`permissions.additionalDirectories`')]);
  });

  test('the policy in `sandbox.filesystem.allowWrite`, or under an `Edit(…)` allow rule: not gated', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(home, 'shared', 'gate', 'linkgate.yaml'));
    const sandbox = { enabled: true, allowUnsandboxedCommands: false, filesystem: { allowWrite: ['~/shared'] } };
    const allowed = await claudeHooks(home, project, policy, { extra: { sandbox } });
    expect(allowed.state).toBe('not-gated');
    expect(allowed.lines).toEqual([expect.stringContaining('`sandbox.filesystem.allowWrite`')]);
    const permissions = { allow: [`Edit(/${path.join(home, 'shared')}/**)`] };
    const edit = await claudeHooks(home, project, policy, { extra: { permissions } });
    expect(edit.state).toBe('not-gated');
    expect(edit.lines).toEqual([expect.stringContaining('the allow rule `Edit(')]);
  });

  test('the policy named outside, a symbolic link into the project: not gated', async () => {
    const { home, project } = scratch();
    const real = policyAt(path.join(project, 'linkgate.yaml'));
    const given = path.join(home, 'etc', 'linkgate.yaml');
    mkdirSync(path.dirname(given), { recursive: true });
    symlinkSync(real, given);
    const { state, lines } = await claudeHooks(home, project, given);
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining(`\`${given}\` (by way of \`${real}\`)`)]);
  });

  test('the policy named in the project, a symbolic link out of it (the agent can point it elsewhere): not gated', async () => {
    const { home, project } = scratch();
    const given = path.join(project, 'linkgate.yaml');
    symlinkSync(defaultPolicy, given);
    const { state, lines } = await claudeHooks(home, project, given);
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining(`its policy \`${given}\` lies in \`${project}\``)]);
  });

  test('a writable folder named by a symbolic link to where the policy lies: not gated', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(home, 'real', 'linkgate.yaml'));
    symlinkSync(path.join(home, 'real'), path.join(home, 'link'));
    const extra = { permissions: { additionalDirectories: [path.join(home, 'link')] } };
    const { state, lines } = await claudeHooks(home, project, policy, { extra });
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining(`lies in \`${path.join(home, 'link')}\``)]);
  });

  test("the hook's linkgate code reached through a link in the project root: not gated", async () => {
    const { home, project, app } = gitProject();
    mkdirSync(path.join(project, 'node_modules'));
    symlinkSync(packageRoot, path.join(project, 'node_modules', 'linkgate'));
    const entry = path.join(project, 'node_modules', 'linkgate', path.relative(packageRoot, cliEntry()));
    const { state, lines } = await claudeHooks(home, app, defaultPolicy, { entry });
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining(`its linkgate code \`${entry}\``)]);
  });

  test('the allowed-signers file of a verified review in the project root: not gated', async () => {
    const { home, project, app } = gitProject();
    const review = reviewFolder({ 'alice@example.com': 'ed25519' });
    review.sign('alice@example.com');
    const signers = path.join(project, 'allowed_signers');
    symlinkSync(review.allowedSigners, signers);
    const { state, lines } = await claudeHooks(home, app, review.policy, { args: ['--allowed-signers', signers] });
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining(`its allowed-signers file \`${signers}\``)]);
  });

  test('a proxy whose policy lies in the project: not gated (it reads it at every start)', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(project, 'linkgate.yaml'));
    const { command, args } = proxiedServer();
    const docs = { command, args: args.map((a) => (a === defaultPolicy ? policy : a)) };
    write(path.join(home, '.claude.json'), { mcpServers: { docs } });
    const { state, lines } = verdict(await doctorReport(home, project));
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining('the agent can rewrite what the proxy decides')]);
  });
});

describe("doctor: codex's writable roots and project root", () => {
  const excluded = '[sandbox_workspace_write]\nexclude_slash_tmp = true\n';

  test('control: `workspace-write` with its roots elsewhere and the temporary folders excluded: gated', async () => {
    const { home, project } = scratch();
    const config = `sandbox_mode = "workspace-write"\n${excluded}writable_roots = [${JSON.stringify(path.join(home, 'elsewhere'))}]\n`;
    expect(await codexProxy(home, project, defaultPolicy, config)).toEqual({ state: 'gated', lines: [] });
  });

  test('the policy in `writable_roots`: not gated', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(home, 'shared', 'linkgate.yaml'));
    const config = `sandbox_mode = "workspace-write"\n${excluded}writable_roots = [${JSON.stringify(path.join(home, 'shared'))}]\n`;
    const { state, lines } = await codexProxy(home, project, policy, config);
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining('`sandbox_workspace_write.writable_roots`')]);
  });

  test('the policy under /tmp, which `workspace-write` lets the shell write unless excluded: not gated', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(home, 'linkgate.yaml'));
    const { state, lines } = await codexProxy(home, project, policy, 'sandbox_mode = "workspace-write"\n');
    expect(state).toBe('not-gated');
    // the policy's line; a checkout under /tmp (a CI clone) adds one naming its linkgate code too
    expect(lines.filter((l) => l.startsWith('its policy'))).toEqual([
      expect.stringContaining("lies in `/tmp`, codex's `workspace-write` sandbox"),
    ]);
    expect(await codexProxy(home, project, policy, `sandbox_mode = "workspace-write"\n${excluded}`)).toEqual({
      state: 'gated',
      lines: [],
    });
  });

  test('the policy in the root `project_root_markers` finds above the folder doctor runs in: not gated', async () => {
    const { home, project } = scratch();
    mkdirSync(path.join(project, '.hg'));
    const app = path.join(project, 'app');
    mkdirSync(app);
    const policy = policyAt(path.join(project, 'linkgate.yaml'));
    const { state, lines } = await codexProxy(home, app, policy, 'project_root_markers = [".hg"]\n');
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining("codex's project root (`project_root_markers` `.hg`)")]);
  });
});

describe("doctor: gemini cli's `context.includeDirectories`", () => {
  test('control: included folders elsewhere: gated', async () => {
    const { home, project } = scratch();
    const extra = { context: { includeDirectories: [path.join(home, 'elsewhere')] } };
    expect(await geminiProxy(home, project, defaultPolicy, extra)).toEqual({ state: 'gated', lines: [] });
  });

  test('the policy in an included folder: not gated', async () => {
    const { home, project } = scratch();
    const policy = policyAt(path.join(home, 'shared', 'linkgate.yaml'));
    const extra = { context: { includeDirectories: ['~/shared'] } };
    const { state, lines } = await geminiProxy(home, project, policy, extra);
    expect(state).toBe('not-gated');
    expect(lines).toEqual([expect.stringContaining('`context.includeDirectories`')]);
  });
});
