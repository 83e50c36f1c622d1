// `linkgate hook --allowed-signers` through the verified-policy cache (issue 39 item 6): one event is one process
// start, and an event whose policy, `.sig` and allowed-signers file did not change reads the verified outcome kept
// next to the installed bundle instead of parsing and verifying again; whatever changed among those bytes is checked
// in full at the next event. The guard runs the CLI bundle as shipped (the same esbuild options) in a scratch folder
// inside the package, as `test/speed/pre-read-loads.test.ts` does; signatures are made by the real ssh-keygen.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuildOptions, repoRoot } from '../../scripts/cli-build-options.ts';
import { policyDigest } from '../../src/policy/policy-digest.ts';
import { readRequested } from '../hook/hook-events.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';

const folder = reviewFolders();
let scratch: string;
let bin: string;

beforeAll(async () => {
  // inside the package, as an installed bundle is: `require('zod/mini')` resolves from the bundle's folder
  const cacheRoot = path.join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  scratch = mkdtempSync(path.join(cacheRoot, 'linkgate-hook-reviewed-cache-'));
  bin = path.join(scratch, 'bin');
  await build({ ...cliBuildOptions(bin), sourcemap: false, logLevel: 'error' });
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const reviewedEntries = () => {
  try {
    return readdirSync(path.join(bin, 'policy-cache')).filter((n) => n.startsWith('reviewed-'));
  } catch {
    return [];
  }
};

describe('linkgate hook --allowed-signers', () => {
  it('keeps a verified outcome keyed by the policy, .sig and allowed-signers bytes; a change is checked in full', () => {
    const f = folder({ 'alice@example.com': 'ed25519', 'bob@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const key = (who: string) => f.keys[who]?.publicKey ?? '';
    const trust = (who: string) =>
      writeFileSync(f.allowedSigners, `${who} namespaces="linkgate-policy",valid-before="29980101Z" ${key(who)}\n`);
    trust('alice@example.com');
    const event = (uri: string) => {
      const r = spawnSync(
        process.execPath,
        [
          path.join(bin, 'linkgate.js'),
          'hook',
          'claude-code',
          '--policy',
          f.policy,
          '--allowed-signers',
          f.allowedSigners,
          '--state',
          path.join(f.dir, 'state'),
        ],
        { input: JSON.stringify(readRequested('docs', uri)), encoding: 'utf8', cwd: f.dir, env: process.env },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    const loopback = 'http://127.0.0.1/admin';

    // the first event checks the review in full and keeps the verified outcome next to the bundle
    expect(event('guide://manuals/packing')).toBe('');
    expect(event(loopback)).toContain('uri.non-public-address');
    expect(reviewedEntries()).toHaveLength(1);
    const entryFile = path.join(bin, 'policy-cache', reviewedEntries()[0] ?? '');
    const entry = JSON.parse(readFileSync(entryFile, 'utf8')) as {
      document: { links: { denyNonPublicAddresses: boolean } };
      digest: string;
      check: { expiresAtMs: number; expiresBecause?: string };
    };
    // the signer's valid-before is kept with the outcome: it ends the review before review.expires (2999-01-01)
    expect(entry.check.expiresAtMs).toBe(Date.UTC(2998, 0, 1));
    expect(entry.check.expiresBecause).toMatch(/the signer `alice@example\.com` .* is past its valid-before/);

    // a marker in the kept document (its digest made again) shows the next event reads the entry, not the file
    entry.document.links.denyNonPublicAddresses = false;
    entry.digest = policyDigest(entry.document);
    writeFileSync(entryFile, JSON.stringify(entry), { mode: 0o600 });
    expect(event(loopback)).toBe('');

    // the .sig removed: no entry stands for it, the full check says why
    const sig = readFileSync(f.sig);
    unlinkSync(f.sig);
    expect(event(loopback)).toContain('policy.unreviewed');
    writeFileSync(f.sig, sig);
    expect(event(loopback)).toBe('');

    // the allowed-signers file changed (alice no longer trusted): another key, checked in full
    trust('bob@example.com');
    expect(event('guide://manuals/packing')).toContain('policy.unreviewed');
    // nothing kept for a review that did not verify
    expect(reviewedEntries()).toHaveLength(1);
  });
});
