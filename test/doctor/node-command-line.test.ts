// Doctor reads a hook's or a proxy's `node …` command line as node reads it (issue 39): node's options and their
// values come before the script, so `node -r x linkgate.js hook …` runs linkgate.js after x (it was read as script
// `x`: not linkgate, the wrong reason), and `-e`/`--check` run no script at all. The oracle is the real node: each
// command line runs a stand-in `linkgate.js` and a preload that each leave a marker; doctor must say linkgate runs
// exactly when it ran, and that other code loads first exactly when the preload ran. Also NODE_OPTIONS in the
// environment doctor itself runs in, which a host started from the same shell hands to its hooks and servers.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { codexServerInherits } from '../../src/doctor/codex-config.ts';
import { linkgateInvocation, preloadProblem } from '../../src/doctor/linkgate-invocation.ts';
import { nodeCommandLine } from '../../src/doctor/node-options.ts';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { doctorReport, printedHook, proxiedServer, serverStates, useScratch, write } from './doctor-scratch.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-node-line-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const marks = { entry: path.join(dir, 'entry-ran'), preload: path.join(dir, 'preload-ran') };
const mark = (file: string) => `require('node:fs').writeFileSync(${JSON.stringify(file)}, 'x');`;
const entry = path.join(dir, 'linkgate.js');
writeFileSync(entry, mark(marks.entry));
const preload = path.join(dir, 'x.cjs');
writeFileSync(preload, mark(marks.preload));
const preloadMjs = path.join(dir, 'x.mjs');
writeFileSync(
  preloadMjs,
  `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marks.preload)}, 'x');`,
);

// what the real node does with `node ARGS`: whether linkgate.js ran, and whether the preload did
function underNode(args: readonly string[]): { entry: boolean; preload: boolean } {
  for (const file of Object.values(marks)) rmSync(file, { force: true });
  spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
  return { entry: existsSync(marks.entry), preload: existsSync(marks.preload) };
}

// what doctor reads of `node ARGS`: whether linkgate.js runs, and whether it says other code loads first
function byDoctor(args: readonly string[]): { entry: boolean; preload: boolean } {
  const invocation = linkgateInvocation(['node', ...args], dir, '');
  const problem = invocation?.argProblem ?? '';
  return {
    entry: invocation?.bundle === entry && !/runs no script|does not start/.test(problem),
    preload: /load other code first/.test(problem),
  };
}

const hook = ['hook', 'claude-code', '--policy', 'p.yaml'];
const lines: (readonly string[])[] = [
  ['-r', preload, 'linkgate.js', ...hook],
  ['--require', preload, 'linkgate.js', ...hook],
  [`--require=${preload}`, 'linkgate.js', ...hook],
  ['--import', preloadMjs, 'linkgate.js', ...hook],
  ['--no-warnings', '-r', preload, '--title', 'gate', 'linkgate.js', ...hook],
  ['-C', 'development', 'linkgate.js', ...hook],
  ['--title', 'gate', 'linkgate.js', ...hook],
  ['--input-type', 'commonjs', 'linkgate.js', ...hook],
  ['--max-old-space-size=64', 'linkgate.js', ...hook],
  ['--', 'linkgate.js', ...hook],
  ['--title', '-r', 'linkgate.js', ...hook],
  ['-e', '0', 'linkgate.js', ...hook],
  ['-p', '1', 'linkgate.js', ...hook],
  ['--check', 'linkgate.js', ...hook],
  ['-r', '--title', 'linkgate.js', ...hook],
  ['-r'],
];

