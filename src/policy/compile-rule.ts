// PLACEHOLDER: replaced by the json-logic compiler (policy helper). Interface is the contract.
import jsonLogic from 'json-logic-js';
import type { RuleDocument } from './policy-schema.ts';
import type { RuleFacts } from './rule-facts.ts';

/** A custom rule compiled once at load into a closure; `test` is truthy when the rule fires. */
export interface CompiledRule {
  readonly id: string;
  readonly stage: RuleDocument['stage'];
  readonly effect: RuleDocument['effect'];
  readonly message: string;
  readonly test: (facts: RuleFacts) => boolean;
}

/** Compiles one validated rule; throws GateError POLICY_INVALID for an unsupported expression. */
export function compileRule(rule: RuleDocument): CompiledRule {
  const logic = rule.when as jsonLogic.RulesLogic;
  return Object.freeze({
    id: rule.id,
    stage: rule.stage,
    effect: rule.effect,
    message: rule.message,
    test: (facts: RuleFacts) => jsonLogic.truthy(jsonLogic.apply(logic, facts)),
  });
}
