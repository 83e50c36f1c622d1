import { appendFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GateError } from '../errors.ts';
import { parsePolicy } from '../policy/load-policy.ts';
import { readNamedFile } from '../policy/read-named-file.ts';
import { maxPolicyFileBytes } from '../policy/read-regular-file.ts';
import { maxSignatureFileBytes } from '../policy/verify-review.ts';
import type { SshPrivateKey } from '../review/openssh-private-key.ts';
import { signPolicyBytes } from '../review/openssh-private-key.ts';
import {
  type BundleManifest,
  bundleFormat,
  bundlePolicyName,
  bundleSignatureNamespace,
  manifestBytes,
  manifestName,
  manifestSignatureName,
  maxManifestBytes,
  sha256Digest,
} from './bundle-manifest.ts';

/** Default lifetime of a bundle built without `--expires`, days: a fleet cut off longer than this denies everything. */
export const defaultBundleDays = 30;

/** What `buildBundle` needs besides the policy. */
export interface BuildBundleOptions {
  /** a whole number ≥ 1, higher than every revision published before */
  readonly revision: number;
  /** the folder written: it must not exist or be empty */
  readonly outDir: string;
  /** ISO 8601 expiry (default: `defaultBundleDays` after `nowMs`) */
  readonly expiresAt?: string;
  /** linkgate's version: the lowest version that may activate the bundle */
  readonly linkgateVersion: string;
  /** the policy file's name in messages */
  readonly shownAs?: string;
  readonly nowMs?: number;
}

/**
 * Writes a bundle folder: the policy (as `policy.yaml`) and its review signatures (`policy.yaml.sig`), and
 * `manifest.json` naming the revision, publish time, expiry, minimum linkgate version and every file's sha256. The
 * policy must load and have a `.sig` beside it. The manifest is then signed with `signBundle` or `ssh-keygen -Y sign
 * -n linkgate-bundle`. Throws GateError USAGE (bad options, a folder in the way) or POLICY_* (the policy).
 */
export async function buildBundle(policyFile: string, options: BuildBundleOptions): Promise<BundleManifest> {
  const shownAs = options.shownAs ?? policyFile;
  if (!Number.isSafeInteger(options.revision) || options.revision < 1)
    throw new GateError('USAGE', 'the revision must be a whole number ≥ 1');
  const nowMs = options.nowMs ?? Date.now();
  const publishedAt = new Date(nowMs).toISOString();
  const expiresMs =
    options.expiresAt === undefined ? nowMs + defaultBundleDays * 86_400_000 : Date.parse(options.expiresAt);
  if (!Number.isFinite(expiresMs))
    throw new GateError('USAGE', `the expiry \`${options.expiresAt ?? ''}\` is not an iso 8601 time`);
  if (expiresMs <= nowMs) throw new GateError('USAGE', `the expiry \`${options.expiresAt ?? ''}\` is in the past`);
  const policy = await readNamedFile('POLICY_UNREADABLE', 'policy', policyFile, shownAs, maxPolicyFileBytes);
  // a bundle of a policy that does not load would be refused on every machine: refuse it here
  parsePolicy(policy.toString('utf8'), shownAs);
  const signature = await readNamedFile(
    'POLICY_UNREADABLE',
    'review signature',
    `${policyFile}.sig`,
    `${shownAs}.sig`,
    maxSignatureFileBytes,
  );
  await mkdir(options.outDir, { recursive: true });
  const present = await readdir(options.outDir);
  if (present.length > 0) throw new GateError('USAGE', `the output folder \`${options.outDir}\` is not empty`);
  const manifest: BundleManifest = {
    format: bundleFormat,
    revision: options.revision,
    publishedAt,
    expiresAt: new Date(expiresMs).toISOString(),
    minLinkgateVersion: options.linkgateVersion.replace(/[-+].*$/, ''),
    policy: bundlePolicyName,
    files: { [bundlePolicyName]: sha256Digest(policy), [`${bundlePolicyName}.sig`]: sha256Digest(signature) },
  };
  await writeFile(join(options.outDir, bundlePolicyName), policy, { mode: 0o644 });
  await writeFile(join(options.outDir, `${bundlePolicyName}.sig`), signature, { mode: 0o644 });
  await writeFile(join(options.outDir, manifestName), manifestBytes(manifest), { mode: 0o644 });
  return manifest;
}

/**
 * Signs `DIR/manifest.json` in the `linkgate-bundle` namespace and appends the signature to `DIR/manifest.json.sig`,
 * as `ssh-keygen -Y sign -n linkgate-bundle -f KEY DIR/manifest.json` writes it.
 */
export async function signBundle(dir: string, key: SshPrivateKey, shownAs: string = dir): Promise<void> {
  const bytes = await readNamedFile(
    'USAGE',
    'manifest',
    join(dir, manifestName),
    `${shownAs}/${manifestName}`,
    maxManifestBytes,
  );
  await appendFile(join(dir, manifestSignatureName), signPolicyBytes(key, bytes, bundleSignatureNamespace), {
    mode: 0o644,
  });
}
