import { resolve as resolvePath } from 'node:path';
import type { LoadPolicyOptions } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';
import type { CliIo } from './cli-io.ts';
import { loadReviewedPolicy } from './review-options.ts';

/** `--bundle DIR`: the policy of the active signed bundle of a state folder instead of `--policy FILE` (docs/fleet.md). */
export const bundleOption = {
  bundle: {
    type: 'string',
    value: 'DIR',
    description:
      'use the active policy of the bundle state folder `linkgate bundle pull --state DIR` keeps, instead of `--policy`; its revision is in every decision and record (docs/fleet.md)',
  },
} as const;

/** `--policy FILE` or `--bundle DIR`, exactly one: a usage error message, or undefined when the choice is right. */
export function policyChoiceProblem(values: {
  readonly policy?: string | undefined;
  readonly bundle?: string | undefined;
}) {
  if (values.policy !== undefined && values.bundle !== undefined) return '`--policy` and `--bundle` exclude each other';
  if (values.policy === undefined && values.bundle === undefined) return 'missing `--policy FILE`';
  return undefined;
}

/**
 * Loads the policy a command runs with: `--bundle DIR`'s active bundle (its review checked as `--policy`'s is, its
 * revision on every decision), else `--policy FILE`. A policy that will deny everything is named on stderr.
 */
export async function loadCommandPolicy(
  io: CliIo,
  values: { readonly policy?: string | undefined; readonly bundle?: string | undefined },
  review: LoadPolicyOptions,
): Promise<Policy> {
  if (values.bundle === undefined) return loadReviewedPolicy(io, values.policy ?? '', review);
  const { loadBundlePolicy } = await import('../bundle/bundle-policy.ts');
  const { policy } = await loadBundlePolicy(resolvePath(io.cwd, values.bundle), review);
  const check = policy.reviewCheck;
  if (check !== undefined && !check.verified)
    io.stderr.write(`linkgate: policy.unreviewed: ${check.message}; every decision is deny\n`);
  return policy;
}
