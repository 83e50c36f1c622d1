import { GateError } from '../errors.ts';
import { checkRuleLogic } from './check-rule.ts';
import {
  customOperations,
  eagerOperation,
  operatorSpecs,
  pathSegments,
  truthy,
  type EagerOperation,
  type OperatorSpec,
} from './json-logic-ops.ts';
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

/** A compiled json-logic node: evaluates against one datum (the facts, or a list item inside `some`/`map`/…). */
export type Evaluator = (data: unknown) => unknown;

/** A compiled `when` read as a condition (its json-logic truthiness), for facts that pass `isRuleFacts`. */
export type FactsPredicate = (facts: RuleFacts) => boolean;

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
  const root = compileNode(logic, false, 'facts');
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
    evaluate ??= compileNode(logic, false, 'item');
    return evaluate(data);
  };
}

/** The facts as the `facts` scope reads them: a null-prototype object (checked before the root is called). */
type Facts = Readonly<Record<string, unknown>>;

/** Where a node is evaluated: on the top-level facts (a null-prototype object), or on anything else (a list item, a `reduce` pair, foreign data). */
type Scope = 'facts' | 'item';

/** Literal values of constant evaluators, so parents can inline them. */
const constants = new WeakMap<Evaluator, { readonly value: unknown }>();

/** Fact names of evaluators that are a plain `var` of one top-level fact, so parents can read the fact inline. */
const factReads = new WeakMap<Evaluator, string>();

function constant(value: unknown): Evaluator {
  const evaluate: Evaluator = () => value;
  constants.set(evaluate, { value });
  return evaluate;
}

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object';

// Eager operations that never hand back an argument as their result; `*` with one argument does (`[x].reduce`).
const consumingOperators = new Set([
  '==',
  '===',
  '!=',
  '!==',
  '>',
  '>=',
  '<',
  '<=',
  '!',
  '!!',
  '%',
  'in',
  'cat',
  'substr',
  '+',
  '-',
  '/',
  'min',
  'max',
  'merge',
]);

/** An operator node: its name, its arguments (a lone operand wrapped in a list, as json-logic does) and its spec. */
interface Operation {
  readonly op: string;
  readonly args: readonly unknown[];
  readonly spec: OperatorSpec;
}

/** `logic` as an operator node, or undefined for a literal or a list; throws for an unknown operator or a wrong arity. */
function parseOperation(logic: unknown): Operation | undefined {
  if (Array.isArray(logic) || logic === null || typeof logic !== 'object' || Object.keys(logic).length !== 1)
    return undefined;
  const op = Object.keys(logic)[0] as string;
  const raw = (logic as Record<string, unknown>)[op];
  const args: readonly unknown[] = Array.isArray(raw) ? raw : [raw];
  const spec = operatorSpecs.get(op);
  if (spec === undefined) throw new GateError('POLICY_INVALID', `unknown operator \`${op}\``);
  if (args.length < spec.minArgs || args.length > spec.maxArgs) {
    throw new GateError('POLICY_INVALID', `\`${op}\` cannot take ${args.length} arguments`);
  }
  return { op, args, spec };
}

/**
 * `shared`: the parent consumes this value without returning it, so a literal list of primitives may be one
 * frozen list for every evaluation; elsewhere json-logic makes a fresh list each time, and `==` could tell.
 */
function compileNode(logic: unknown, shared: boolean, scope: Scope): Evaluator {
  if (Array.isArray(logic)) {
    if (shared && logic.every(isPrimitive)) return constant(Object.freeze([...(logic as unknown[])]));
    const items = logic.map((item) => compileNode(item, false, scope));
    return (data) => items.map((item) => item(data));
  }
  const operation = parseOperation(logic);
  if (operation === undefined) return constant(logic);
  const { op, args, spec } = operation;
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
      const eager = eagerOperation(op);
      if (eager === undefined) throw new GateError('POLICY_INVALID', `unknown operator \`${op}\``);
      const compiled = all(consumingOperators.has(op));
      return compileComparison(op, compiled) ?? compileEager(eager, compiled);
    }
  }
}

