// A policy folder for review tests: the shipped default policy with its review block naming the test's reviewers,
// keys made by ssh-keygen, an allowed-signers file and signatures made by ssh-keygen.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KeyKind, makeKey, sshSign, type TestKey } from './ssh-keygen.ts';

const defaultPolicy = readFileSync(new URL('../../policies/default.yaml', import.meta.url), 'utf8');

/** The default policy's text with a review naming `reviewers` and expiring on `expires` (YYYY-MM-DD). */
export function policyText(reviewers: readonly string[], expires = '2999-01-01'): string {
  return defaultPolicy.replace(
    /^review:\n(?: {2}.*\n)+/m,
    `review:\n  reviewers: [${reviewers.join(', ')}]\n  date: 2025-06-01\n  ticket: LG-TEST-1\n  expires: ${expires}\n`,
  );
}

/** A scratch folder with a policy, keys and an allowed-signers file. */
export interface ReviewFolder {
  readonly dir: string;
  readonly policy: string;
  readonly sig: string;
  readonly allowedSigners: string;
  readonly keys: Readonly<Record<string, TestKey>>;
  /** signs the policy file's current bytes with ssh-keygen as `name` and appends to `POLICY.sig` */
  sign(name: string, namespace?: string): void;
  cleanup(): void;
}

/** Makes a review folder: one key per entry of `signers` (identity → kind), all in the allowed-signers file. */
export function reviewFolder(
  signers: Readonly<Record<string, KeyKind>>,
  options: { reviewers?: readonly string[]; expires?: string; text?: string } = {},
): ReviewFolder {
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-review-'));
  const keys: Record<string, TestKey> = {};
  for (const [identity, kind] of Object.entries(signers))
    keys[identity] = makeKey(dir, `key-${identity.replace(/\W/g, '-')}`, kind);
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, options.text ?? policyText(options.reviewers ?? Object.keys(signers), options.expires));
  const allowedSigners = join(dir, 'allowed_signers');
  writeFileSync(
    allowedSigners,
    `${Object.entries(keys)
      .map(([identity, key]) => `${identity} namespaces="linkgate-policy" ${key.publicKey}`)
      .join('\n')}\n`,
  );
  const sig = `${policy}.sig`;
  return {
    dir,
    policy,
    sig,
    allowedSigners,
    keys,
    sign(name, namespace) {
      const key = keys[name];
      if (key === undefined) throw new Error(`no key ${name}`);
      const signature = sshSign(key, readFileSync(policy), namespace);
      writeFileSync(sig, signature, { flag: 'a' });
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
