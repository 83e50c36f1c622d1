// `--strict-files` (issue 39 item 6): a policy, `.sig` or allowed-signers file the running user could change is
// refused (exit 2, naming the file) by every command that takes the review options; without it, a reviewed policy
// whose files this user could change is named once on stderr. The test's own files are always changeable by the
// test's own user (its owner, or root), so these are the refusing cases; the safe case is in
// test/policy/replaceable-file.test.ts, judged for another user.
import { chmodSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';

const reviewFolder = reviewFolders();
const line = `${JSON.stringify({ stage: 'link', server: 'docs', readFrom: 'docs', link: { type: 'resource_link', uri: 'guide://a', name: 'a' } })}\n`;

describe('--strict-files', () => {
  test.each([['eval'], ['explain']])(
    '%s refuses a policy this user could change, naming it; exit 2',
    async (command) => {
      const f = reviewFolder({ 'alice@example.com': 'ed25519' });
      f.sign('alice@example.com');
      chmodSync(f.policy, 0o644);
      const run = await runCli(
        [command, '--policy', f.policy, '--allowed-signers', f.allowedSigners, '--strict-files'],
        line,
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`the policy \`${f.policy}\` is refused under --strict-files`);
      expect(run.stdout).toBe('');
    },
  );

  test('without it, a reviewed policy still decides and each changeable file is named once', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const run = await runCli(['eval', '--policy', f.policy, '--allowed-signers', f.allowedSigners], line);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ effect: 'allow' });
    for (const kind of ['policy', 'signature file', 'allowed-signers file'])
      expect(run.stderr.split(`warning: the ${kind} `).length - 1).toBe(1);
  });

  test('no review check: nothing to warn about, but --strict-files still refuses the policy', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    const plain = await runCli(['eval', '--policy', f.policy], line);
    expect(plain.stderr).not.toContain('warning:');
    const strict = await runCli(['eval', '--policy', f.policy, '--strict-files'], line);
    expect(strict.code).toBe(2);
  });
});

describe('--strict-files in the printed hook', () => {
  test('--print-config names changeable files, and with --strict-files refuses to print', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const base = ['hook', 'claude-code', '--print-config', '--policy', f.policy, '--allowed-signers', f.allowedSigners];
    const printed = await runCli(base);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stderr).toContain(`warning: the allowed-signers file`);
    const strict = await runCli([...base, '--strict-files']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('is refused under --strict-files');
    expect(strict.stdout).toBe('');
  });
});