// Operators whose result is always a boolean: as a condition they need no `truthy`.
const booleanOperators = new Set([
  '==',
  '===',
  '!=',
  '!==',
  '>',
  '>=',
  '<',
  '<=',
  '!',
  '!!',
  'in',
  'some',
  'all',
  'none',
  ...Object.keys(customOperations),
]);

// `!` of one of these is the other, exactly (JavaScript defines `!=` as the negation of `==`).
const negatedComparisons: Readonly<Record<string, string>> = { '==': '!=', '!=': '==', '===': '!==', '!==': '===' };

/**
 * Compiles `logic` as a condition on the facts: the same evaluation as `truthy(compileNode(logic))` (the same
 * operands, in the same order, throwing alike), without building values only to test them: `and`/`or`/`if`
 * and `!`/`!!` combine conditions, and `!` of an equality becomes the opposite equality.
 */
function compilePredicate(logic: unknown): FactsPredicate {
  const operation = parseOperation(logic);
  if (operation === undefined) {
    if (Array.isArray(logic)) return asPredicate(compileNode(logic, false, 'facts'));
    const value = truthy(logic);
    return () => value;
  }
  const { op, args } = operation;
  switch (op) {
    case '!': {
      const inner = parseOperation(args[0]);
      const opposite = inner === undefined ? undefined : negatedComparisons[inner.op];
      if (inner !== undefined && opposite !== undefined && inner.args.length === 2)
        return compilePredicate({ [opposite]: inner.args });
      const test = compilePredicate(args[0]);
      return (facts) => !test(facts);
    }
    case '!!':
      return compilePredicate(args[0]);
    case 'and':
      return allOf(args.map(compilePredicate));
    case 'or':
      return anyOf(args.map(compilePredicate));
    case 'if':
    case '?:':
      return ifPredicate(args.map(compilePredicate));
    case 'var': {
      const read = compileNode(logic, false, 'facts');
      const name = factReads.get(read);
      return name === undefined ? asPredicate(read) : (facts) => truthy(facts[name]);
    }
    default: {
      const evaluate = compileNode(logic, false, 'facts');
      return booleanOperators.has(op) ? (evaluate as FactsPredicate) : asPredicate(evaluate);
    }
  }
}

function asPredicate(evaluate: Evaluator): FactsPredicate {
  return (facts) => truthy(evaluate(facts));
}

function allOf(tests: readonly FactsPredicate[]): FactsPredicate {
  const [a, b] = tests;
  if (tests.length === 1 && a !== undefined) return a;
  if (tests.length === 2 && a !== undefined && b !== undefined) return (facts) => a(facts) && b(facts);
  return (facts) => {
    for (const test of tests) if (!test(facts)) return false;
    return true;
  };
}

function anyOf(tests: readonly FactsPredicate[]): FactsPredicate {
  const [a, b] = tests;
  if (tests.length === 1 && a !== undefined) return a;
  if (tests.length === 2 && a !== undefined && b !== undefined) return (facts) => a(facts) || b(facts);
  return (facts) => {
    for (const test of tests) if (test(facts)) return true;
    return false;
  };
}

/** `if` as a condition: the chosen branch as a condition; no branch chosen and no else is `null`, false. */
function ifPredicate(tests: readonly FactsPredicate[]): FactsPredicate {
  return (facts) => {
    let i = 0;
    for (; i < tests.length - 1; i += 2) {
      if ((tests[i] as FactsPredicate)(facts)) return (tests[i + 1] as FactsPredicate)(facts);
    }
    return i === tests.length - 1 ? (tests[i] as FactsPredicate)(facts) : false;
  };
}

// A literal list longer than this is searched through a Set rather than `indexOf`.
const maxScannedListItems = 8;

/**
 * `in` of a fact among a literal list of primitives, as `indexOf` (strict equality, so NaN is never found); a
 * missing fact is `null`, as `var` reads it.
 */
