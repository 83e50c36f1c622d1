import { formatDiagnostic, GateError } from '../errors.ts';
import { allowedSignersEnv } from './allowed-signers-env.ts';
import { checkPolicyText } from './check-policy.ts';
import { type Policy, withReviewCheck } from './policy.ts';
import { readNamedFile } from './read-named-file.ts';
import { maxPolicyFileBytes } from './read-regular-file.ts';
import { failedReview, type ReviewOptions, reviewPolicyBytes } from './verify-review.ts';
import { replaceableBy, trustedFiles } from './replaceable-file.ts';

/** How `loadPolicy` reads a policy: its name in messages, and the review check to apply. */
export interface LoadPolicyOptions {
  /** the file's name in messages (default: the path) */
  shownAs?: string;
  /**
   * the allowed-signers file: when set (or `LINKGATE_ALLOWED_SIGNERS` is), the policy's review signatures
   * (`POLICY.sig`) are checked and a policy that does not verify denies every decision (`policy.unreviewed`)
   */
  allowedSigners?: string;
  /** the allowed-signers file's name in messages (default: its path) */
  allowedSignersShownAs?: string;
  /** distinct allowed signers required (default 1) */
  minSigners?: number;
  /** the signature file (default: the policy file with `.sig` appended) */
  signatureFile?: string;
  /** the time the review is judged at, ms since the epoch (default: now) */
  nowMs?: number;
  /** where `LINKGATE_ALLOWED_SIGNERS` is read (default: `process.env`) */
  env?: Readonly<Record<string, string | undefined>>;
  /** the policy's `id` must be this (pinning against another reviewed policy copied over the file) */
  policyId?: string;
  /** the policy's `version` must be at least this `MAJOR.MINOR.PATCH` (pinning against an older reviewed version) */
  minVersion?: string;
  /**
   * refuse (GateError `POLICY_UNREADABLE`) a policy, signature or allowed-signers file this process's user could
   * change or replace (`replaceableBy`): the review protects nothing against a user who can rewrite what checks it
   */
  strictFiles?: boolean;
}

/**
 * Why `document` does not match the pins of `options` (`policyId`, `minVersion`), or undefined when it does; a
 * pre-release of a version counts as below it.
 */
export function pinProblem(document: { id: string; version: string }, options: LoadPolicyOptions): string | undefined {
  if (options.policyId !== undefined && document.id !== options.policyId)
    return `the policy id is \`${document.id}\`, not the pinned \`${options.policyId}\` (--policy-id)`;
  if (options.minVersion !== undefined && compareVersions(document.version, options.minVersion) < 0)
    return `the policy version ${document.version} is below the pinned minimum ${options.minVersion} (--min-version)`;
  return undefined;
}

// -1, 0, 1 for semantic versions a < b, a = b, a > b (build metadata ignored; a pre-release is below its release)
function compareVersions(a: string, b: string): number {
  const parts = (v: string) => {
    const [core = '', pre] = v.split('+')[0]?.split(/-(.*)/s) ?? [];
    return { nums: core.split('.').map((n) => Number(n)), pre: pre !== undefined && pre !== '' };
  };
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return x.pre === y.pre ? 0 : x.pre ? -1 : 1;
}

export { allowedSignersEnv } from './allowed-signers-env.ts';
// what a cached review check runs on a miss (`reviewed-policy-cache.ts`), taken from here so that the review code
// stays in this module's chunk of the library bundle instead of a chunk of its own
export { parseAllowedSigners } from './allowed-signers.ts';
export { checkReview, failedReview, reviewExpiresAtMs } from './verify-review.ts';

/** Parses and validates policy YAML text; throws GateError POLICY_INVALID listing every diagnostic, sorted by line and column. */
export function parsePolicy(text: string, file: string): Policy {
  const { policy, diagnostics } = checkPolicyText(text, file);
  const first = diagnostics.find((d) => d.severity === 'error');
  if (first !== undefined || policy === undefined) {
    const message = first === undefined ? `${file}: the policy could not be loaded` : formatDiagnostic(first);
    throw new GateError('POLICY_INVALID', message, { diagnostics });
  }
  return policy;
}

