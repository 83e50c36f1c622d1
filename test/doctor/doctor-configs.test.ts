// doctor's reading of configuration shapes the real-host tests do not reach: command lines, matchers, Claude Code's
// `onFailure` and `disableAllHooks`, Codex's `[features] hooks`, Cursor (whose CLI is not on the registry), and
// files that do not parse.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { shellWords } from '../../src/doctor/hook-variables.ts';
import { linkgateInvocation } from '../../src/doctor/linkgate-invocation.ts';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { hostDescriptions } from '../../src/hosts/hosts.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const policy = path.join(repoRoot, 'policies', 'default.yaml');
const reviewFolder = reviewFolders();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function scratch(): { home: string; project: string; entry: string } {
  const home = mkdtempSync(path.join(tmpdir(), 'linkgate-doctor-'));
  dirs.push(home);
  const project = path.join(home, 'project');
  mkdirSync(project);
  // a linkgate entry that exists in a package named linkgate (doctor checks the file, it does not run it)
  const entry = path.join(home, 'lib', 'dist', 'bin', 'linkgate.js');
  write(entry, '');
  write(path.join(home, 'lib', 'package.json'), { name: 'linkgate', bin: { linkgate: 'dist/bin/linkgate.js' } });
  return { home, project, entry };
}

function write(file: string, text: string | object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof text === 'string' ? text : JSON.stringify(text));
}

describe('command lines', () => {
  test.each([
    [
      'node /a/linkgate.js hook codex --policy /p.yaml',
      ['node', '/a/linkgate.js', 'hook', 'codex', '--policy', '/p.yaml'],
    ],
    [
      `node '/a b/linkgate.js' hook x --policy "/p q.yaml"`,
      ['node', '/a b/linkgate.js', 'hook', 'x', '--policy', '/p q.yaml'],
    ],
    [`a 'it'\\''s' b\\ c ""`, ['a', "it's", 'b c', '']],
  ])('shellWords(%j)', (line, words) => {
    expect(shellWords(line)).toEqual(words);
  });

  test('node SCRIPT, a linkgate on PATH, npx and other commands', () => {
    const { home, entry } = scratch();
    const bin = path.join(home, 'bin');
    mkdirSync(bin);
    // npm's bin link: a symlink to the package's entry
    chmodSync(entry, 0o755);
    symlinkSync(entry, path.join(bin, 'linkgate'));
    expect(linkgateInvocation(['node', entry, 'proxy', '--policy=p.yaml', '--', 'node', 's.js'], home, '')).toEqual({
      subcommand: 'proxy',
      bundle: entry,
      bundleExists: true,
      mode: 'enforce',
      policy: 'p.yaml',
    });
    expect(
      linkgateInvocation(['linkgate', 'hook', '--policy', 'p.yaml', 'codex', '--allowed-signers', 'a'], home, bin),
    ).toEqual({
      subcommand: 'hook',
      host: 'codex',
      bundle: path.join(bin, 'linkgate'),
      bundleExists: true,
      mode: 'enforce',
      policy: 'p.yaml',
      allowedSigners: 'a',
    });
    expect(linkgateInvocation(['linkgate', 'proxy'], home, '')?.bundleExists).toBe(false);
    expect(linkgateInvocation(['npx', '-y', 'linkgate', 'proxy'], home, bin)?.bundleExists).toBe(false);
    expect(linkgateInvocation(['node', 'server.js'], home, bin)).toBeUndefined();
    expect(linkgateInvocation(['linkgate', 'report'], home, bin)).toBeUndefined();
    // `--policy` after `--` belongs to the server
    expect(linkgateInvocation(['linkgate', 'proxy', '--', 's', '--policy', 'x'], home, bin)?.policy).toBeUndefined();
  });

  // each host's own reading of a matcher (src/hosts/): exact lists and regexes differ between them
  test.each([
    ['claude-code', undefined, 'mcp__a__t', true],
    ['claude-code', '*', 'mcp__a__t', true],
    ['claude-code', 'ReadMcpResourceTool|WebFetch', 'ReadMcpResourceTool', true],
    ['claude-code', 'ReadMcpResourceTool|WebFetch', 'ReadMcpResource', false],
    // a list with spaces and commas is still a list of exact names in claude code
    ['claude-code', 'WebFetch, ReadMcpResourceTool', 'ReadMcpResourceTool', true],
    ['claude-code', 'mcp__a', 'mcp__a__t', false],
    ['claude-code', 'mcp__.*', 'mcp__a__t', true],
    ['claude-code', '^mcp__b__', 'mcp__a__t', false],
    ['claude-code', '(', 'mcp__a__t', false],
    ['codex', '^(read_mcp_resource|mcp__.+)$', 'mcp__a__t', true],
    ['codex', 'read_mcp_resource|mcp__a__t', 'mcp__a__t', true],
    ['codex', 'read_mcp_resource|mcp__a', 'mcp__a__t', false],
    // not an exact list in codex (a space): a regex, searched
    ['codex', 'x|mcp__a ', 'mcp__a__t', false],
    ['codex', 'mcp__a__', 'mcp__a__t', false],
    ['codex', 'mcp__a__.', 'mcp__a__t', true],
    ['gemini-cli', 'mcp_a_', 'mcp_a_t', true],
    ['gemini-cli', ' * ', 'mcp_a_t', true],
    ['gemini-cli', '^read_mcp_resource$', 'mcp_a_t', false],
    ['gemini-cli', '(', '(', true],
  ] as const)('%s reads matcher %j as covering %s: %s', (host, matcher, tool, covered) => {
    expect(hostDescriptions[host].matcherCovers(matcher, tool)).toBe(covered);
  });

  test.each([
    ['claude-code', 'docs', 'get-links', 'mcp__docs__get-links'],
    ['claude-code', 'my docs', 'x.y', 'mcp__my_docs__x_y'],
    ['codex', 'docs', 'get-links', 'mcp__docs__get_links'],
    ['gemini-cli', 'docs', 'get-links', 'mcp_docs_get-links'],
    ['gemini-cli', 'my docs', 'x', 'mcp_my_docs_x'],
  ] as const)('%s names tool %s of server %s %s', (host, server, tool, name) => {
    expect(hostDescriptions[host].tools.mcpTool(server, tool)).toBe(name);
  });
});

