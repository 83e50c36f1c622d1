import { compileNode, parseOperation } from './compile-node.ts';
import type { Evaluator } from './compiled-node.ts';
import { booleanEagerOperators, customOperations, truthy } from './json-logic-ops.ts';
import type { RuleFacts } from './rule-facts.ts';

/** A compiled `when` read as a condition (its json-logic truthiness), for facts that pass `isRuleFacts`. */
export type FactsPredicate = (facts: RuleFacts) => boolean;

// Operators whose result is always a boolean: as a condition they need no `truthy`.
const booleanOperators: ReadonlySet<string> = new Set([
  ...booleanEagerOperators,
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
export function compilePredicate(logic: unknown): FactsPredicate {
  const operation = parseOperation(logic);
  if (operation === undefined) {
    if (Array.isArray(logic)) return asPredicate(compileNode(logic, false, 'facts').evaluate);
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
      const name = read.fact;
      return name === undefined ? asPredicate(read.evaluate) : (facts) => truthy(facts[name]);
    }
    default: {
      const { evaluate } = compileNode(logic, false, 'facts');
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