function factInList(name: string, list: readonly unknown[]): Evaluator {
  if (list.length <= maxScannedListItems) {
    return (facts) => {
      const value = (facts as Facts)[name];
      return list.indexOf(value === undefined ? null : value) !== -1;
    };
  }
  const items = new Set(list);
  return (facts) => {
    const value = (facts as Facts)[name];
    // a Set finds NaN (SameValueZero) where indexOf does not; +0 and -0 match in both
    return value === undefined ? items.has(null) : value === value && items.has(value);
  };
}

/** `in` of a literal needle in a fact: on a string fact, `indexOf` inline; otherwise json-logic's `in`. */
function literalInFact(needle: unknown, name: string): Evaluator {
  return (facts) => {
    const haystack = (facts as Facts)[name];
    if (typeof haystack === 'string') return haystack !== '' && haystack.indexOf(needle as string) !== -1;
    return isIn(needle, haystack === undefined ? null : haystack);
  };
}

const isIn = eagerOperation('in') as EagerOperation;

/** A comparison of one fact with a literal, the fact read inline (a missing fact is `null`, as `var` reads it). */
function compareFact(op: string, name: string, v: unknown, factFirst: boolean): Evaluator | undefined {
  const read = (facts: unknown): unknown => {
    const value = (facts as Facts)[name];
    return value === undefined ? null : value;
  };
  switch (op) {
    // equality is symmetric; `undefined == v` exactly when `null == v`, so the loose forms need no `null`
    case '==':
      return (facts) => (facts as Facts)[name] == v;
    case '!=':
      return (facts) => (facts as Facts)[name] != v;
    case '===':
      return v === null ? (facts) => read(facts) === null : (facts) => (facts as Facts)[name] === v;
    case '!==':
      return v === null ? (facts) => read(facts) !== null : (facts) => (facts as Facts)[name] !== v;
    // the casts only quiet the type checker; json-logic compares with JavaScript's loose coercions
    case '>':
      return factFirst
        ? (facts) => (read(facts) as number) > (v as number)
        : (facts) => (v as number) > (read(facts) as number);
    case '>=':
      return factFirst
        ? (facts) => (read(facts) as number) >= (v as number)
        : (facts) => (v as number) >= (read(facts) as number);
    case '<':
      return factFirst
        ? (facts) => (read(facts) as number) < (v as number)
        : (facts) => (v as number) < (read(facts) as number);
    case '<=':
      return factFirst
        ? (facts) => (read(facts) as number) <= (v as number)
        : (facts) => (v as number) <= (read(facts) as number);
    case 'in':
      if (!factFirst) return literalInFact(v, name);
      if (Array.isArray(v)) return factInList(name, v);
      return undefined;
    default:
      return undefined;
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
  const factA = factReads.get(a);
  if (factA !== undefined && k !== undefined) {
    const fused = compareFact(op, factA, k.value, true);
    if (fused !== undefined) return fused;
  }
  const kA = constants.get(a);
  const factB = factReads.get(b);
  if (kA !== undefined && factB !== undefined) {
    const fused = compareFact(op, factB, kA.value, false);
    if (fused !== undefined) return fused;
  }
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
  if (args.length === 3 && a !== undefined && b !== undefined && c !== undefined)
    return (data) => operation(a(data), b(data), c(data));
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
      // the facts are a null-prototype object (checked with isRuleFacts): a plain read cannot reach a prototype
      const read: Evaluator = (data) => {
        const value = (data as Facts)[only];
        return value === undefined ? null : value;
      };
      factReads.set(read, only);
      return read;
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
        return Array.isArray(items) ? (items as unknown[]).filter((item) => truthy(body(item))) : [];
      };
    case 'map':
      return (data) => {
        const items = list(data);
        return Array.isArray(items) ? (items as unknown[]).map((item) => body(item)) : [];
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
    return (items as unknown[]).reduce<unknown>((accumulator, current) => body({ current, accumulator }), start);
  };
}
