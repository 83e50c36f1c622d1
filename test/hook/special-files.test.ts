// Files read safely (issue 35, item 4): the policy, its `.sig` and the allowed-signers file may be a FIFO, a symlink
// to /dev/zero or a 2 GB sparse file (the gated agent can put one there); the hook answers within its own deadline,
// failing closed in Claude Code's protocol: exit 2 (a PreToolUse that exits 2 is blocked) when the policy cannot be
// read, a deny with policy.unreviewed when the review files cannot. Each case runs the hook as its own process, as
// a host does; on main a FIFO hangs until the host's timeout, which lets the call through.
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReviewFolder, reviewFolder } from '../helpers/ssh-keygen.ts';
import { readRequested } from './hook-events.ts';
import { runHookProcess } from './hook-process.ts';

const makers = {
  fifo: (path: string) => {
    const made = spawnSync('mkfifo', [path]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  },
  'symlink to /dev/zero': (path: string) => symlinkSync('/dev/zero', path),
  '2 GB sparse file': (path: string) => {
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 2 * 1000 * 1000 * 1000);
    closeSync(fd);
  },
} as const;

let f: ReviewFolder;
beforeAll(() => {
  f = reviewFolder({ 'alice@example.com': 'ed25519' });
  f.sign('alice@example.com');
});
afterAll(() => f.cleanup());

const event = () => JSON.stringify(readRequested('docs', 'guide://manuals/a'));
const hookArgs = (policy: string, allowedSigners: string) => [
  'hook',
  'claude-code',
  '--policy',
  policy,
  '--state',
  join(f.dir, 'state'),
  '--allowed-signers',
  allowedSigners,
];

describe('the hook over special files', () => {
  it('allows the read when every file is what it should be (the baseline)', async () => {
    const run = await runHookProcess(hookArgs(f.policy, f.allowedSigners), event());
    expect(run).toMatchObject({ code: 0, stdout: '' });
  }, 60_000);

  describe.each(Object.entries(makers))('a %s', (_kind, make) => {
    it('as the policy: exit 2 (blocked) within the deadline, naming the file', async () => {
      const policy = join(f.dir, `special-${_kind.replace(/\W/g, '-')}.yaml`);
      make(policy);
      try {
        const run = await runHookProcess(hookArgs(policy, f.allowedSigners), event());
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(/not a regular file|over \d+ bytes/);
        // answered by the check, not by the deadline's timer (speed is measured, not asserted)
        expect(`${run.stdout}${run.stderr}`).not.toContain('did not answer within');
      } finally {
        rmSync(policy, { force: true });
      }
    }, 60_000);

    it('as the .sig: a deny with policy.unreviewed within the deadline', async () => {
      const sigCopy = join(f.dir, 'sig.keep');
      spawnSync('mv', [f.sig, sigCopy]);
      make(f.sig);
      try {
        const run = await runHookProcess(hookArgs(f.policy, f.allowedSigners), event());
        expect(run.code).toBe(0);
        expect(run.stdout).toContain('"permissionDecision":"deny"');
        expect(run.stdout).toContain('policy.unreviewed');
        // answered by the check, not by the deadline's timer (speed is measured, not asserted)
        expect(`${run.stdout}${run.stderr}`).not.toContain('did not answer within');
      } finally {
        rmSync(f.sig, { force: true });
        spawnSync('mv', [sigCopy, f.sig]);
      }
    }, 60_000);

    it('as the allowed signers: a deny with policy.unreviewed within the deadline', async () => {
      const signers = join(f.dir, `signers-${_kind.replace(/\W/g, '-')}`);
      make(signers);
      try {
        const run = await runHookProcess(hookArgs(f.policy, signers), event());
        expect(run.code).toBe(0);
        expect(run.stdout).toContain('"permissionDecision":"deny"');
        expect(run.stdout).toContain('policy.unreviewed');
        // answered by the check, not by the deadline's timer (speed is measured, not asserted)
        expect(`${run.stdout}${run.stderr}`).not.toContain('did not answer within');
      } finally {
        rmSync(signers, { force: true });
      }
    }, 60_000);
  });
});
