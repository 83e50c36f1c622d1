import { resolve as resolvePath } from 'node:path';
import { allowedSignersEnv, loadPolicy } from '../policy/load-policy.ts';
import { replaceableBy, trustedFiles } from '../policy/replaceable-file.ts';
import type { Policy } from '../policy/policy.ts';
import type { PolicyStatus } from './doctor-report.ts';
import type { LinkgateInvocation } from './linkgate-invocation.ts';

/**
 * Whether the policy a linkgate command names loads, and whether its review verifies against the allowed signers the
 * command gets (`--allowed-signers`, else `LINKGATE_ALLOWED_SIGNERS` from `env`), loaded exactly as the command would.
 * Paths resolve against `cwd`, the folder the host starts the command in; `keep` gets the policy when it loads.
 */
export async function policyStatus(
  invocation: LinkgateInvocation,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  keep?: (policy: Policy) => void,
): Promise<PolicyStatus> {
  if (invocation.policy === undefined)
    return { review: 'missing', message: 'the command names no `--policy`: it does not start' };
  const file = resolvePath(cwd, invocation.policy);
  const fromEnv = env[allowedSignersEnv];
  const given = invocation.allowedSigners ?? (fromEnv === '' ? undefined : fromEnv);
  const allowedSigners = given === undefined ? undefined : resolvePath(cwd, given);
  const minSigners = invocation.minSigners === undefined ? 1 : Number(invocation.minSigners);
  const base = { file, ...(allowedSigners === undefined ? {} : { allowedSigners }) };
  if (!Number.isSafeInteger(minSigners) || minSigners < 1)
    return { ...base, review: 'does-not-load', message: '`--min-signers` must be a whole number ≥ 1' };
  try {
    const policy = await loadPolicy(file, {
      env: {},
      // `--strict-files` refuses a policy (or review file) this user could change: the command does not start
      ...(invocation.strictFiles === true ? { strictFiles: true } : {}),
      ...(allowedSigners === undefined ? {} : { allowedSigners, minSigners }),
    });
    keep?.(policy);
    const check = policy.reviewCheck;
    if (check === undefined) return { ...base, review: 'not-checked', message: '' };
    if (check.verified) {
      // a review this user could re-sign or replace protects nothing against it (docs/reviews.md, threat model)
      const changeable = trustedFiles(file, { allowedSigners })
        .map(({ kind, file: trusted }) => {
          const why = replaceableBy(trusted);
          return why === undefined ? undefined : `the ${kind} \`${trusted}\`: ${why}`;
        })
        .find((line) => line !== undefined);
      return { ...base, review: 'verified', message: '', ...(changeable === undefined ? {} : { changeable }) };
    }
    return { ...base, review: 'unverified', message: `${check.message}: every decision is deny` };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
    return { ...base, review: 'does-not-load', message };
  }
}

/**
 * True when a policy with this status lets the command gate: it loads, and verifies when a review is asked for;
 * with `requireSigned`, only a review that verifies.
 */
export function policyUsable(status: PolicyStatus, requireSigned = false): boolean {
  return status.review === 'verified' || (!requireSigned && status.review === 'not-checked');
}

/** One lowercase line on what is wrong with the policy (with `requireSigned`, an unchecked review too), or undefined. */
export function policyProblem(status: PolicyStatus, requireSigned = false): string | undefined {
  if (requireSigned && status.review === 'verified' && status.changeable !== undefined)
    return `policy \`${status.file}\` verifies, but this user can change what its review rests on (${status.changeable}): \`--require-signed\` asks for a review the gated agent cannot forge`;
  if (policyUsable(status, requireSigned)) return undefined;
  if (status.review === 'not-checked')
    return `policy \`${status.file}\` has no review checked (no allowed signers given): \`--require-signed\` asks for one that verifies`;
  if (status.review === 'unverified') return `policy \`${status.file}\` does not verify: ${status.message}`;
  if (status.review === 'missing' || status.review === 'unknown') return status.message;
  return `policy \`${status.file}\` does not load: ${status.message}`;
}