describe("a node command line read as node reads it (node's options, their values, the script)", () => {
  test.each(lines)('node %s …: doctor agrees with node on what runs', (...args) => {
    const real = underNode(args);
    expect(byDoctor(args)).toEqual(real);
    // a command line node does not start with is named so
    if (args[0] === '--title' && args[1] === '-r')
      expect(linkgateInvocation(['node', ...args], dir, '')?.argProblem).toBe(
        'node does not start: `--title` takes a value and none follows',
      );
  });

  test('`node -r x linkgate.js hook …` is linkgate with a preload, named as NODE_OPTIONS preloads are', () => {
    const invocation = linkgateInvocation(['node', '-r', preload, 'linkgate.js', ...hook], dir, '');
    expect(invocation).toMatchObject({ subcommand: 'hook', host: 'claude-code', bundle: entry, policy: 'p.yaml' });
    expect(invocation?.argProblem).toBe(
      'its node flags load other code first (`-r`): linkgate may not be what answers',
    );
    expect(invocation?.nodeFlags).toEqual(['-r', preload]);
  });

  test('the words after node, split', () => {
    expect(nodeCommandLine(['--title', 't', '--', 'a.js', 'b'])).toMatchObject({ script: 'a.js', args: ['b'] });
    expect(nodeCommandLine(['-pe', '1', 'a.js'])).toMatchObject({ runsNone: '--print', script: 'a.js' });
  });
});

describe('NODE_OPTIONS in the environment doctor runs in', () => {
  const scratch = useScratch('linkgate-doctor-own-env-');
  const claudeHooked = (home: string, env?: Record<string, string>) => {
    write(path.join(home, '.claude.json'), { mcpServers: { docs: { command: 'node', args: ['s.js'] } } });
    const settings = hostSettings['claude-code'](printedHook('claude-code')) as Record<string, unknown>;
    write(path.join(home, '.claude', 'settings.json'), env === undefined ? settings : { ...settings, env });
  };

  test('a preload there is one the hook inherits: the hook does not run, and the line says where it comes from', async () => {
    const { home, project } = scratch();
    claudeHooked(home);
    expect(serverStates(await doctorReport(home, project))).toEqual([['claude-code', 'docs', 'partly-gated']]);
    const report = await doctorReport(home, project, { NODE_OPTIONS: `--require ${preload}` });
    expect(serverStates(report)).toEqual([['claude-code', 'docs', 'not-gated']]);
    expect(report.hooks.length).toBeGreaterThan(0);
    for (const h of report.hooks)
      expect(h.problems).toContain(
        "`NODE_OPTIONS` of the environment doctor runs in (a host started from it hands it on; the entry's `env` can set it) load other code first (`--require`): linkgate may not be what answers",
      );
    // LD_PRELOAD alike
    const ld = await doctorReport(home, project, { LD_PRELOAD: path.join(dir, 'x.so') });
    expect(serverStates(ld)).toEqual([['claude-code', 'docs', 'not-gated']]);
  });

  test("the host's settings setting it for the session override it (claude code's `env`)", async () => {
    const { home, project } = scratch();
    claudeHooked(home, { NODE_OPTIONS: '--no-warnings' });
    const report = await doctorReport(home, project, { NODE_OPTIONS: `--require ${preload}` });
    expect(serverStates(report)).toEqual([['claude-code', 'docs', 'partly-gated']]);
  });

  test('a proxy entry inherits it too; its own `env` overrides it', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.claude.json'), { mcpServers: { docs: proxiedServer() } });
    const env = { NODE_OPTIONS: `--import ${preloadMjs}` };
    expect(serverStates(await doctorReport(home, project, env))).toEqual([['claude-code', 'docs', 'not-gated']]);
    write(path.join(home, '.claude.json'), { mcpServers: { docs: { ...proxiedServer(), env: { NODE_OPTIONS: '' } } } });
    expect(serverStates(await doctorReport(home, project, env))).toEqual([['claude-code', 'docs', 'gated']]);
  });
});

