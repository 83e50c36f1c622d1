// A review that expires while a proxy, eval or hook runs (issue 39 item 6): besides `review.expires`, a signer counted
// toward the quorum is trusted only until its allowed-signers `valid-before`. The check made at load carries the
// moment the quorum breaks (`expiresAtMs`) and what runs out there (`expiresBecause`), so every later decision over
// the same loaded policy is `policy.unreviewed` from then on; a verified-policy cache entry keeps that bound. A signer
// whose `valid-after` is still ahead never counts at load. Signatures are made by the real ssh-keygen.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unreviewedDecision } from '../../src/gate/unreviewed-decision.ts';
import { type LoadPolicyOptions, loadPolicy } from '../../src/policy/load-policy.ts';
import { loadPolicyWithNotes } from '../../src/policy/policy-cache.ts';
import { policyDigest } from '../../src/policy/policy-digest.ts';
import { type ReviewFolder, reviewFolders } from '../helpers/ssh-keygen.ts';

const folder = reviewFolders();
const cacheDirs: string[] = [];
afterEach(() => {
  for (const d of cacheDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// review.expires far ahead (2999-01-01): only the signers' windows can end the review here
const loadedAt = Date.UTC(2031, 2, 9, 12);
const aliceEnds = Date.UTC(2031, 2, 10);
const bobEnds = Date.UTC(2031, 2, 20);

// the allowed-signers file with `options` per identity (each line also restricted to the policy namespace)
function trust(f: ReviewFolder, options: Record<string, string>): void {
  const lines = Object.entries(options).map(([who, extra]) => {
    const key = f.keys[who]?.publicKey ?? '';
    return `${who} namespaces="linkgate-policy"${extra === '' ? '' : `,${extra}`} ${key}\n`;
  });
  writeFileSync(f.allowedSigners, lines.join(''));
}

const load = (f: ReviewFolder, options: Partial<LoadPolicyOptions> = {}) =>
  loadPolicy(f.policy, { env: {}, allowedSigners: f.allowedSigners, nowMs: loadedAt, ...options });

const reasonOf = (d: ReturnType<typeof unreviewedDecision>) => d?.reasons[0];

describe('a signer’s valid-before bounds the review it signed', () => {
  it('a review verified at load denies from the earlier of the signer’s valid-before and review.expires, naming it', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    trust(f, { 'alice@example.com': 'valid-before="20310310Z"' });
    const policy = await load(f);
    expect(policy.reviewCheck).toMatchObject({ verified: true, expiresAtMs: aliceEnds });
    // decisions before the signer's window closes are the policy's own; from that moment on, every one is unreviewed
    expect(unreviewedDecision(policy, 'link', aliceEnds - 1)).toBeUndefined();
    const after = reasonOf(unreviewedDecision(policy, 'link', aliceEnds));
    expect(after?.code).toBe('policy.unreviewed');
    expect(after?.message).toMatch(
      /^the policy is not used: the signer `alice@example\.com` \(ED25519 key SHA256:\S+\) is past its valid-before 2031-03-10T00:00:00Z at `.*allowed_signers:1`$/,
    );
    expect(after?.message).not.toContain('review.expires');

    // the earlier of the two ends it: review.expires before the signer's valid-before is named as before
    const g = folder({ 'alice@example.com': 'ed25519' }, { expires: '2031-03-10' });
    g.sign('alice@example.com');
    trust(g, { 'alice@example.com': 'valid-before="20310320Z"' });
    const first = await load(g);
    expect(first.reviewCheck).toMatchObject({ verified: true, expiresAtMs: aliceEnds });
    expect(first.reviewCheck?.expiresBecause).toBeUndefined();
    expect(reasonOf(unreviewedDecision(first, 'read', aliceEnds))?.message).toBe(
      'the policy is not used: the review expired on 2031-03-10 (review.expires)',
    );
  });

  it('the review holds while the quorum does: the valid-before that leaves too few signers ends it', async () => {
    const f = folder({ 'alice@example.com': 'ed25519', 'bob@example.com': 'ecdsa-p256' });
    f.sign('alice@example.com');
    f.sign('bob@example.com');
    trust(f, { 'alice@example.com': 'valid-before="20310310Z"', 'bob@example.com': 'valid-before="20310320Z"' });
    // one signer required: bob still counts after alice's window closed
    const one = await load(f);
    expect(one.reviewCheck).toMatchObject({ verified: true, expiresAtMs: bobEnds });
    expect(unreviewedDecision(one, 'link', aliceEnds)).toBeUndefined();
    expect(reasonOf(unreviewedDecision(one, 'link', bobEnds))?.message).toContain('`bob@example.com`');
    // two required: alice's valid-before ends it
    const two = await load(f, { minSigners: 2 });
    expect(two.reviewCheck).toMatchObject({ verified: true, expiresAtMs: aliceEnds });
    expect(reasonOf(unreviewedDecision(two, 'link', aliceEnds))?.message).toMatch(
      /the signer `alice@example\.com` .* is past its valid-before 2031-03-10T00:00:00Z .*, 2 valid signers required$/,
    );
    // a signer without valid-before keeps a one-signer review to review.expires
    trust(f, { 'alice@example.com': 'valid-before="20310310Z"', 'bob@example.com': '' });
    const open = await load(f);
    expect(open.reviewCheck).toMatchObject({ verified: true, expiresAtMs: Date.UTC(2999, 0, 1) });
    expect(unreviewedDecision(open, 'link', bobEnds)).toBeUndefined();
  });

  it('a key renewed on a second line whose window opens by the first’s valid-before stays trusted across it', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const key = f.keys['alice@example.com']?.publicKey ?? '';
    writeFileSync(
      f.allowedSigners,
      `alice@example.com namespaces="linkgate-policy",valid-before="20310310Z" ${key}\n` +
        `alice@example.com namespaces="linkgate-policy",valid-after="20310310Z",valid-before="20310320Z" ${key}\n` +
        // a window that opens after a gap carries nothing on, and another namespace's line counts for nothing
        `alice@example.com namespaces="linkgate-policy",valid-after="20310401Z" ${key}\n` +
        `alice@example.com namespaces="git" ${key}\n`,
    );
    const policy = await load(f);
    expect(policy.reviewCheck).toMatchObject({ verified: true, expiresAtMs: bobEnds });
    expect(unreviewedDecision(policy, 'link', aliceEnds)).toBeUndefined();
    expect(reasonOf(unreviewedDecision(policy, 'link', bobEnds))?.message).toMatch(
      /is past its valid-before 2031-03-20T00:00:00Z at `.*allowed_signers:2`$/,
    );
  });

  it('a signer whose valid-after is still ahead does not count at load', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    trust(f, { 'alice@example.com': 'valid-after="20310310Z"' });
    const policy = await load(f);
    expect(policy.reviewCheck).toMatchObject({ verified: false, problems: ['unknown-key'] });
    expect(reasonOf(unreviewedDecision(policy, 'link', aliceEnds + 1))?.message).toContain(
      'outside its valid-after/valid-before window',
    );
  });
});

