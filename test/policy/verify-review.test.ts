// Review signatures against the real ssh-keygen: its signatures verify in linkgate, linkgate's verify in
// ssh-keygen, and each way a review can fail is refused with its own problem.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { reviewPolicyBytes, type ReviewCheck } from '../../src/policy/verify-review.ts';
import { parseOpenSshPrivateKey, signPolicyBytes } from '../../src/review/openssh-private-key.ts';
import {
  keyKinds,
  type KeyKind,
  makeKey,
  policyText,
  type ReviewFolder,
  reviewFolders,
  sshSign,
  sshVerify,
} from '../helpers/ssh-keygen.ts';

const folder = reviewFolders();

async function check(f: ReviewFolder, options: { minSigners?: number; nowMs?: number } = {}): Promise<ReviewCheck> {
  const policy = await loadPolicy(f.policy, { allowedSigners: f.allowedSigners, ...options });
  const result = policy.reviewCheck;
  if (result === undefined) throw new Error('no review check');
  return result;
}

describe('review signatures with ssh-keygen', () => {
  for (const kind of Object.keys(keyKinds) as KeyKind[]) {
    it(`a ${kind} signature by ssh-keygen -Y sign verifies; linkgate's signature verifies in ssh-keygen -Y verify`, async () => {
      const f = folder({ 'alice@example.com': kind });
      f.sign('alice@example.com');
      const result = await check(f);
      expect(result.message).toBe('');
      expect(result.verified).toBe(true);
      expect(result.signers.map((s) => s.identity)).toEqual(['alice@example.com']);

      const key = f.keys['alice@example.com'];
      if (key === undefined) throw new Error('no key');
      const ours = signPolicyBytes(
        parseOpenSshPrivateKey(readFileSync(key.file, 'utf8'), key.file),
        readFileSync(f.policy),
      );
      const oracle = sshVerify(
        f.dir,
        readFileSync(f.allowedSigners, 'utf8'),
        'alice@example.com',
        ours,
        readFileSync(f.policy),
      );
      expect(oracle.output).toMatch(/^Good "linkgate-policy" signature for alice@example.com/);
      expect(oracle.status).toBe(0);
      // and ssh-keygen refuses ours over other bytes, as linkgate does
      const tampered = sshVerify(
        f.dir,
        readFileSync(f.allowedSigners, 'utf8'),
        'alice@example.com',
        ours,
        'other bytes',
      );
      expect(tampered.status).not.toBe(0);
      writeFileSync(f.sig, ours);
      expect((await check(f)).verified).toBe(true);
    });
  }

  it('several reviewers: signatures concatenated in POLICY.sig; --min-signers counts distinct allowed signers', async () => {
    const f = folder({ 'alice@example.com': 'ed25519', 'bob@example.com': 'ecdsa-p256' });
    f.sign('alice@example.com');
    const one = await check(f, { minSigners: 2 });
    expect(one.verified).toBe(false);
    expect(one.problems).toEqual(['too-few-signers']);
    expect(one.message).toBe('1 valid signer (`alice@example.com`), 2 required');
    // the same reviewer twice is still one signer
    f.sign('alice@example.com');
    expect((await check(f, { minSigners: 2 })).problems).toEqual(['too-few-signers']);
    f.sign('bob@example.com');
    const two = await check(f, { minSigners: 2 });
    expect(two.verified).toBe(true);
    expect(two.signers.map((s) => s.identity)).toEqual(['alice@example.com', 'bob@example.com']);
  });

  it('tampered bytes: bytes-changed', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    f.loosen();
    const result = await check(f);
    expect(result.problems).toEqual(['bytes-changed']);
    expect(result.message).toMatch(
      /^signature 1: does not match these bytes: the policy changed since it was signed \(ED25519 key SHA256:/,
    );
  });

  it('a signature in another namespace: wrong-namespace', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com', 'git');
    const result = await check(f);
    expect(result.problems).toEqual(['wrong-namespace']);
    expect(result.message).toContain('made in namespace `git`, not `linkgate-policy`');
  });

  it('truncated armor: bad-armor', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const text = readFileSync(f.sig, 'utf8');
    writeFileSync(f.sig, text.slice(0, text.length - 40));
    const result = await check(f);
    expect(result.problems).toEqual(['bad-armor']);
    expect(result.message).toBe('signature 1: truncated armor: no `-----END SSH SIGNATURE-----` line');
    // base64 cut inside the armor
    const lines = text.split('\n');
    writeFileSync(f.sig, [lines[0], lines[1]?.slice(0, 30), lines.at(-2), ''].join('\n'));
    expect((await check(f)).problems).toEqual(['bad-armor']);
  });

  it('a key not in the allowed signers: unknown-key', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    const mallory = makeKey(f.dir, 'mallory', 'ed25519');
    writeFileSync(f.sig, sshSign(mallory, readFileSync(f.policy)));
    const result = await check(f);
    expect(result.problems).toEqual(['unknown-key']);
    expect(result.message).toMatch(/is not in the allowed signers `.*allowed_signers`$/);
  });

  it('an allowed signer who is not in review.reviewers: not-a-reviewer', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' }, { reviewers: ['carol@example.com'] });
    f.sign('alice@example.com');
    const result = await check(f);
    expect(result.problems).toEqual(['not-a-reviewer']);
    expect(result.message).toContain('belongs to `alice@example.com`, not one of review.reviewers');
  });

  it('an expired review: expired, even with good signatures', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' }, { expires: '2026-01-01' });
    f.sign('alice@example.com');
    const result = await check(f, { nowMs: Date.UTC(2026, 5, 1) });
    expect(result.problems).toEqual(['expired']);
    expect(result.message).toBe('the review expired on 2026-01-01 (review.expires)');
    expect((await check(f, { nowMs: Date.UTC(2025, 11, 31, 23) })).verified).toBe(true);
  });

  it('no signature file: no-signature', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    const result = await check(f);
    expect(result.problems).toEqual(['no-signature']);
    expect(result.message).toMatch(/^no signature: `.*policy\.yaml\.sig` not found$/);
  });

  it('allowed-signers options: a namespace restriction and a validity window are honoured', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const key = f.keys['alice@example.com']?.publicKey ?? '';
    writeFileSync(f.allowedSigners, `# team keys\n\nalice@example.com namespaces="git" ${key}\n`);
    expect((await check(f)).message).toMatch(
      /may not sign in `linkgate-policy` \(namespaces="git"\) at `.*allowed_signers:3`$/,
    );
    writeFileSync(f.allowedSigners, `*@example.com valid-after="20200101",valid-before="20260101Z" ${key} alice\n`);
    expect((await check(f, { nowMs: Date.UTC(2026, 5, 1) })).problems).toEqual(['unknown-key']);
    expect((await check(f, { nowMs: Date.UTC(2025, 5, 1) })).verified).toBe(true);
    // ssh-keygen agrees with the same file (no namespace restriction, wildcard principal)
    const oracle = sshVerify(
      f.dir,
      readFileSync(f.allowedSigners, 'utf8'),
      'alice@example.com',
      readFileSync(f.sig, 'utf8'),
      readFileSync(f.policy),
    );
    expect(oracle.status === 0).toBe(Date.now() < Date.UTC(2026, 0, 1));
  });

  it('cert-authority and unknown options are refused naming file:line; the policy is unreviewed', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const key = f.keys['alice@example.com']?.publicKey ?? '';
    writeFileSync(f.allowedSigners, `alice@example.com ${key}\n*@example.com cert-authority ${key}\n`);
    const ca = await check(f);
    expect(ca.problems).toEqual(['allowed-signers']);
    expect(ca.message).toMatch(/allowed_signers:2: `cert-authority` is not supported/);
    writeFileSync(f.allowedSigners, `alice@example.com frobnicate ${key}\n`);
    expect((await check(f)).message).toMatch(/allowed_signers:1: unknown option `frobnicate`/);
    expect((await check({ ...f, allowedSigners: join(f.dir, 'missing') })).problems).toEqual(['allowed-signers']);
  });

  it('an encrypted private key is refused, pointing at ssh-keygen -Y sign', () => {
    const f = folder({});
    const key = makeKey(f.dir, 'locked', 'ed25519', 'correct horse');
    expect(() => parseOpenSshPrivateKey(readFileSync(key.file, 'utf8'), 'locked')).toThrow(
      /locked: the key is encrypted with a passphrase; .*ssh-keygen -Y sign -n linkgate-policy/,
    );
  });

  it('reviewPolicyBytes judges the bytes it is given, not the file on disk', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const signed = readFileSync(f.policy);
    const other = Buffer.from(policyText(['alice@example.com']).replace('http]', 'http, file]'));
    const document = { review: { reviewers: ['alice@example.com'], expires: '2999-01-01' } };
    const options = { allowedSigners: f.allowedSigners };
    expect((await reviewPolicyBytes(f.policy, 'p', signed, document, options)).verified).toBe(true);
    expect((await reviewPolicyBytes(f.policy, 'p', other, document, options)).problems).toEqual(['bytes-changed']);
  });
});