describe("NODE_OPTIONS of doctor's environment and a codex proxy entry (codex hands its servers a fixed environment)", () => {
  // codex-rs rmcp-client starts a stdio server with a cleared environment, then HOME, PATH, USER, LANG … of its own,
  // the names the entry's `env_vars` lists, and the entry's `env` (create_env_for_mcp_server): a preload in the shell
  // it was started from never reaches the proxy unless `env_vars` names the variable
  const scratch = useScratch('linkgate-doctor-codex-env-');
  const toml = (extra: string) => {
    const { command, args } = proxiedServer();
    return `[mcp_servers.docs]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\n${extra}`;
  };
  const inShell = { NODE_OPTIONS: `--require ${preload}`, LD_PRELOAD: path.join(dir, 'x.so') };

  test('a preload in the environment doctor runs in is not one codex hands the proxy: gated, nothing said of it', async () => {
    const { home, project } = scratch();
    write(path.join(home, '.codex', 'config.toml'), toml(''));
    const report = await doctorReport(home, project, inShell);
    expect(serverStates(report)).toEqual([['codex', 'docs', 'gated']]);
    expect(JSON.stringify(report.servers)).not.toContain('of the environment doctor runs in');
  });

  test.each([
    ['a name', 'env_vars = ["NODE_OPTIONS"]'],
    ['a name and a source', 'env_vars = [{ name = "NODE_OPTIONS", source = "local" }]'],
  ])('one the entry hands on by `env_vars` (%s) counts, and the line says where it comes from', async (_, line) => {
    const { home, project } = scratch();
    write(path.join(home, '.codex', 'config.toml'), toml(line));
    const report = await doctorReport(home, project, inShell);
    expect(serverStates(report)).toEqual([['codex', 'docs', 'not-gated']]);
    expect(report.servers[0]?.problems).toContain(
      "`NODE_OPTIONS` of the environment doctor runs in (a host started from it hands it on; the entry's `env` can set it) load other code first (`--require`): linkgate may not be what answers",
    );
  });

  test("the entry's own `env` counts whatever codex hands on", async () => {
    const { home, project } = scratch();
    write(
      path.join(home, '.codex', 'config.toml'),
      toml(`[mcp_servers.docs.env]\nLD_PRELOAD = "${inShell.LD_PRELOAD}"\n`),
    );
    expect(serverStates(await doctorReport(home, project))).toEqual([['codex', 'docs', 'not-gated']]);
  });

  test('what codex hands a stdio server of its own environment: its fixed list and `env_vars`, on unix', () => {
    expect(codexServerInherits({ env_vars: ['A', { name: 'B', source: 'remote' }, 3] }, 'linux').inherits).toEqual([
      'HOME',
      'LOGNAME',
      'PATH',
      'SHELL',
      'USER',
      '__CF_USER_TEXT_ENCODING',
      'LANG',
      'LC_ALL',
      'TERM',
      'TMPDIR',
      'TZ',
      'A',
      'B',
    ]);
    // a list doctor has not read: all of it, as before
    expect(codexServerInherits({}, 'win32')).toEqual({});
  });
});

describe('node options doctor has not vetted are not counted as gated (reading 9, finding 2)', () => {
  test.each([
    [['--watch'], /keeps node running/],
    [['--watch-path', '.'], /keeps node running/],
    [['--inspect-brk=0'], /keeps node running or waiting for a debugger/],
    [['--inspect-wait'], /waiting for a debugger/],
    [['--inspect=0'], /opens node's inspector/],
    [['--inspect-port', '9229'], /opens node's inspector/],
    [['--frozen-intrinsics'], /not an option doctor knows/],
    [['--stack-size=20'], /not an option doctor knows/],
    [['--no-warnings', '--abort-on-uncaught-exception'], /`--abort-on-uncaught-exception` is not an option/],
  ])('node %j linkgate.js hook …', (flags, problem) => {
    const invocation = linkgateInvocation(['node', ...flags, 'linkgate.js', ...hook], dir, '');
    expect(invocation?.bundle).toBe(entry);
    expect(invocation?.argProblem).toMatch(problem);
  });

  test('in NODE_OPTIONS too', () => {
    expect(preloadProblem('NODE_OPTIONS', '--max-old-space-size=4096 --inspect')).toMatch(/opens node's inspector/);
    expect(preloadProblem('NODE_OPTIONS', '--watch')).toMatch(/keeps node running/);
  });

  test('the vetted ones are not a problem, and node runs linkgate with them', () => {
    const flags = ['--no-warnings', '--enable-source-maps', '--max-old-space-size=512', '--title', 'gate', '-C', 'x'];
    expect(linkgateInvocation(['node', ...flags, 'linkgate.js', ...hook], dir, '')?.argProblem).toBeUndefined();
    expect(underNode([...flags, 'linkgate.js', ...hook])).toEqual({ entry: true, preload: false });
    expect(preloadProblem('NODE_OPTIONS', '--no-deprecation --experimental-vm-modules')).toBeUndefined();
  });
});
