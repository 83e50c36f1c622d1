import { GateError } from '../errors.ts';
import { compileComparison, compileEager } from './compile-eager.ts';
import { compileAnd, compileIf, compileOr, compileReduce, compileScoped } from './compile-lazy.ts';
import { compileMissing, compileMissingSome, compileVar } from './compile-var.ts';
import { computedNode, literalNode, type CompiledNode, type Evaluator, type Scope } from './compiled-node.ts';
import { booleanEagerOperators, eagerOperation, operatorSpecs, type OperatorSpec } from './json-logic-ops.ts';

const isPrimitive = (value: unknown): boolean => value === null || typeof value !== 'object';

// Eager operations that never hand back an argument as their result; `*` with one argument does (`[x].reduce`).
const consumingOperators: ReadonlySet<string> = new Set([
  ...booleanEagerOperators,
  '%',
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
export interface Operation {
  readonly op: string;
  readonly args: readonly unknown[];
  readonly spec: OperatorSpec;
}

/** `logic` as an operator node, or undefined for a literal or a list; throws for an unknown operator or a wrong arity. */
export function parseOperation(logic: unknown): Operation | undefined {
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
 * Compiles one json-logic node for `scope`. `shared`: the parent consumes this value without returning it, so a
 * literal list of primitives may be one frozen list for every evaluation; elsewhere json-logic makes a fresh list
 * each time, and `==` could tell.
 */
export function compileNode(logic: unknown, shared: boolean, scope: Scope): CompiledNode {
  if (Array.isArray(logic)) {
    if (shared && logic.every(isPrimitive)) return literalNode(Object.freeze([...(logic as unknown[])]));
    const items = logic.map((item) => compileNode(item, false, scope).evaluate);
    return computedNode((data) => items.map((item) => item(data)));
  }
  const operation = parseOperation(logic);
  if (operation === undefined) return literalNode(logic);
  const { op, args, spec } = operation;
  const arg = (i: number, share = false): Evaluator => compileNode(args[i], share, scope).evaluate;
  const all = (): Evaluator[] => args.map((a) => compileNode(a, false, scope).evaluate);
  const body = (i: number): Evaluator => compileNode(args[i], false, 'item').evaluate;
  switch (spec.kind) {
    case 'var':
      return compileVar(args[0], args.length > 1 ? arg(1) : undefined, scope);
    case 'missing':
      return computedNode(compileMissing(Array.isArray(args[0]) ? args[0] : args, scope));
    case 'missing_some':
      return computedNode(compileMissingSome(arg(0), Array.isArray(args[1]) ? args[1] : [args[1]], scope));
    case 'if':
      return computedNode(compileIf(all()));
    case 'and':
      return computedNode(compileAnd(all()));
    case 'or':
      return computedNode(compileOr(all()));
    case 'scoped':
      return computedNode(compileScoped(op, arg(0, true), body(1)));
    case 'reduce':
      return computedNode(compileReduce(arg(0, true), body(1), args.length > 2 ? arg(2) : undefined));
    case 'eager': {
      const eager = eagerOperation(op);
      if (eager === undefined) throw new GateError('POLICY_INVALID', `unknown operator \`${op}\``);
      const share = consumingOperators.has(op);
      const operands = args.map((a) => compileNode(a, share, scope));
      const evaluators = operands.map((operand) => operand.evaluate);
      return computedNode(compileComparison(op, operands) ?? compileEager(eager, evaluators));
    }
  }
}
