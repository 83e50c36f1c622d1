// A verified policy kept next to the bundle (issue 42 item 1, eval --allowed-signers): an entry is keyed by every input
// of the review check and used only while the time facts it depended on (review.expires, valid-after/valid-before)
// still hold, and only from a folder and a file no other user can write. Each case plants a marker in the entry (its
// document's version, with the digest made again, as someone who could write the folder would) and shows whether the
// load used it.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadPolicyOptions } from '../../src/policy/load-policy.ts';
import { loadPolicyWithNotes } from '../../src/policy/policy-cache.ts';
import { policyDigest } from '../../src/policy/policy-digest.ts';
import { parseSshPublicKey } from '../../src/policy/ssh-public-key.ts';
import { SshWriter } from '../../src/policy/ssh-wire.ts';
import { signPolicyBytes } from '../../src/review/openssh-private-key.ts';

interface Key {
  blob: Buffer;
  privateKey: KeyObject;
}
function newKey(): Key {
  const pair = generateKeyPairSync('ed25519');
  const x = Buffer.from(pair.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  return { blob: new SshWriter().string('ssh-ed25519').string(x).bytes(), privateKey: pair.privateKey };
}
const keyA = newKey();
const keyB = newKey();
const sign = (key: Key, text: string) =>
  signPolicyBytes({ publicKey: parseSshPublicKey(key.blob), key: key.privateKey, comment: '' }, Buffer.from(text));
const signerLine = (who: string, key: Key, options = 'namespaces="linkgate-policy"') =>
  `${who} ${options} ssh-ed25519 ${key.blob.toString('base64')}\n`;

// review.expires of the policy below: 2027-06-02 (policies/default.yaml)
const expiresMs = Date.UTC(2027, 5, 2);
const day = 24 * 3600 * 1000;
let dir: string;
let cacheDir: string;
let policyFile: string;
let signersFile: string;
let policyText: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-reviewed-cache-'));
  cacheDir = join(dir, 'cache');
  policyFile = join(dir, 'policy.yaml');
  signersFile = join(dir, 'allowed_signers');
  policyText = readFileSync('policies/default.yaml', 'utf8').replace(
    /reviewers: \[[^\]]*\]/,
    'reviewers: [alice@example.com, bob@example.com]',
  );
  expect(policyText).toContain('expires: 2027-06-02');
  writeFileSync(policyFile, policyText);
  writeFileSync(`${policyFile}.sig`, sign(keyA, policyText));
  writeFileSync(signersFile, signerLine('alice@example.com', keyA) + signerLine('bob@example.com', keyB));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const load = (review: Partial<LoadPolicyOptions> = {}, buildKey = 'v1 schema-a') =>
  loadPolicyWithNotes(policyFile, 'policy.yaml', {
    dir: cacheDir,
    buildKey,
    review: { env: {}, allowedSigners: signersFile, nowMs: expiresMs - 30 * day, ...review },
    cacheReviewed: true,
  });
const entries = () => readdirSync(cacheDir).filter((n) => /^reviewed-[0-9a-f]{64}\.json$/.test(n));

// every entry's document now says version 9.9.9 (its digest made again, so the entry is well formed)
function plant(): void {
  for (const name of entries()) {
    const file = join(cacheDir, name);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { document: { version: string }; digest: string };
    entry.document.version = '9.9.9';
    entry.digest = policyDigest(entry.document);
    writeFileSync(file, JSON.stringify(entry));
  }
}
const version = async (review: Partial<LoadPolicyOptions> = {}, buildKey?: string) =>
  (await load(review, buildKey)).policy.document.version;

