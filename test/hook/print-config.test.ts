// `linkgate hook HOST --print-config` fails closed at set-up (issue 35 item 3, issue 32 item 5): every Claude Code
// entry carries `onFailure: "block"` (the real Claude Code lets a read through when a hook without it cannot start,
// crashes or hangs), Cursor's `failClosed: true`; with `--allowed-signers` the review is verified before anything is
// printed: a policy that does not verify, or an allowed-signers file that is not there, is exit 2 and the reason.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';

const reviewFolder = reviewFolders();
type Entry = { matcher?: string; hooks: Record<string, unknown>[] };

describe('linkgate hook --print-config', () => {
  it('claude code: every hook entry has onFailure "block"', async () => {
    const run = await runCli(['hook', 'claude-code', '--print-config']);
    expect(run.code).toBe(0);
    const { hooks } = JSON.parse(run.stdout) as { hooks: Record<string, Entry[]> };
    const handlers = Object.values(hooks).flatMap((entries) => entries.flatMap((e) => e.hooks));
    expect(Object.keys(hooks).sort()).toEqual(['PostToolUse', 'PostToolUseFailure', 'PreToolUse']);
    expect(handlers.length).toBeGreaterThanOrEqual(3);
    for (const handler of handlers) expect(handler).toMatchObject({ type: 'command', onFailure: 'block' });
  });

  it('cursor: every hook has failClosed', async () => {
    const run = await runCli(['hook', 'cursor', '--print-config']);
    const { hooks } = JSON.parse(run.stdout) as { hooks: Record<string, Record<string, unknown>[]> };
    for (const handler of Object.values(hooks).flat()) expect(handler['failClosed']).toBe(true);
  });

  it('with --allowed-signers: a verified policy prints; an edited one, or a missing trust list, is exit 2 and why', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const print = (signers: string) =>
      runCli(['hook', 'claude-code', '--print-config', '--policy', f.policy, '--allowed-signers', signers]);
    const good = await print(f.allowedSigners);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('--allowed-signers');
    f.loosen();
    const edited = await print(f.allowedSigners);
    expect(edited).toMatchObject({ code: 2, stdout: '' });
    expect(edited.stderr).toContain('policy.unreviewed');
    expect(edited.stderr).toContain('does not match these bytes');
    const missing = await print(join(f.dir, 'no-such-allowed-signers'));
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('not found');
    rmSync(f.sig);
    writeFileSync(f.policy, 'id: [oops');
    expect((await print(f.allowedSigners)).code).toBe(2);
  });

  describe('the proxy as the front end, the hooks as a second layer (issue 39 item 2)', () => {
    const server = ['--server', 'docs', '--', 'npx', '-y', 'docs-server'];
    it.each([
      ['codex', 'mcp_servers'],
      ['gemini-cli', 'mcpServers'],
      ['claude-code', 'mcpServers'],
    ])('%s: --server prints the proxy entry beside the hooks', async (host, key) => {
      const run = await runCli(['hook', host, '--print-config', '--records', '/tmp/r.jsonl', ...server]);
      expect(run.code, run.stderr).toBe(0);
      const printed = JSON.parse(run.stdout) as Record<string, Record<string, { command: string; args: string[] }>>;
      expect(Object.keys(printed['hooks'] ?? {}).length).toBeGreaterThan(0);
      const entry = printed[key]?.['docs'];
      expect(entry?.command).toBe('node');
      expect(entry?.args.slice(1, 2)).toEqual(['proxy']);
      expect(entry?.args).toContain('--records');
      expect(entry?.args.slice(-5)).toEqual(['docs', '--', 'npx', '-y', 'docs-server']);
      expect(run.stderr).not.toContain('fail open');
    });

    it('claude code with --server keeps onFailure "block" on every hook', async () => {
      const run = await runCli(['hook', 'claude-code', '--print-config', ...server]);
      const { hooks } = JSON.parse(run.stdout) as { hooks: Record<string, Entry[]> };
      for (const handler of Object.values(hooks).flatMap((entries) => entries.flatMap((e) => e.hooks)))
        expect(handler).toMatchObject({ onFailure: 'block' });
    });

    // Claude Code too: with `onFailure: "block"` a post hook that cannot run, or a pre hook answering garbage, lets
    // things through (docs/hosts.md's table, measured on the real binary)
    it.each(['codex', 'gemini-cli', 'claude-code'])(
      '%s without --server: the hooks, and a warning that they alone fail open',
      async (host) => {
        const run = await runCli(['hook', host, '--print-config']);
        expect(run.code).toBe(0);
        expect(run.stderr).toMatch(/these hooks alone fail open: .*--server NAME -- COMMAND/);
      },
    );

    it('--server without a command, or a command without --print-config, is a usage error', async () => {
      expect((await runCli(['hook', 'codex', '--print-config', '--server', 'docs'])).code).toBe(2);
      expect((await runCli(['hook', 'codex', '--policy', 'policies/default.yaml', '--', 'x'])).code).toBe(2);
    });
  });
});
