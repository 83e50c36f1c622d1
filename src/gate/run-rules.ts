import { isRuleFacts, type CompiledRule, type FactsPredicate } from '../policy/compile-rule.ts';
import type { Policy } from '../policy/policy.ts';
import type { RuleFacts, RuleStage } from '../policy/rule-facts.ts';
import type { Effect, Reason } from '../decision/decision.ts';

/** A reason raised by a custom rule, with the effect it asks for. */
export interface RuleHit {
  effect: Exclude<Effect, 'allow'>;
  reason: Reason;
}

/** Whether the policy has any rule of `stage` (so the caller can skip building its facts). */
export function hasStageRules(policy: Policy, stage: RuleStage): boolean {
  return policy.stages[stage].rules.length > 0;
}

/**
 * Runs every rule of `stage` in policy order; a rule that throws propagates (the caller fails closed with
 * `engine.error`). The facts are checked once (null prototype, see `isRuleFacts`), then each rule's predicate
 * is called directly; other facts go through each rule's checked `test`.
 */
export function runRules(policy: Policy, stage: RuleStage, facts: RuleFacts): RuleHit[] {
  const hits: RuleHit[] = [];
  const { rules, predicates } = policy.stages[stage];
  if (isRuleFacts(facts)) {
    for (let i = 0; i < predicates.length; i += 1) {
      if ((predicates[i] as FactsPredicate)(facts)) hits.push(hitOf(rules[i] as CompiledRule, stage));
    }
  } else {
    for (const rule of rules) if (rule.test(facts)) hits.push(hitOf(rule, stage));
  }
  return hits;
}

function hitOf(rule: CompiledRule, stage: RuleStage): RuleHit {
  return {
    effect: rule.effect,
    reason: {
      code: `rule.${rule.id}`,
      rule: `rules.${rule.id}`,
      stage: stage === 'read' ? 'read' : stage,
      message: rule.message,
    },
  };
}
