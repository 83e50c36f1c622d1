import type { FactsPredicate } from './compile-predicate.ts';
import { factsPredicate, type CompiledRule } from './compile-rule.ts';
import type { RuleStage } from './rule-facts.ts';

/** One stage's rules in policy order, with their unchecked predicates (same index). */
export interface StageRules {
  readonly rules: readonly CompiledRule[];
  readonly predicates: readonly FactsPredicate[];
}

/** A policy's rules split by stage. */
export type RuleStages = Readonly<Record<RuleStage, StageRules>>;

/** Splits compiled rules by stage, keeping policy order; called once, by `buildPolicy`. */
export function compileRuleStages(rules: readonly CompiledRule[]): RuleStages {
  const of = (stage: RuleStage): StageRules => {
    const own = rules.filter((rule) => rule.stage === stage);
    return Object.freeze({ rules: Object.freeze(own), predicates: Object.freeze(own.map(factsPredicate)) });
  };
  return Object.freeze({ link: of('link'), read: of('read'), credential: of('credential') });
}
