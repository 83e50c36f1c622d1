import { errorText } from './error-line.ts';
import type { Decision, PolicyRef, Reason, ReasonStage } from './decision.ts';
import type { ReasonCode } from './reason-codes.ts';

/** Anything that names a policy: a loaded policy, or a gate's `policy`. */
export interface NamesPolicy {
  readonly ref: PolicyRef;
}

/** A `deny` by `policy` for one or more reasons: the one constructor of a deny outside the decide functions. */
export function deny(policy: NamesPolicy, first: Reason, ...more: Reason[]): Decision {
  return { effect: 'deny', reasons: [first, ...more], policy: { ...policy.ref } };
}

/** A reason; `message` is lowercase, one line, user values quoted with `quoteValue`. */
export function reason(code: ReasonCode, rule: string, stage: ReasonStage, message: string): Reason {
  return { code, rule, stage, message };
}

/** The deny for a malformed input line or message (`input.invalid`); `message` names the field. */
export function inputInvalid(policy: NamesPolicy, message: string): Decision {
  return deny(policy, reason('input.invalid', 'input', 'input', message));
}

/** The fail-closed decision for any exception inside the engine (`engine.error`). */
export function engineError(policy: NamesPolicy, error: unknown): Decision {
  const detail = errorText(error);
  return deny(policy, reason('engine.error', 'engine', 'engine', `engine error: ${oneLine(detail)}`));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200).toLowerCase();
}