describe('the verified-policy cache keeps the signer’s bound', () => {
  it('an entry read back carries the valid-before and its line, and the decision after it is unreviewed', async () => {
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    trust(f, { 'alice@example.com': 'valid-before="20310310Z"' });
    const cacheDir = join(mkdtempSync(join(tmpdir(), 'linkgate-signer-cache-')), 'cache');
    cacheDirs.push(join(cacheDir, '..'));
    const cached = async () =>
      (
        await loadPolicyWithNotes(f.policy, 'policy.yaml', {
          dir: cacheDir,
          buildKey: 'v1 schema-a',
          review: { env: {}, allowedSigners: f.allowedSigners, nowMs: loadedAt },
          cacheReviewed: true,
        })
      ).policy;
    const made = await cached();
    expect(made.reviewCheck).toMatchObject({ verified: true, expiresAtMs: aliceEnds });
    // a marker in the stored document shows the second load is the entry's (its digest made again to match)
    const entries = readdirSync(cacheDir).filter((n) => n.startsWith('reviewed-'));
    expect(entries).toHaveLength(1);
    const file = join(cacheDir, entries[0] ?? '');
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { document: { version: string }; digest: string };
    entry.document.version = '9.9.9';
    entry.digest = policyDigest(entry.document);
    writeFileSync(file, JSON.stringify(entry));
    const hit = await cached();
    expect(hit.document.version).toBe('9.9.9');
    expect(hit.reviewCheck).toEqual(made.reviewCheck);
    expect(unreviewedDecision(hit, 'link', aliceEnds - 1)).toBeUndefined();
    expect(reasonOf(unreviewedDecision(hit, 'link', aliceEnds))?.message).toMatch(
      /the signer `alice@example\.com` .* is past its valid-before 2031-03-10T00:00:00Z at `.*allowed_signers:1`$/,
    );
  });
});
