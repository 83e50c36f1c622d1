import type { Policy } from '../policy/policy.ts';
import type { RuleFacts, RuleStage } from '../policy/rule-facts.ts';
import type { Effect, Reason } from './decision.ts';

/** A reason raised by a custom rule, with the effect it asks for. */
export interface RuleHit {
  effect: Exclude<Effect, 'allow'>;
  reason: Reason;
}

/** Runs every rule of `stage` in policy order; a rule that throws propagates (the caller fails closed with `engine.error`). */
export function runRules(policy: Policy, stage: RuleStage, facts: RuleFacts): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of policy.rules) {
    if (rule.stage !== stage) continue;
    if (rule.test(facts)) {
      hits.push({
        effect: rule.effect,
        reason: { code: `rule.${rule.id}`, rule: `rules.${rule.id}`, stage: stage === 'read' ? 'read' : stage, message: rule.message },
      });
    }
  }
  return hits;
}