describe('the verified-policy cache', () => {
  it('stores a verified outcome and uses it while nothing changed', async () => {
    const first = (await load()).policy;
    expect(first.reviewCheck?.verified).toBe(true);
    expect(entries()).toHaveLength(1);
    plant();
    const again = (await load()).policy;
    expect(again.document.version).toBe('9.9.9');
    expect(again.reviewCheck).toMatchObject({ verified: true, signers: [{ identity: 'alice@example.com' }] });
  });

  it('is not used when any input of the check changes', async () => {
    const cases: [string, () => void | Partial<LoadPolicyOptions>, boolean][] = [
      ['policy bytes', () => writeFileSync(policyFile, `${policyText}# edited\n`), false],
      ['signature file bytes', () => writeFileSync(`${policyFile}.sig`, sign(keyB, policyText)), true],
      [
        'allowed-signers bytes',
        () => writeFileSync(signersFile, `# the reviewers\n${readFileSync(signersFile, 'utf8')}`),
        true,
      ],
      ['--min-signers', () => ({ minSigners: 2 }), false],
      ['--policy-id', () => ({ policyId: 'default' }), true],
      ['--min-version', () => ({ minVersion: '0.1.0' }), true],
      ['the allowed-signers name', () => ({ allowedSignersShownAs: 'trust/allowed_signers' }), true],
    ];
    for (const [what, change, verifies] of cases) {
      rmSync(cacheDir, { recursive: true, force: true });
      writeFileSync(policyFile, policyText);
      writeFileSync(`${policyFile}.sig`, sign(keyA, policyText));
      writeFileSync(signersFile, signerLine('alice@example.com', keyA) + signerLine('bob@example.com', keyB));
      expect((await load()).policy.reviewCheck?.verified, what).toBe(true);
      plant();
      expect(await version(), what).toBe('9.9.9');
      const review = change() ?? {};
      const policy = (await load(review)).policy;
      expect(policy.document.version, what).not.toBe('9.9.9');
      expect(policy.reviewCheck?.verified ?? true, what).toBe(verifies);
    }
  });

  it('is not used for another build', async () => {
    await load();
    plant();
    expect(await version({}, 'v2 schema-b')).toBe('1.0.0');
  });

  it('is not used once the review has expired since', async () => {
    await load();
    plant();
    expect(await version({ nowMs: expiresMs - day })).toBe('9.9.9');
    const later = (await load({ nowMs: expiresMs + 3600_000 })).policy;
    expect(later.document.version).toBe('1.0.0');
    expect(later.reviewCheck).toMatchObject({ verified: false, problems: ['expired'] });
  });

  it('is not used outside the signer’s valid-after/valid-before window', async () => {
    const window = 'namespaces="linkgate-policy",valid-after="20270101Z",valid-before="20270301Z"';
    writeFileSync(signersFile, signerLine('alice@example.com', keyA, window));
    const inside = Date.UTC(2027, 1, 1);
    expect((await load({ nowMs: inside })).policy.reviewCheck?.verified).toBe(true);
    plant();
    expect(await version({ nowMs: inside + day })).toBe('9.9.9');
    for (const nowMs of [Date.UTC(2027, 2, 1), Date.UTC(2026, 11, 31)]) {
      const policy = (await load({ nowMs })).policy;
      expect(policy.document.version).toBe('1.0.0');
      expect(policy.reviewCheck).toMatchObject({ verified: false, problems: ['unknown-key'] });
    }
  });

  it('keeps nothing when a signer’s time is local time (it moves with the time zone)', async () => {
    writeFileSync(signersFile, signerLine('alice@example.com', keyA, 'valid-before="20300101"'));
    expect((await load()).policy.reviewCheck?.verified).toBe(true);
    expect(readdirSync(dir)).not.toContain('cache');
  });

  it('keeps nothing for a review that did not verify', async () => {
    writeFileSync(`${policyFile}.sig`, sign(keyA, `${policyText}# other bytes\n`));
    expect((await load()).policy.reviewCheck?.verified).toBe(false);
    expect(readdirSync(dir)).not.toContain('cache');
  });

  it('is not used when the folder or the entry is writable by other users', async () => {
    await load();
    plant();
    chmodSync(cacheDir, 0o777);
    expect(await version()).toBe('1.0.0');
    chmodSync(cacheDir, 0o700);
    expect(await version()).toBe('9.9.9');
    for (const name of entries()) chmodSync(join(cacheDir, name), 0o666);
    expect(await version()).toBe('1.0.0');
  });

  it('is never used under strictFiles', async () => {
    await load();
    plant();
    // strictFiles refuses these files (this user can change them) before any entry could be read
    await expect(load({ strictFiles: true })).rejects.toThrow(/--strict-files/);
  });

  // the cases the review of 00d24c2 checked by hand
  it('is not used from an entry that is a symlink to a planted file', async () => {
    await load();
    plant();
    for (const name of entries()) {
      renameSync(join(cacheDir, name), join(dir, 'planted.json'));
      symlinkSync(join(dir, 'planted.json'), join(cacheDir, name));
    }
    expect(await version()).toBe('1.0.0');
  });

  it('is not used, and does not wait, when the entry is a fifo', async () => {
    await load();
    for (const name of entries()) {
      rmSync(join(cacheDir, name));
      execFileSync('mkfifo', ['-m', '600', join(cacheDir, name)]);
    }
    const policy = (await load()).policy;
    expect(policy.document.version).toBe('1.0.0');
    expect(policy.reviewCheck?.verified).toBe(true);
  });

  it('is not used once the signature file is gone', async () => {
    await load();
    plant();
    rmSync(`${policyFile}.sig`);
    const policy = (await load()).policy;
    expect(policy.document.version).toBe('1.0.0');
    expect(policy.reviewCheck?.verified).toBe(false);
  });
});