describe('hosts', () => {
  const hookCommand = (entry: string, host: string) => `node ${entry} hook ${host} --policy ${policy}`;

  test('claude code: a handler without `"onFailure": "block"` runs with a warning; `disableAllHooks` stops every hook', async () => {
    const { home, project, entry } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { a: { command: 'node', args: ['s.js'] } } });
    const handler = (onFailure?: string) => [
      { type: 'command', command: hookCommand(entry, 'claude-code'), ...(onFailure ? { onFailure } : {}) },
    ];
    write(path.join(home, '.claude', 'settings.json'), {
      // the sandbox keeps the agent's shell out of the hook's state folder: the hooks alone gate
      sandbox: { enabled: true, allowUnsandboxedCommands: false },
      hooks: {
        PreToolUse: [{ matcher: 'ReadMcpResourceTool', hooks: handler('block') }],
        PostToolUse: [{ matcher: 'ReadMcpResourceTool|mcp__.*', hooks: handler() }],
      },
    });
    let report = await runDoctor({ home, cwd: project, env: {} });
    expect(report.servers.map((s) => [s.name, s.gate, s.gated])).toEqual([['a', 'hook', true]]);
    const failOpen = (w: readonly string[]) => w.filter((line) => line.startsWith('no `"onFailure"')).length;
    expect(report.hooks.map((h) => [h.event, failOpen(h.warnings)])).toEqual([
      ['PreToolUse', 0],
      ['PostToolUse', 1],
    ]);
    expect(report.ok).toBe(true);

    write(path.join(project, '.claude', 'settings.local.json'), { disableAllHooks: true });
    report = await runDoctor({ home, cwd: project, env: {} });
    expect(report.hooks.every((h) => !h.runs && h.problems[0]?.startsWith('`disableAllHooks` is set'))).toBe(true);
    expect(report.servers[0]?.gated).toBe(false);
    expect(report.ok).toBe(false);
  });

  test('claude code: a hook that only sees results leaves reads ungated; another host’s hook command is named', async () => {
    const { home, project, entry } = scratch();
    write(path.join(project, '.mcp.json'), { mcpServers: { a: { command: 'node', args: ['s.js'] } } });
    write(path.join(project, '.claude', 'settings.json'), {
      hooks: {
        PostToolUse: [{ matcher: 'mcp__.*', hooks: [{ type: 'command', command: hookCommand(entry, 'codex') }] }],
      },
    });
    const report = await runDoctor({ home, cwd: project, env: {} });
    expect(report.servers[0]?.problems).toEqual([
      'no linkgate hook that runs sees its reads before they happen',
      'no linkgate hook that runs sees its tool results',
      'no linkgate hook that runs sees the bodies it reads',
      'its linkgate hooks will not run: runs `linkgate hook codex` in claude-code: the event formats differ',
    ]);
    expect(report.hooks[0]?.problems[0]).toBe('runs `linkgate hook codex` in claude-code: the event formats differ');
  });

  test('codex: `[features] hooks = false` stops its hooks; a remote server is listed', async () => {
    const { home, project, entry } = scratch();
    const hook = [{ hooks: [{ type: 'command', command: hookCommand(entry, 'codex') }] }];
    write(path.join(home, '.codex', 'hooks.json'), { hooks: { PreToolUse: hook, PostToolUse: hook } });
    write(
      path.join(home, '.codex', 'config.toml'),
      '[features]\nhooks = false\n[mcp_servers.r]\nurl = "https://e.example/mcp"\n',
    );
    const report = await runDoctor({ home, cwd: project, env: {} });
    expect(report.servers.map((s) => [s.name, s.transport, s.target, s.gated])).toEqual([
      ['r', 'remote', 'https://e.example/mcp', false],
    ]);
    const off = `hooks are turned off in codex (\`[features] hooks = false\` in \`${path.join(home, '.codex', 'config.toml')}\`)`;
    expect(report.hooks.map((h) => h.problems[0])).toEqual([off, off]);
  });

  test('cursor: mcp.json servers gated by its MCP hooks; `failClosed` missing is a warning', async () => {
    const { home, project, entry } = scratch();
    write(path.join(project, '.cursor', 'mcp.json'), { mcpServers: { c: { command: 'npx', args: ['-y', 'srv'] } } });
    write(path.join(home, '.cursor', 'hooks.json'), {
      version: 1,
      hooks: {
        beforeMCPExecution: [{ command: hookCommand(entry, 'cursor'), failClosed: true }],
        afterMCPExecution: [{ command: hookCommand(entry, 'cursor') }],
      },
    });
    const report = await runDoctor({ home, cwd: project, env: {} });
    // cursor keeps nothing of the agent's shell out of the hook's state folder: gated per event only
    expect(report.servers.map((s) => [s.host, s.name, s.scope, s.gate, s.state])).toEqual([
      ['cursor', 'c', 'project', 'hook', 'partly-gated'],
    ]);
    // the hook before a call is also told its server check rests on the state folder (doctor-resident.test.ts)
    const failOpen = (h: { warnings: readonly string[] }) => h.warnings.filter((w) => w.includes('failClosed')).length;
    expect(report.hooks.map(failOpen)).toEqual([0, 1]);
    expect(report.servers[0]?.policies.map((p) => p.review)).toEqual(['not-checked']);
  });

  test('a configuration file that does not parse fails the run and is named', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.codex', 'config.toml'), '[mcp_servers.a\ncommand = 1');
    write(path.join(home, '.gemini', 'settings.json'), '{"mcpServers": ');
    const report = await runDoctor({ home, cwd: project, env: {} });
    expect(report.problems).toHaveLength(2);
    expect(report.problems.every((p) => p.includes('does not parse'))).toBe(true);
    expect(report.ok).toBe(false);
  });

  test('a proxy whose policy no longer verifies against the signers in its env does not gate', async () => {
    const { home, project, entry } = scratch();
    const review = reviewFolder({ 'alice@example.com': 'ed25519' });
    review.sign('alice@example.com');
    const server = (env: Record<string, string>) => ({
      command: 'node',
      args: [entry, 'proxy', '--policy', review.policy, '--server', 'p', '--', 'node', 's.js'],
      env,
    });
    write(path.join(home, '.claude.json'), {
      mcpServers: { signed: server({ LINKGATE_ALLOWED_SIGNERS: review.allowedSigners }), unsigned: server({}) },
    });
    let report = await runDoctor({ home, cwd: project, env: {} });
    expect(report.servers.map((s) => [s.name, s.policies[0]?.review, s.gated])).toEqual([
      ['signed', 'verified', true],
      ['unsigned', 'not-checked', true],
    ]);
    review.loosen();
    report = await runDoctor({ home, cwd: project, env: {} });
    expect(report.servers.map((s) => [s.name, s.policies[0]?.review, s.gated])).toEqual([
      ['signed', 'unverified', false],
      ['unsigned', 'not-checked', true],
    ]);
    expect(report.servers[0]?.problems[0]).toMatch(/^policy `.*` does not verify: .*every decision is deny$/);
    expect(report.ok).toBe(false);
  });
});
