import type { PolicyRef } from '../decision/decision.ts';
import { allowedKindIds } from '../content/kinds.ts';
import { type ConsumerProfile, consumerProfile } from '../content/consumers/content-consumer.ts';
import { compileRule, type CompiledRule } from './compile-rule.ts';
import { compileLinkSettings, type LinkSettings } from './link-settings.ts';
import { lockedDocument } from './locked-document.ts';
import { policyDigest } from './policy-digest.ts';
import type { PolicyDocument } from './policy-schema.ts';
import { compileRuleStages, type RuleStages } from './rule-stages.ts';
import type { ReviewCheck } from './verify-review.ts';

/**
 * A loaded policy: validated document, identity, and everything decisions read, compiled once when it is built
 * (rules and rules by stage, link settings, allowed content kinds); immutable once built.
 */
export interface Policy {
  readonly document: Readonly<PolicyDocument>;
  readonly ref: Readonly<PolicyRef>;
  /** where it came from: a file path, or `<inline>` */
  readonly source: string;
  readonly rules: readonly CompiledRule[];
  /** `rules` split by stage, in policy order */
  readonly stages: RuleStages;
  /** the link settings the link and credential decisions read */
  readonly link: LinkSettings;
  /** kind ids `content.allow` admits (unknown mime types admit nothing) */
  readonly allowedKinds: ReadonlySet<string>;
  /** the consumers the policy protects: `content.consumers` (absent: the default profile) and `terminal`, less `content.excludeConsumers` */
  readonly consumers: ConsumerProfile;
  /** the review signatures checked at load (`--allowed-signers`); absent: no check was asked for */
  readonly reviewCheck?: ReviewCheck;
}

/**
 * Builds a policy from an already validated document: digests it and compiles every rule. `known` is for a document
 * read back from a trusted cache entry: its digest as computed when the entry was written, and `fresh` when the
 * document is a value no one else holds (just parsed), so it is frozen as it is instead of copied.
 */
export function buildPolicy(
  document: PolicyDocument,
  source: string,
  known: { digest?: string; fresh?: boolean } = {},
): Policy {
  const rules = (document.rules ?? []).map(compileRule);
  const digest = known.digest ?? policyDigest(document);
  const ref = Object.freeze({ id: document.id, version: document.version, digest });
  const own = known.fresh === true ? document : structuredClone(document);
  return assemblePolicy({ document: deepFreeze(own), ref, source, rules });
}

/** The parts a policy is made of; everything else on a `Policy` is derived from them. */
export interface PolicyParts {
  readonly document: Readonly<PolicyDocument>;
  readonly ref: Readonly<PolicyRef>;
  readonly source: string;
  readonly rules: readonly CompiledRule[];
  readonly reviewCheck?: ReviewCheck | undefined;
}

/** Derives what decisions read from a policy's parts (the document is taken as validated and frozen). */
export function assemblePolicy(parts: PolicyParts): Policy {
  const rules = Object.freeze([...parts.rules]);
  return Object.freeze({
    document: parts.document,
    ref: parts.ref,
    source: parts.source,
    rules,
    stages: compileRuleStages(rules),
    link: compileLinkSettings(parts.document, rules),
    allowedKinds: Object.freeze(allowedKindIds(parts.document.content.allow)),
    consumers: consumerProfile(parts.document.content.consumers, parts.document.content.excludeConsumers),
    ...(parts.reviewCheck === undefined ? {} : { reviewCheck: parts.reviewCheck }),
  });
}

/**
 * The same policy carrying the outcome of its review check; a gate over it denies everything unless it verified. A
 * policy that did not verify keeps only its identity and review: its settings are `lockedDocument`'s, so nothing a
 * front end reads from it (web fetch judging, caps, timeouts, fetch switches) comes from the unreviewed file.
 */
export function withReviewCheck(policy: Policy, reviewCheck: ReviewCheck): Policy {
  if (reviewCheck.verified) return Object.freeze({ ...policy, reviewCheck });
  const document = deepFreeze(lockedDocument(policy.document));
  return assemblePolicy({ document, ref: policy.ref, source: policy.source, rules: [], reviewCheck });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
