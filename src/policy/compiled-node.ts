/** A compiled json-logic node: evaluates against one datum (the facts, or a list item inside `some`/`map`/…). */
export type Evaluator = (data: unknown) => unknown;

/** A compiled node with what a parent may inline instead of calling `evaluate`; built at load, then dropped. */
export interface CompiledNode {
  readonly evaluate: Evaluator;
  /** set for a literal: its value, so a parent compares with it inline */
  readonly literal?: { readonly value: unknown };
  /** set for a plain `var` of one top-level fact: the fact's name, so a parent reads the fact inline */
  readonly fact?: string;
}

/** The facts as the `facts` scope reads them: a null-prototype object (checked before the root is called). */
export type Facts = Readonly<Record<string, unknown>>;

/** Where a node is evaluated: on the top-level facts (a null-prototype object), or on anything else (a list item, a `reduce` pair, foreign data). */
export type Scope = 'facts' | 'item';

/** A node whose value is only known when it runs: nothing for a parent to inline. */
export function computedNode(evaluate: Evaluator): CompiledNode {
  return { evaluate };
}

/** A literal node: always `value`, which a parent may inline. */
export function literalNode(value: unknown): CompiledNode {
  return { evaluate: () => value, literal: { value } };
}
