import { GateError } from '../gate-error.ts';
import { checkRuleLogic } from './check-rule.ts';
import { eagerOperation, operatorSpecs, pathSegments, truthy, type EagerOperation } from './json-logic-ops.ts';
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

/** A compiled json-logic node: evaluates against one datum (the facts, or a list item inside `some`/`map`/…). */
export type Evaluator = (data: unknown) => unknown;

/** Compiles one validated rule; throws GateError POLICY_INVALID for an unsupported expression. */
export function compileRule(rule: RuleDocument): CompiledRule {
  const issue = checkRuleLogic(rule.when, rule.stage)[0];
  if (issue !== undefined) {
    const at = ['rules', rule.id, 'when', ...issue.path].join('.');
    throw new GateError('POLICY_INVALID', `${at}: ${issue.message}`);
  }
  const evaluate = compileLogic(rule.when);
  return Object.freeze({
    id: rule.id,
    stage: rule.stage,
    effect: rule.effect,
    message: rule.message,
    test: (facts: RuleFacts) => truthy(evaluate(facts)),
  });
}

/**
 * Compiles a json-logic expression into a closure tree with the results of json-logic-js 2.0.5 `apply`,
 * except that `var` reads only own properties. Throws for operators outside the allow-list or a wrong
 * arity; `checkRuleLogic` is the full load-time check (facts, paths, literals).
 */
export function compileLogic(logic: unknown): Evaluator {
  const root = compileNode(logic, false, 'facts');
  return (data) => root(factsView(data));
}

/** The last facts object found frozen with a null prototype; frozen, so its prototype can never change (a sound identity cache). */
let verifiedFacts: object | undefined;

/**
 * The top-level datum as a null-prototype object, so `var` at the top reads it directly (the hot path) and
 * still never reaches a prototype. Frozen facts from `freezeFacts` pass through untouched (checked once per
 * facts object, not once per rule); anything else is copied.
 */
function factsView(data: unknown): unknown {
  if (data === verifiedFacts || data === null || data === undefined) return data;
  if (typeof data === 'object' && Object.getPrototypeOf(data) === null) {
    if (Object.isFrozen(data)) verifiedFacts = data;
    return data;
  }
  const boxed = Object(data) as Record<string, unknown>;
  const view = Object.create(null) as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(boxed)) view[key] = boxed[key];
  return view;
}

/** Where a node is evaluated: on the top-level facts (null-prototype), or on a list item / `reduce` pair. */
type Scope = 'facts' | 'item';

/** Literal values of constant evaluators, so parents can inline them. */
const constants = new WeakMap<Evaluator, { readonly value: unknown }>();

function constant(value: unknown): Evaluator {
  const evaluate: Evaluator = () => value;
  constants.set(evaluate, { value });
  return evaluate;
}

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object';

// Eager operations that never hand back an argument as their result; `*` with one argument does (`[x].reduce`).
const consumingOperators = new Set(['==', '===', '!=', '!==', '>', '>=', '<', '<=', '!', '!!', '%', 'in', 'cat', 'substr', '+', '-', '/', 'min', 'max', 'merge']);

/**
 * `shared`: the parent consumes this value without returning it, so a literal list of primitives may be one
 * frozen list for every evaluation; elsewhere json-logic makes a fresh list each time, and `==` could tell.
 */
