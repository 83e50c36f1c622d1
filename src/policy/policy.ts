import type { PolicyRef } from '../decision/decision.ts';
import { compileRule, type CompiledRule } from './compile-rule.ts';
import { policyDigest } from './policy-digest.ts';
import type { PolicyDocument } from './policy-schema.ts';
import type { ReviewCheck } from './verify-review.ts';

/** A loaded policy: validated document, compiled rules and identity; immutable once built. */
export interface Policy {
  readonly document: Readonly<PolicyDocument>;
  readonly ref: Readonly<PolicyRef>;
  /** where it came from: a file path, or `<inline>` */
  readonly source: string;
  readonly rules: readonly CompiledRule[];
  /** the review signatures checked at load (`--allowed-signers`); absent: no check was asked for */
  readonly reviewCheck?: ReviewCheck;
}

/** Builds a policy from an already validated document: digests it and compiles every rule. */
export function buildPolicy(document: PolicyDocument, source: string): Policy {
  const rules = (document.rules ?? []).map(compileRule);
  const ref = Object.freeze({ id: document.id, version: document.version, digest: policyDigest(document) });
  return Object.freeze({ document: deepFreeze(structuredClone(document)), ref, source, rules: Object.freeze(rules) });
}

/** The same policy carrying the outcome of its review check; a gate over it denies everything unless it verified. */
export function withReviewCheck(policy: Policy, reviewCheck: ReviewCheck): Policy {
  return Object.freeze({ ...policy, reviewCheck });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
