import { GateError } from '../errors.ts';
import type { Evaluator } from './compiled-node.ts';
import { truthy } from './json-logic-ops.ts';

// Operators that steer evaluation: a branch of `if`/`and`/`or` or a list operator's body runs only where
// json-logic-js runs it, so a throwing operand throws alike.

/** Compiles `if` / `?:`: the value of the first branch whose condition holds, else the last operand or `null`. */
export function compileIf(args: readonly Evaluator[]): Evaluator {
  return (data) => {
    let i = 0;
    for (; i < args.length - 1; i += 2) {
      if (truthy((args[i] as Evaluator)(data))) return (args[i + 1] as Evaluator)(data);
    }
    return i === args.length - 1 ? (args[i] as Evaluator)(data) : null;
  };
}

/** Compiles `and`: the first falsy operand, else the last. */
export function compileAnd(args: readonly Evaluator[]): Evaluator {
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

/** Compiles `or`: the first truthy operand, else the last. */
export function compileOr(args: readonly Evaluator[]): Evaluator {
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

/** Compiles `filter`, `map`, `all`, `none` and `some`: `body` runs on each item of `list`. */
export function compileScoped(op: string, list: Evaluator, body: Evaluator): Evaluator {
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
      return (data) => !someItem(list(data), body);
    case 'some':
      return (data) => someItem(list(data), body);
    default:
      throw new GateError('POLICY_INVALID', `unknown operator \`${op}\``);
  }
}

// true when `body` holds for an item, stopping at the first; a value that is not a list has no items
function someItem(items: unknown, body: Evaluator): boolean {
  if (!Array.isArray(items)) return false;
  for (const item of items) if (truthy(body(item))) return true;
  return false;
}

/** Compiles `reduce`: `body` runs on `{ current, accumulator }` for each item, starting from `initial` or `null`. */
export function compileReduce(list: Evaluator, body: Evaluator, initial: Evaluator | undefined): Evaluator {
  return (data) => {
    const items = list(data);
    const start = initial === undefined ? null : initial(data);
    if (!Array.isArray(items)) return start;
    return (items as unknown[]).reduce<unknown>((accumulator, current) => body({ current, accumulator }), start);
  };
}