function compileNode(logic: unknown, shared: boolean, scope: Scope): Evaluator {
  if (Array.isArray(logic)) {
    if (shared && logic.every(isPrimitive)) return constant(Object.freeze([...logic]));
    const items = logic.map((item) => compileNode(item, false, scope));
    return (data) => items.map((item) => item(data));
  }
  if (logic === null || typeof logic !== 'object' || Object.keys(logic).length !== 1) return constant(logic);
  const op = Object.keys(logic)[0] as string;
  const raw = (logic as Record<string, unknown>)[op];
  const args: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  const spec = operatorSpecs.get(op);
  if (spec === undefined) throw new GateError('POLICY_INVALID', `unknown operator \`${op}\``);
  if (args.length < spec.minArgs || args.length > spec.maxArgs) {
    throw new GateError('POLICY_INVALID', `\`${op}\` cannot take ${args.length} arguments`);
  }
  const arg = (i: number, share = false): Evaluator => compileNode(args[i], share, scope);
  const all = (share = false): Evaluator[] => args.map((a) => compileNode(a, share, scope));
  const body = (i: number): Evaluator => compileNode(args[i], false, 'item');
  switch (spec.kind) {
    case 'var':
      return compileVar(args[0], args.length > 1 ? arg(1) : undefined, scope);
    case 'missing':
      return compileMissing(Array.isArray(args[0]) ? args[0] : args, scope);
    case 'missing_some':
      return compileMissingSome(arg(0), Array.isArray(args[1]) ? args[1] : [args[1]], scope);
    case 'if':
      return compileIf(all());
    case 'and':
      return compileAnd(all());
    case 'or':
      return compileOr(all());
    case 'scoped':
      return compileScoped(op, arg(0, true), body(1));
    case 'reduce':
      return compileReduce(arg(0, true), body(1), args.length > 2 ? arg(2) : undefined);
    case 'eager': {
      const operation = eagerOperation(op);
      if (operation === undefined) throw new GateError('POLICY_INVALID', `unknown operator \`${op}\``);
      const compiled = all(consumingOperators.has(op));
      return compileComparison(op, compiled) ?? compileEager(operation, compiled);
    }
  }
}

/** Straight-line closures for the hot operators (negation, two-operand comparisons), a literal operand inlined. */
function compileComparison(op: string, args: readonly Evaluator[]): Evaluator | undefined {
  const [a, b] = args;
  if (args.length === 1 && a !== undefined) {
    if (op === '!') return (d) => !truthy(a(d));
    if (op === '!!') return (d) => truthy(a(d));
    return undefined;
  }
  if (args.length !== 2 || a === undefined || b === undefined) return undefined;
  const k = constants.get(b);
  if (k !== undefined) {
    const v = k.value;
    switch (op) {
      case '==':
        return (d) => a(d) == v;
      case '===':
        return (d) => a(d) === v;
      case '!=':
        return (d) => a(d) != v;
      case '!==':
        return (d) => a(d) !== v;
      case 'in':
        if (Array.isArray(v)) return (d) => v.indexOf(a(d)) !== -1;
        return undefined;
      // the casts only quiet the type checker; json-logic compares with JavaScript's loose coercions
      case '>':
        return (d) => (a(d) as number) > (v as number);
      case '>=':
        return (d) => (a(d) as number) >= (v as number);
      case '<':
        return (d) => (a(d) as number) < (v as number);
      case '<=':
        return (d) => (a(d) as number) <= (v as number);
      default:
        return undefined;
    }
  }
  switch (op) {
    case '==':
      return (d) => a(d) == b(d);
    case '===':
      return (d) => a(d) === b(d);
    case '!=':
      return (d) => a(d) != b(d);
    case '!==':
      return (d) => a(d) !== b(d);
    default:
      return undefined;
  }
}

function compileEager(operation: EagerOperation, args: readonly Evaluator[]): Evaluator {
  const [a, b, c] = args;
  // fixed arities get straight-line closures
  if (args.length === 1 && a !== undefined) return (data) => operation(a(data));
  if (args.length === 2 && a !== undefined && b !== undefined) return (data) => operation(a(data), b(data));
  if (args.length === 3 && a !== undefined && b !== undefined && c !== undefined) return (data) => operation(a(data), b(data), c(data));
  return (data) => operation(...args.map((arg) => arg(data)));
}

