import { GateError } from '../errors.ts';
import { computedNode, type CompiledNode, type Evaluator, type Facts, type Scope } from './compiled-node.ts';
import { pathSegments } from './json-logic-ops.ts';

/** Reads an own property only: facts are null-prototype, and a list item or string must not leak its prototype. */
function own(value: unknown, key: string): unknown {
  return Object.hasOwn(value as object, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * Compiles `var` of a literal path, with json-logic's default (evaluated before the lookup); a plain read of one
 * top-level fact is marked with the fact's name so a parent can read it inline.
 */
export function compileVar(path: unknown, fallback: Evaluator | undefined, scope: Scope): CompiledNode {
  if (Array.isArray(path) || (path !== null && typeof path === 'object')) {
    throw new GateError('POLICY_INVALID', '`var` needs a literal path (a string or a whole number)');
  }
  const segments = pathSegments(path);
  const [only] = segments;
  if (fallback === undefined) {
    if (segments.length === 0) return computedNode((data) => data);
    if (segments.length === 1 && only !== undefined && scope === 'facts') {
      // the facts are a null-prototype object (checked with isRuleFacts): a plain read cannot reach a prototype
      const read: Evaluator = (data) => {
        const value = (data as Facts)[only];
        return value === undefined ? null : value;
      };
      return { evaluate: read, fact: only };
    }
    if (segments.length === 1 && only !== undefined) {
      return computedNode((data) => {
        if (data === null || data === undefined) return null;
        const value = own(data, only);
        return value === undefined ? null : value;
      });
    }
  }
  // json-logic evaluates the default before the lookup, even when it goes unused
  const notFound: Evaluator = fallback === undefined ? () => null : (data) => fallback(data) ?? null;
  return computedNode((data) => {
    const otherwise = notFound(data);
    let value = data;
    for (const segment of segments) {
      if (value === null || value === undefined) return otherwise;
      value = own(value, segment);
      if (value === undefined) return otherwise;
    }
    return value;
  });
}

/** Compiles `missing`: the keys whose `var` reads `null` or `""`, in order. */
export function compileMissing(keys: readonly unknown[], scope: Scope): Evaluator {
  const lookups = keys.map((key) => ({ key, read: compileVar(key, undefined, scope).evaluate }));
  return (data) => {
    const missing: unknown[] = [];
    for (const { key, read } of lookups) {
      const value = read(data);
      if (value === null || value === '') missing.push(key);
    }
    return missing;
  };
}

/** Compiles `missing_some`: `[]` when at least `need` of the keys are present, otherwise the missing ones. */
export function compileMissingSome(need: Evaluator, keys: readonly unknown[], scope: Scope): Evaluator {
  const missing = compileMissing(keys, scope);
  return (data) => {
    const needCount = need(data);
    const absent = missing(data) as unknown[];
    return keys.length - absent.length >= (needCount as number) ? [] : absent;
  };
}
