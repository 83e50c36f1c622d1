import type { CompiledNode, Evaluator, Facts } from './compiled-node.ts';
import { eagerOperation, truthy, type EagerOperation } from './json-logic-ops.ts';

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

/**
 * Straight-line closures for the hot operators (negation, two-operand comparisons), a literal operand or a read
 * of one fact inlined; undefined when `op` has none (`compileEager` then applies the operation as is).
 */
export function compileComparison(op: string, operands: readonly CompiledNode[]): Evaluator | undefined {
  const [first, second] = operands;
  if (operands.length === 1 && first !== undefined) {
    const a = first.evaluate;
    if (op === '!') return (d) => !truthy(a(d));
    if (op === '!!') return (d) => truthy(a(d));
    return undefined;
  }
  if (operands.length !== 2 || first === undefined || second === undefined) return undefined;
  const k = second.literal;
  if (first.fact !== undefined && k !== undefined) {
    const fused = compareFact(op, first.fact, k.value, true);
    if (fused !== undefined) return fused;
  }
  const kA = first.literal;
  if (kA !== undefined && second.fact !== undefined) {
    const fused = compareFact(op, second.fact, kA.value, false);
    if (fused !== undefined) return fused;
  }
  const a = first.evaluate;
  const b = second.evaluate;
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

/** Applies an eager operation to its evaluated operands, in order. */
export function compileEager(operation: EagerOperation, args: readonly Evaluator[]): Evaluator {
  const [a, b, c] = args;
  // fixed arities get straight-line closures
  if (args.length === 1 && a !== undefined) return (data) => operation(a(data));
  if (args.length === 2 && a !== undefined && b !== undefined) return (data) => operation(a(data), b(data));
  if (args.length === 3 && a !== undefined && b !== undefined && c !== undefined)
    return (data) => operation(a(data), b(data), c(data));
  return (data) => operation(...args.map((arg) => arg(data)));
}
