// Red team, agent-writable files: `--strict-files` promises that a policy the gated user could change is refused, so
// the command does not start (and doctor reports the set-up as not gated). The proxy kept that promise; the hook and
// `eval` read the policy through the validated-policy cache, which never looked at the option: a world-writable
// policy (which any agent can rewrite to allow everything) was loaded and judged with, under `--strict-files`.
// Under the option the cache is off as well: its entry is a file the gated user writes, so a forged entry would stand
// for a policy the user cannot change.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { cliBuildOptions, repoRoot } from '../../scripts/cli-build-options.ts';
import { readRequested } from '../hook/hook-events.ts';
import { runCli } from '../helpers/run-cli.ts';

let dir: string;
let policy: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-strict-'));
  policy = join(dir, 'policy.yaml');
  copyFileSync('policies/default.yaml', policy);
  // anyone can rewrite it: replaceable by this user, whoever runs the test
  chmodSync(policy, 0o666);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// the CLI as shipped (its bundle keeps validated policies in a cache next to it), inside the package as installed
let bin: string;
beforeAll(async () => {
  const cacheRoot = join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  bin = mkdtempSync(join(cacheRoot, 'linkgate-redteam-strict-'));
  await build({ ...cliBuildOptions(bin), sourcemap: false, logLevel: 'error' });
}, 120_000);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('red team, --strict-files over a policy anyone can rewrite', () => {
  test('the proxy refuses to start (held)', async () => {
    const run = await runCli(['proxy', '--strict-files', '--policy', policy, '--', 'node', '-e', '0'], '');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('refused under --strict-files');
  });

  for (const state of [true, false])
    test(`the hook refuses to start${state ? ' (a --state folder)' : ''}`, async () => {
      const args = ['hook', 'claude-code', '--strict-files', '--policy', policy];
      if (state) args.push('--state', join(dir, 'state'));
      const run = await runCli(args, JSON.stringify(readRequested('docs', 'rt://docs/guide.md')));
      expect(run.stderr).toContain('refused under --strict-files');
      // Claude Code's blocking exit: the read does not run
      expect(run.code).toBe(2);
    });

  for (const shipped of [false, true])
    test(`eval refuses to start${shipped ? ' (the shipped bundle)' : ''}`, async () => {
      const link = { type: 'resource_link', uri: 'https://x.example/a', name: 'a' };
      const line = `${JSON.stringify({ stage: 'link', server: 'a', readFrom: 'a', link })}\n`;
      const args = ['eval', '--strict-files', '--policy', policy];
      const run = shipped
        ? spawnSync(process.execPath, [join(bin, 'linkgate.js'), ...args], { input: line, encoding: 'utf8' })
        : await runCli(args, line);
      expect(run.stderr).toContain('refused under --strict-files');
      expect(run.stdout).not.toContain('"effect"');
    });
});