/** Reads an own property only: facts are null-prototype, and a list item or string must not leak its prototype. */
function own(value: unknown, key: string): unknown {
  return Object.hasOwn(value as object, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function compileVar(path: unknown, fallback: Evaluator | undefined, scope: Scope): Evaluator {
  if (Array.isArray(path) || (path !== null && typeof path === 'object')) {
    throw new GateError('POLICY_INVALID', '`var` needs a literal path (a string or a whole number)');
  }
  const segments = pathSegments(path);
  const [only] = segments;
  if (fallback === undefined) {
    if (segments.length === 0) return (data) => data;
    if (segments.length === 1 && only !== undefined && scope === 'facts') {
      // the facts are a null-prototype object (see factsView): a plain read cannot reach a prototype
      return (data) => {
        if (data === null || data === undefined) return null;
        const value = (data as Record<string, unknown>)[only];
        return value === undefined ? null : value;
      };
    }
    if (segments.length === 1 && only !== undefined) {
      return (data) => {
        if (data === null || data === undefined) return null;
        const value = own(data, only);
        return value === undefined ? null : value;
      };
    }
  }
  // json-logic evaluates the default before the lookup, even when it goes unused
  const notFound: Evaluator = fallback === undefined ? () => null : (data) => fallback(data) ?? null;
  return (data) => {
    const otherwise = notFound(data);
    let value = data;
    for (const segment of segments) {
      if (value === null || value === undefined) return otherwise;
      value = own(value, segment);
      if (value === undefined) return otherwise;
    }
    return value;
  };
}

function compileMissing(keys: readonly unknown[], scope: Scope): Evaluator {
  const lookups = keys.map((key) => ({ key, read: compileVar(key, undefined, scope) }));
  return (data) => {
    const missing: unknown[] = [];
    for (const { key, read } of lookups) {
      const value = read(data);
      if (value === null || value === '') missing.push(key);
    }
    return missing;
  };
}

function compileMissingSome(need: Evaluator, keys: readonly unknown[], scope: Scope): Evaluator {
  const missing = compileMissing(keys, scope);
  return (data) => {
    const needCount = need(data);
    const absent = missing(data) as unknown[];
    return keys.length - absent.length >= (needCount as number) ? [] : absent;
  };
}

function compileIf(args: readonly Evaluator[]): Evaluator {
  return (data) => {
    let i = 0;
    for (; i < args.length - 1; i += 2) {
      if (truthy((args[i] as Evaluator)(data))) return (args[i + 1] as Evaluator)(data);
    }
    return i === args.length - 1 ? (args[i] as Evaluator)(data) : null;
  };
}

function compileAnd(args: readonly Evaluator[]): Evaluator {
  const [a, b] = args;
  if (args.length === 2 && a !== undefined && b !== undefined) {
    return (data) => {
      const first = a(data);
      return truthy(first) ? b(data) : first;
    };
  }
  return (data) => {
    let current: unknown;
    for (const arg of args) {
      current = arg(data);
      if (!truthy(current)) return current;
    }
    return current;
  };
}

function compileOr(args: readonly Evaluator[]): Evaluator {
  const [a, b] = args;
  if (args.length === 2 && a !== undefined && b !== undefined) {
    return (data) => {
      const first = a(data);
      return truthy(first) ? first : b(data);
    };
  }
  return (data) => {
    let current: unknown;
    for (const arg of args) {
      current = arg(data);
      if (truthy(current)) return current;
    }
    return current;
  };
}

function compileScoped(op: string, list: Evaluator, body: Evaluator): Evaluator {
  switch (op) {
    case 'filter':
      return (data) => {
        const items = list(data);
        return Array.isArray(items) ? items.filter((item) => truthy(body(item))) : [];
      };
    case 'map':
      return (data) => {
        const items = list(data);
        return Array.isArray(items) ? items.map((item) => body(item)) : [];
      };
    case 'all':
      return (data) => {
        const items = list(data);
        if (!Array.isArray(items) || items.length === 0) return false; // all of nothing is false in json-logic
        for (const item of items) if (!truthy(body(item))) return false;
        return true;
      };
    case 'none':
      return (data) => {
        const items = list(data);
        if (!Array.isArray(items)) return true;
        for (const item of items) if (truthy(body(item))) return false;
        return true;
      };
    case 'some':
      return (data) => {
        const items = list(data);
        if (!Array.isArray(items)) return false;
        for (const item of items) if (truthy(body(item))) return true;
        return false;
      };
    default:
      throw new GateError('POLICY_INVALID', `unknown operator \`${op}\``);
  }
}

function compileReduce(list: Evaluator, body: Evaluator, initial: Evaluator | undefined): Evaluator {
  return (data) => {
    const items = list(data);
    const start = initial === undefined ? null : initial(data);
    if (!Array.isArray(items)) return start;
    return items.reduce<unknown>((accumulator, current) => body({ current, accumulator }), start);
  };
}