/** The review check `options` ask for (the option, else `LINKGATE_ALLOWED_SIGNERS`), or undefined for none. */
export function reviewOptionsOf(options: LoadPolicyOptions): ReviewOptions | undefined {
  const env = options.env ?? process.env;
  const fromEnv = env[allowedSignersEnv];
  if (options.allowedSigners === '' || (options.allowedSigners === undefined && fromEnv === ''))
    throw new GateError(
      'USAGE',
      `the allowed-signers file (--allowed-signers, $${allowedSignersEnv}) must not be empty`,
    );
  const allowedSigners = options.allowedSigners ?? fromEnv;
  if (allowedSigners === undefined) return undefined;
  const minSigners = options.minSigners ?? 1;
  if (!Number.isSafeInteger(minSigners) || minSigners < 1)
    throw new GateError('USAGE', 'the minimum number of signers must be a whole number ≥ 1');
  return {
    allowedSigners,
    minSigners,
    ...(options.signatureFile === undefined ? {} : { signatureFile: options.signatureFile }),
    ...(options.allowedSignersShownAs === undefined || options.allowedSigners === undefined
      ? {}
      : { allowedSignersShownAs: options.allowedSignersShownAs }),
    ...(options.nowMs === undefined ? {} : { nowMs: options.nowMs }),
  };
}

/**
 * Checks the review of an already parsed policy against the exact `bytes` it was parsed from, when `options` ask
 * for one; returns the policy carrying the outcome (a gate over an unverified policy denies everything).
 */
export async function reviewLoadedPolicy(
  policy: Policy,
  file: string,
  bytes: Uint8Array,
  options: LoadPolicyOptions,
): Promise<Policy> {
  const pinned = pinProblem(policy.document, options);
  const review = reviewOptionsOf(options);
  if (pinned !== undefined) return withReviewCheck(policy, failedReview('pinned', pinned, review?.minSigners ?? 1));
  if (review === undefined) return policy;
  const check = await reviewPolicyBytes(file, options.shownAs ?? file, bytes, policy.document, review);
  return withReviewCheck(policy, check);
}

/**
 * Reads, parses and validates a policy file; never returns a half-loaded policy. With `allowedSigners` (or
 * `LINKGATE_ALLOWED_SIGNERS`) the review signatures over the file's exact bytes are checked too: a policy that does
 * not verify loads, but every decision of a gate over it is `deny` with `policy.unreviewed` (see `reviewCheck`).
 * A string as the second argument is `shownAs` (the file's name in a read error).
 */
export async function loadPolicy(file: string, options: string | LoadPolicyOptions = {}): Promise<Policy> {
  return (await loadPolicyBytes(file, typeof options === 'string' ? { shownAs: options } : options)).policy;
}

/** `loadPolicy`, also giving the exact bytes the policy was parsed from (a reload checks them again later). */
export async function loadPolicyBytes(
  file: string,
  options: LoadPolicyOptions,
): Promise<{ policy: Policy; bytes: Buffer }> {
  if (options.strictFiles === true) refuseReplaceable(file, options);
  const bytes = await readNamedFile('POLICY_UNREADABLE', 'policy', file, options.shownAs ?? file, maxPolicyFileBytes);
  // the bytes checked against the signatures are the bytes parsed
  return { policy: await reviewLoadedPolicy(parsePolicy(bytes.toString('utf8'), file), file, bytes, options), bytes };
}

/** `strictFiles`: the first trusted file (policy, `.sig`, allowed signers) the gated user could change ends the load. */
export function refuseReplaceable(file: string, options: LoadPolicyOptions): void {
  const review = reviewOptionsOf(options);
  for (const { kind, file: trusted } of trustedFiles(file, {
    signatureFile: options.signatureFile,
    allowedSigners: review?.allowedSigners,
  })) {
    const why = replaceableBy(trusted);
    if (why !== undefined)
      throw new GateError('POLICY_UNREADABLE', `the ${kind} \`${trusted}\` is refused under --strict-files: ${why}`);
  }
}
