// Policy settings a host's hooks cannot enforce are named, never silently ignored (issue 39 item 2): Claude Code and
// Gemini CLI hand their hooks a link as text, so a declared size or type never reaches the hook, and on main
// `links.maxDeclaredBytes` and `denyDeclaredTypes` did nothing there without a word (a 50 MiB-declared link was read).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookBlindPathLine, hookBlindPaths, hookBlindSpots } from '../../src/hook/host-blind-spots.ts';
import { hostAdapters, type HookHost } from '../../src/hook/hook-hosts.ts';
import { eventOf } from '../../src/hosts/hook-setup.ts';
import { hostDescriptions } from '../../src/hosts/hosts.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested } from './hook-events.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-blind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hookBlindSpots', () => {
  it('names declared size and type for the hosts that flatten links, nothing for the others', async () => {
    const policy = await loadPolicy('policies/default.yaml');
    const settings = (host: Parameters<typeof hookBlindSpots>[0]) => hookBlindSpots(host, policy).map((s) => s.setting);
    expect(settings('claude-code')).toEqual(['links.maxDeclaredBytes', 'links.denyDeclaredTypes']);
    expect(settings('gemini-cli')).toEqual(['links.maxDeclaredBytes', 'links.denyDeclaredTypes']);
    expect(settings('codex')).toEqual([]);
    expect(settings('cursor')).toEqual([]);
    for (const spot of hookBlindSpots('claude-code', policy)) expect(spot.why).toMatch(/^claude code hands its hooks/);
  });

  it('a setting that is off is not named', async () => {
    const file = join(dir, 'no-types.yaml');
    const text = (await import('node:fs')).readFileSync('policies/default.yaml', 'utf8');
    writeFileSync(file, text.replace('denyDeclaredTypes: true', 'denyDeclaredTypes: false'));
    const policy = await loadPolicy(file);
    expect(hookBlindSpots('claude-code', policy).map((s) => s.setting)).toEqual(['links.maxDeclaredBytes']);
  });
});

// Paths a host's hooks cannot gate, beside the settings (issue 39 item 2): Claude Code 2.1.332 hands the model an MCP
// tool's `isError: true` result through `PostToolUseFailure`, whose answer can only add context, so no hook withholds
// a refused link in it (test/real-host/claude-code-tool-error.test.ts). Only paths measured on a real binary are named.
describe('hookBlindPaths', () => {
  const repo = path.resolve(import.meta.dirname, '../..');

  it("names claude code's tool error results, through its failure event, with the real-host test that measured it", () => {
    const failure = eventOf(hostDescriptions['claude-code'], 'failure') ?? '';
    expect(failure).not.toBe('');
    const paths = hookBlindPaths('claude-code');
    expect(paths.map((p) => p.what)).toEqual(['tool results with `isError: true`']);
    const [only] = paths;
    expect(only?.why).toContain(`\`${failure}\``);
    expect(only?.why).toContain('no hook can withhold');
    // the test it cites is there, and measures that event on a tool answering isError
    const test = path.join(repo, only?.measured ?? '');
    expect(only?.measured).toMatch(/^test\/real-host\/.+\.test\.ts$/);
    expect(existsSync(test)).toBe(true);
    expect(readFileSync(test, 'utf8')).toContain(failure);
    expect(readFileSync(path.join(repo, 'test/real-host/failing-tool-server.ts'), 'utf8')).toContain('isError: true');
  });

  it('names none for a host where no such path was measured', () => {
    const others = (Object.keys(hostAdapters) as HookHost[]).filter((h) => h !== 'claude-code');
    expect(others).toEqual(expect.arrayContaining(['codex', 'gemini-cli', 'cursor', 'cline']));
    for (const host of others) {
      expect(hookBlindPaths(host), host).toEqual([]);
      expect(hookBlindPathLine(host), host).toBeNull();
    }
  });

  it('one line says the path is not gated by any hook', () => {
    expect(hookBlindPathLine('claude-code')).toMatch(
      /^tool results with `isError: true` are not gated by any hook: claude code hands them to the model through /,
    );
  });
});

describe('named on stderr', () => {
  const line =
    /^linkgate hook: not enforced by the claude-code hook: `links\.maxDeclaredBytes`, `links\.denyDeclaredTypes` \(.*\); linkgate proxy in front of the server enforces them$/m;

  it('at every run of the claude code hook, beside its answer', async () => {
    const args = ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
    const run = await runCli(args, JSON.stringify(readRequested('docs', 'guide://a')));
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(line);
  });

  it('by --print-config', async () => {
    const run = await runCli(['hook', 'claude-code', '--print-config', '--policy', 'policies/default.yaml']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(line);
  });

  it('by --print-config without --server: the hooks alone leave tool error results ungated', async () => {
    const alone = await runCli(['hook', 'claude-code', '--print-config', '--policy', 'policies/default.yaml']);
    expect(alone.code).toBe(0);
    expect(alone.stderr).toMatch(
      /^linkgate hook: these hooks alone fail open: .*; tool results with `isError: true` are not gated by any hook: claude code hands them to the model through `PostToolUseFailure`, .*; give `--server NAME -- COMMAND \[ARG…\]` to print the proxy/m,
    );
    // with the proxy printed in front of the server, nothing is left on that path
    const fronted = ['--server', 'docs', '--', 'node', 's.js'];
    const both = await runCli([
      'hook',
      'claude-code',
      '--print-config',
      '--policy',
      'policies/default.yaml',
      ...fronted,
    ]);
    expect(both.code).toBe(0);
    expect(both.stderr).not.toContain('isError');
    const codex = await runCli(['hook', 'codex', '--print-config', '--policy', 'policies/default.yaml']);
    expect(codex.stderr).not.toContain('isError');
  });

  it('not for codex, whose hooks see the links as the server sent them', async () => {
    const run = await runCli(['hook', 'codex', '--print-config', '--policy', 'policies/default.yaml']);
    expect(run.stderr).not.toContain('not enforced');
  });
});
