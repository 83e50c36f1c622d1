// `linkgate review sign|verify` against the real ssh-keygen, and `--allowed-signers` on eval, explain and the
// library's holdPolicy: a policy that does not verify answers every line with a deny naming what failed.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { holdPolicy } from '../../src/gate/reload-policy.ts';
import { jsonLines, runCli } from '../helpers/run-cli.ts';
import { makeKey, type ReviewFolder, reviewFolders, sshSign, sshVerify } from '../helpers/ssh-keygen.ts';

const folder = reviewFolders();
const verify = (f: ReviewFolder, ...more: string[]) =>
  runCli(['review', 'verify', '--allowed-signers', f.allowedSigners, ...more, f.policy]);

describe('linkgate review', () => {
  it('sign appends a signature ssh-keygen -Y verify accepts; verify prints each signer and exits 0', async () => {
    const f = folder({ 'alice@example.com': 'ed25519', 'bob@example.com': 'rsa' });
    const signed = await runCli(['review', 'sign', '--key', f.keys['alice@example.com']?.file ?? '', f.policy]);
    expect(signed.code).toBe(0);
    expect(signed.stdout).toMatch(
      /^signed .*policy\.yaml with ED25519 key SHA256:\S+; .*policy\.yaml\.sig now holds 1 signature\n$/,
    );
    const oracle = sshVerify(
      f.dir,
      readFileSync(f.allowedSigners, 'utf8'),
      'alice@example.com',
      readFileSync(f.sig, 'utf8'),
      readFileSync(f.policy),
    );
    expect(oracle.status).toBe(0);
    f.sign('bob@example.com');
    const run = await verify(f, '--min-signers', '2');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /policy\.yaml: signature 1: good signature for `alice@example.com` with ED25519 key SHA256:/,
    );
    expect(lines[1]).toMatch(/policy\.yaml: signature 2: good signature for `bob@example.com` with RSA key SHA256:/);
    expect(lines[2]).toMatch(
      /policy\.yaml: reviewed: 2 allowed signers \(alice@example.com, bob@example.com\), 2 required$/,
    );
  });

  it.each([
    ['tampered bytes', (f: ReviewFolder) => f.loosen(), [], /does not match these bytes/],
    [
      'wrong namespace',
      (f: ReviewFolder) =>
        writeFileSync(
          f.sig,
          sshSign(f.keys['alice@example.com'] ?? { file: '', publicKey: '' }, readFileSync(f.policy), 'file'),
        ),
      [],
      /made in namespace `file`, not `linkgate-policy`/,
    ],
    [
      'truncated armor',
      (f: ReviewFolder) => writeFileSync(f.sig, readFileSync(f.sig, 'utf8').slice(0, 200)),
      [],
      /truncated armor/,
    ],
    [
      'a key not in the file',
      (f: ReviewFolder) => writeFileSync(f.sig, sshSign(makeKey(f.dir, 'eve', 'ecdsa-p256'), readFileSync(f.policy))),
      [],
      /ECDSA key SHA256:\S+ is not in the allowed signers/,
    ],
    [
      '--min-signers 2 with one signer',
      () => undefined,
      ['--min-signers', '2'],
      /1 valid signer \(`alice@example.com`\), 2 required/,
    ],
  ])('%s: exit 1 with its own reason', async (_name, damage, more, reason) => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    damage(f);
    const run = await verify(f, ...more);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^linkgate: .*policy\.yaml is not reviewed \(policy\.unreviewed\): /);
    expect(run.stderr).toMatch(reason);
  });

  it('an expired review: exit 1 naming review.expires', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' }, { expires: '2025-12-01' });
    f.sign('alice@example.com');
    const run = await verify(f);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the review expired on 2025-12-01 (review.expires)');
  });

  it('usage errors exit 2: no action, no allowed signers, a bad --min-signers, an encrypted key', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    expect((await runCli(['review', f.policy])).code).toBe(2);
    expect((await runCli(['review', 'verify', f.policy])).stderr).toContain(
      '`review verify` needs `--allowed-signers FILE`',
    );
    expect((await verify(f, '--min-signers', '0')).code).toBe(2);
    expect((await runCli(['review', 'sign', f.policy])).stderr).toContain('needs `--key KEY`');
    const locked = makeKey(f.dir, 'locked', 'ed25519', 'a passphrase');
    const run = await runCli(['review', 'sign', '--key', locked.file, f.policy]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /the key is encrypted with a passphrase; .*`ssh-keygen -Y sign -n linkgate-policy -f KEY/,
    );
  });
});

const linkLine = (uri: string) =>
  JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri, name: 'x' } });

// stderr without the lines naming files this user could change (`warnReplaceable`)
const withoutFileWarnings = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => !l.includes('can be changed by this user'))
    .join('\n');

describe('--allowed-signers on eval and explain', () => {
  it('eval: a verified policy answers as without the check; a loosened one denies every line with policy.unreviewed', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const lines = [
      linkLine('guide://manuals/a'),
      linkLine('file:///etc/passwd'),
      '{"stage":"credential","kind":"cookie","from":"https://a.example/","to":"https://a.example/x"}',
    ].join('\n');
    const plain = await runCli(['eval', '--policy', f.policy], lines);
    const checked = await runCli(['eval', '--policy', f.policy, '--allowed-signers', f.allowedSigners], lines);
    expect(checked.code).toBe(0);
    // the test's files are its own user's to change: that is named (test/cli/strict-files.test.ts), nothing else
    expect(withoutFileWarnings(checked.stderr)).toBe('');
    expect(checked.stdout).toBe(plain.stdout);

    f.loosen();
    const loose = jsonLines((await runCli(['eval', '--policy', f.policy], lines)).stdout) as { effect: string }[];
    expect(loose[1]?.effect).toBe('allow');
    const run = await runCli(['eval', '--policy', f.policy, '--allowed-signers', f.allowedSigners], lines);
    expect(run.code).toBe(0);
    expect(withoutFileWarnings(run.stderr)).toMatch(
      /^linkgate: policy\.unreviewed: signature 1: does not match these bytes.*; every decision is deny\n$/,
    );
    const decisions = jsonLines(run.stdout) as {
      effect: string;
      reasons: { code: string; stage: string; message: string }[];
    }[];
    expect(decisions.map((d) => d.effect)).toEqual(['deny', 'deny', 'deny']);
    expect(decisions.map((d) => d.reasons.map((r) => `${r.code} ${r.stage}`))).toEqual([
      ['policy.unreviewed link'],
      ['policy.unreviewed link'],
      ['policy.unreviewed credential'],
    ]);
    expect(decisions[0]?.reasons[0]?.message).toMatch(
      /^the policy is not used: signature 1: does not match these bytes/,
    );
    // the environment variable, resolved against the working directory
    const byEnv = await runCli(['eval', '--policy', f.policy], lines, { LINKGATE_ALLOWED_SIGNERS: f.allowedSigners });
    expect(byEnv.stdout).toBe(run.stdout);
  });

  it('explain: an unreviewed policy explains only why it is not used', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    const run = await runCli([
      'explain',
      '--policy',
      f.policy,
      '--allowed-signers',
      f.allowedSigners,
      '--json',
      '--line',
      linkLine('guide://a'),
    ]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { decision: { effect: string }; steps: { rule: string; status: string }[] };
    expect(out.decision.effect).toBe('deny');
    expect(out.steps).toMatchObject([{ rule: 'review', status: 'fail' }]);
  });

  it('holdPolicy checks the review at load and at every reload', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const holder = await holdPolicy(f.policy, { allowedSigners: f.allowedSigners, env: {} });
    const effect = () => holder.gate().decideLink(JSON.parse(linkLine('guide://manuals/a'))).effect;
    expect(effect()).toBe('allow');
    const signed = readFileSync(f.policy);
    f.loosen();
    const outcome = await holder.reload();
    expect(outcome).toMatchObject({ ok: true, unreviewed: expect.stringMatching(/does not match these bytes/) });
    expect(effect()).toBe('deny');
    writeFileSync(f.policy, signed);
    expect(await holder.reload()).not.toHaveProperty('unreviewed');
    expect(effect()).toBe('allow');
  });

  it('the review expires while a policy is held: decisions turn to deny without a reload', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' }, { expires: '2999-01-01' });
    f.sign('alice@example.com');
    const { loadPolicy } = await import('../../src/policy/load-policy.ts');
    const { unreviewedDecision } = await import('../../src/gate/unreviewed-decision.ts');
    const policy = await loadPolicy(f.policy, { allowedSigners: f.allowedSigners, env: {} });
    expect(unreviewedDecision(policy, 'link', Date.UTC(2998, 11, 31))).toBeUndefined();
    expect(unreviewedDecision(policy, 'link', Date.UTC(2999, 0, 1))?.reasons[0]?.message).toBe(
      'the policy is not used: the review expired on 2999-01-01 (review.expires)',
    );
  });
});
