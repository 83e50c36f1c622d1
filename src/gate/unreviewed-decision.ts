import type { Decision, ReasonStage } from '../decision/decision.ts';
import { deny, reason } from '../decision/deny.ts';
import type { Policy } from '../policy/policy.ts';

/**
 * The `deny` every decision gets when the policy's review was checked and did not verify, or has expired since it
 * was loaded (`review.expires`, or a counted signer's `valid-before`: `policy.unreviewed`, naming what ran out);
 * undefined when no check was asked for or it holds at `nowMs`.
 */
export function unreviewedDecision(
  policy: Policy,
  stage: ReasonStage,
  nowMs: number = Date.now(),
): Decision | undefined {
  const check = policy.reviewCheck;
  if (check === undefined) return undefined;
  if (check.verified && (check.expiresAtMs === undefined || nowMs < check.expiresAtMs)) return undefined;
  const why = check.verified
    ? (check.expiresBecause ?? `the review expired on ${policy.document.review.expires} (review.expires)`)
    : check.message;
  return deny(policy, reason('policy.unreviewed', 'review', stage, `the policy is not used: ${why}`));
}
