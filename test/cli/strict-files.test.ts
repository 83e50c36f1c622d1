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

// every other front end that takes a policy with the review options (issue 39 item 6): a hook event, the proxy and
// probe (refused before the server is started), and `review verify`; each names the file, exit 2 (the hook's pre-read
// event is refused: exit 2 blocks it)
const preRead = JSON.stringify({
  session_id: 'strict',
  transcript_path: '/tmp/strict.jsonl',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'ReadMcpResourceTool',
  tool_input: { server: 'docs', uri: 'guide://manuals/packing' },
  tool_use_id: 'toolu_strict',
});
const server = [process.execPath, '-e', 'process.exit(1)'];
describe('--strict-files in every front end', () => {
  test.each([
    [
      'hook event',
      (p: string, s: string, d: string) => [
        'hook',
        'claude-code',
        '--policy',
        p,
        '--allowed-signers',
        s,
        '--state',
        `${d}/state`,
      ],
      preRead,
    ],
    ['proxy', (p: string, s: string) => ['proxy', '--policy', p, '--allowed-signers', s, '--', ...server], ''],
    [
      'probe',
      (p: string, s: string) => ['probe', '--policy', p, '--allowed-signers', s, '--tool', 't', '--', ...server],
      '',
    ],
    ['review verify', (p: string, s: string) => ['review', 'verify', p, '--allowed-signers', s], ''],
  ])('%s refuses a policy this user could change, naming it; exit 2', async (_, args, input) => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    // before any `--` (what follows it is the server's command line)
    const argv = args(f.policy, f.allowedSigners, f.dir);
    const dashes = argv.indexOf('--');
    argv.splice(dashes === -1 ? argv.length : dashes, 0, '--strict-files');
    const strict = await runCli(argv, input);
    expect(strict.code).toBe(2);
    expect(strict.stderr + strict.stdout).toContain(`\`${f.policy}\` is refused under --strict-files`);
  });

  test('review verify without --strict-files names nothing and verifies (it gates nothing)', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const run = await runCli(['review', 'verify', f.policy, '--allowed-signers', f.allowedSigners]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('reviewed: 1 allowed signer');
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
