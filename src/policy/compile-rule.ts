import { GateError } from '../errors.ts';
import { checkRuleLogic } from './check-rule.ts';
import { compileNode } from './compile-node.ts';
import { compilePredicate, type FactsPredicate } from './compile-predicate.ts';
import type { Evaluator } from './compiled-node.ts';
import { truthy } from './json-logic-ops.ts';
import type { RuleDocument } from './policy-schema.ts';
import type { RuleFacts } from './rule-facts.ts';

/** A custom rule compiled once at load into a closure; `test` is truthy when the rule fires. */
export interface CompiledRule {
  readonly id: string;
  readonly stage: RuleDocument['stage'];
  readonly effect: RuleDocument['effect'];
  readonly message: string;
  readonly test: (facts: RuleFacts) => boolean;
  /** `test` without its facts check, for facts that passed `isRuleFacts`; set by `compileRule` (a hand-built rule has none) */
  readonly predicate?: FactsPredicate;
}

/** A compiled `when` read as a condition; defined beside `compilePredicate`, named here for the rules' callers. */
export type { FactsPredicate } from './compile-predicate.ts';

/** Compiles one validated rule; throws GateError POLICY_INVALID for an unsupported expression. */
export function compileRule(rule: RuleDocument): CompiledRule {
  const issue = checkRuleLogic(rule.when, rule.stage)[0];
  if (issue !== undefined) {
    const at = ['rules', rule.id, 'when', ...issue.path].join('.');
    throw new GateError('POLICY_INVALID', `${at}: ${issue.message}`);
  }
  const fires = compilePredicate(rule.when);
  const other = anyData(rule.when);
  const compiled: CompiledRule = Object.freeze({
    id: rule.id,
    stage: rule.stage,
    effect: rule.effect,
    message: rule.message,
    test: (facts: RuleFacts) => (isRuleFacts(facts) ? fires(facts) : truthy(other(facts))),
    predicate: fires,
  });
  return compiled;
}

/**
 * `rule.test` without its facts check, for a caller that checked `isRuleFacts` once per decision (the engine's
 * per-rule hot path); a rule not built by `compileRule` gets its own `test`.
 */
export function factsPredicate(rule: CompiledRule): FactsPredicate {
  return rule.predicate ?? rule.test;
}

/** True for a null-prototype object (what `freezeFacts` makes): a plain property read on it cannot reach a prototype. */
export function isRuleFacts(data: unknown): data is RuleFacts {
  return typeof data === 'object' && data !== null && Object.getPrototypeOf(data) === null;
}

/**
 * Compiles a json-logic expression into a closure tree with the results of json-logic-js 2.0.5 `apply`,
 * except that `var` reads only own properties. Throws for operators outside the allow-list or a wrong
 * arity; `checkRuleLogic` is the full load-time check (facts, paths, literals).
 */
export function compileLogic(logic: unknown): Evaluator {
  const root = compileNode(logic, false, 'facts').evaluate;
  const other = anyData(logic);
  return (data) => (isRuleFacts(data) ? root(data) : other(data));
}

/**
 * The expression for a datum that is not a null-prototype object (a plain object, a primitive, null): every
 * `var` checks own properties. Compiled on first use, since the engine only ever passes `freezeFacts` output.
 */
function anyData(logic: unknown): Evaluator {
  let evaluate: Evaluator | undefined;
  return (data) => {
    evaluate ??= compileNode(logic, false, 'item').evaluate;
    return evaluate(data);
  };
}
