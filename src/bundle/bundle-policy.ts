import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GateError } from '../errors.ts';
import { type LoadPolicyOptions, loadPolicyBytes } from '../policy/load-policy.ts';
import { assemblePolicy, type Policy, withReviewCheck } from '../policy/policy.ts';
import { failedReview } from '../policy/verify-review.ts';
import { sha256Digest } from './bundle-manifest.ts';
import { type BundleState, bundleState } from './bundle-state.ts';

/** The policy of a state folder's active bundle, with the state it came from. */
export interface BundlePolicy {
  readonly policy: Policy;
  readonly state: BundleState;
}

/**
 * Loads the active bundle's policy (`--bundle STATE_DIR`), its review checked as `loadPolicy` checks it, and tags its
 * ref with the revision so every decision, record and span names it. A file of the revision that no longer matches its
 * manifest, or a bundle past its expiry, gives a policy that denies everything (`policy.unreviewed`). `load` reads the
 * policy file (default `loadPolicy` with `options`; the hook passes its validated cache). Throws GateError
 * POLICY_UNREADABLE when no bundle was ever activated there.
 */
export async function loadBundlePolicy(
  stateDir: string,
  options: LoadPolicyOptions = {},
  load: (file: string, shownAs: string) => Promise<Policy> = async (file, shownAs) =>
    (await loadPolicyBytes(file, { ...options, shownAs })).policy,
): Promise<BundlePolicy> {
  const state = await bundleState(stateDir);
  if (state === undefined)
    throw new GateError('POLICY_UNREADABLE', `no active bundle in \`${stateDir}\`: run \`linkgate bundle pull\` first`);
  const policy = await load(state.policyFile, `${state.manifest.policy} (bundle revision ${state.revision})`);
  const problem = (await changedFile(state)) ?? expiry(state, options.nowMs ?? Date.now());
  const checked = problem === undefined ? policy : withReviewCheck(policy, failedReview(problem[0], problem[1], 1));
  return { policy: withBundleRevision(checked, state.revision), state };
}

/** The same policy, its ref naming the bundle revision it came from. */
export function withBundleRevision(policy: Policy, revision: number): Policy {
  return assemblePolicy({
    document: policy.document,
    ref: Object.freeze({ ...policy.ref, bundleRevision: revision }),
    source: policy.source,
    rules: policy.rules,
    reviewCheck: policy.reviewCheck,
  });
}

// a file of the active revision whose bytes are not the ones the manifest signed
async function changedFile(state: BundleState): Promise<['bytes-changed', string] | undefined> {
  const dir = dirname(state.policyFile);
  for (const [name, digest] of Object.entries(state.manifest.files)) {
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir, name));
    } catch {
      return ['bytes-changed', `bundle revision ${state.revision}: \`${name}\` is missing from the state folder`];
    }
    if (sha256Digest(bytes) !== digest)
      return ['bytes-changed', `bundle revision ${state.revision}: \`${name}\` changed after it was activated`];
  }
  return undefined;
}

function expiry(state: BundleState, nowMs: number): ['expired', string] | undefined {
  return nowMs >= state.expiresAtMs
    ? ['expired', `bundle revision ${state.revision} expired at ${state.manifest.expiresAt} (expiresAt)`]
    : undefined;
}
