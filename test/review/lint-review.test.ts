// `linkgate lint` reports each policy's review signature state (docs/reviews.md).
import { rmSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { type ReviewFolder, reviewFolders } from '../helpers/ssh-keygen.ts';

const reviewFolder = reviewFolders();
const lint = (folder: ReviewFolder, reviewed: boolean) =>
  runCli([
    'lint',
    '--today',
    '2026-12-01',
    ...(reviewed ? ['--allowed-signers', folder.allowedSigners] : []),
    folder.policy,
  ]);

describe('lint: review signatures', () => {
  it('unsigned: an error with --allowed-signers (issue 35: a missing signature fails like a stale one), nothing without', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    const checked = await lint(f, true);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(
      /policy\.yaml:8:1: error lint\.review-unsigned: no review signature in `.*policy\.yaml\.sig`/,
    );
    expect((await lint(f, false)).stdout).not.toContain('lint.review');
  });

  it('signed and verified: no finding; changed after signing: an error, with or without a trust list', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    expect((await lint(f, true)).stdout).not.toContain('lint.review');
    expect((await lint(f, false)).stdout).not.toContain('lint.review');
    f.loosen();
    const bare = await lint(f, false);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toMatch(
      /error lint\.review-signature-invalid: a review signature does not hold: signature 1: does not match these bytes/,
    );
    const checked = await lint(f, true);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(
      /error lint\.review-signature-invalid: the review does not hold: signature 1: does not match these bytes/,
    );
  });

  it('a signer not allowed, with --allowed-signers: an error naming why', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    writeFileSync(f.allowedSigners, '');
    const run = await lint(f, true);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('is not in the allowed signers');
    rmSync(f.sig);
    expect((await lint(f, true)).code).toBe(1); // issue 35: a missing signature is an error too
  });
});
