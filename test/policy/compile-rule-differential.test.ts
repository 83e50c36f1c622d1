import fc from 'fast-check';
import jsonLogic from 'json-logic-js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkRuleLogic } from '../../src/policy/check-rule.ts';
import { compileLogic, compileRule, factsPredicate } from '../../src/policy/compile-rule.ts';
import { customOperations, truthy } from '../../src/policy/json-logic-ops.ts';
import { freezeFacts, ruleFacts, type FactType, type RuleStage } from '../../src/policy/rule-facts.ts';

// Differential test: random expressions over the whole allow-list, on random facts, must give exactly
// what json-logic-js 2.0.5 `apply` gives (values, truthiness, coercions, and throwing or not).

const runs = 1000;

const stringPool = [
  '',
  'a',
  'abc',
  'A',
  '0',
  '1',
  '10',
  '-1',
  '1.5',
  'true',
  'null',
  ' ',
  'exe',
  'png',
  'https',
  'example.com',
  'docs.example.com',
  'a.b',
];
const str = fc.oneof(fc.constantFrom(...stringPool), fc.string({ maxLength: 4 }));
const num = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 2, 3, 10, 0.5, 1.5, -2.5, 100),
  fc.integer({ min: -50, max: 50 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
);
const literal = fc.oneof(str, num, fc.boolean(), fc.constant(null));

const eagerBinary = ['==', '===', '!=', '!==', '>', '>=', '/', '%', 'in', ...Object.keys(customOperations)];
const variadic = ['and', 'or', 'max', 'min', '+', '*', 'cat', 'merge', 'if'];

type Logic = unknown;

/** Expressions valid in every scope, built from `self` (same scope) and `elem`/`reduce` bodies. */
function compounds(
  self: fc.Arbitrary<Logic>,
  elem: fc.Arbitrary<Logic>,
  reduceBody: fc.Arbitrary<Logic>,
  list: fc.Arbitrary<Logic>,
  names: readonly string[],
): fc.Arbitrary<Logic>[] {
  const args = (min: number, max: number) => fc.array(self, { minLength: min, maxLength: max });
  const out: fc.Arbitrary<Logic>[] = [
    fc.tuple(fc.constantFrom(...eagerBinary), self, self).map(([op, a, b]) => ({ [op]: [a, b] })),
    fc.tuple(fc.constantFrom('<', '<='), args(2, 3)).map(([op, a]) => ({ [op]: a })),
    // a lone operand may be written without its list: {"!": x}
    fc
      .tuple(fc.constantFrom('!', '!!'), self, fc.boolean())
      .map(([op, a, bare]) => ({ [op]: bare && !Array.isArray(a) ? a : [a] })),
    fc.tuple(fc.constantFrom(...variadic), args(1, 4)).map(([op, a]) => ({ [op]: a })),
    args(1, 2).map((a) => ({ '-': a })),
    args(2, 3).map((a) => ({ substr: a })),
    args(3, 3).map((a) => ({ '?:': a })),
    fc.array(self, { maxLength: 3 }),
    fc
      .tuple(fc.constantFrom('some', 'all', 'none', 'map', 'filter'), list, elem)
      .map(([op, l, body]) => ({ [op]: [l, body] })),
    fc
      .tuple(list, reduceBody, fc.option(self, { nil: undefined }))
      .map(([l, body, init]) => ({ reduce: init === undefined ? [l, body] : [l, body, init] })),
  ];
  if (names.length > 0) {
    const name = fc.constantFrom(...names);
    out.push(
      fc
        .array(name, { minLength: 1, maxLength: 3 })
        .chain((ns) => fc.constantFrom<Logic>({ missing: ns }, { missing: [ns] })),
      fc
        .tuple(fc.integer({ min: 0, max: 3 }), fc.array(name, { maxLength: 3 }))
        .map(([n, ns]) => ({ missing_some: [n, ns] })),
    );
  }
  return out;
}

/** A `var` over one of `paths`, sometimes with a default, sometimes in the bare `{"var": "x"}` form. */
function varOf(paths: readonly string[], fallback: fc.Arbitrary<Logic>): fc.Arbitrary<Logic> {
  return fc
    .tuple(fc.constantFrom(...paths), fc.option(fallback, { nil: undefined }), fc.boolean())
    .map(([path, def, bare]) => {
      if (def !== undefined) return { var: [path, def] };
      return bare ? { var: path } : { var: [path] };
    });
}

function logicFor(stage: RuleStage): fc.Arbitrary<Logic> {
  const facts = Object.keys(ruleFacts[stage]);
  const lists = Object.entries(ruleFacts[stage] as Record<string, FactType>)
    .filter(([, type]) => type === 'string[]')
    .map(([name]) => name);
  const topPaths = [...facts, ...lists.flatMap((l) => [`${l}.0`, `${l}.2`])];
  const depth = { maxDepth: 4, depthSize: 'small' as const };
  const listFacts = lists.length > 0 ? lists.map((l) => ({ var: l })) : [{ var: facts[0] }];
  const { top } = fc.letrec<{ top: Logic; elem: Logic; reduce: Logic; literalList: Logic }>((tie) => {
    // lists to iterate: literal lists anywhere, the stage's list facts only where the facts are in scope
    const literalList = tie('literalList');
    const topList = fc.oneof(fc.constantFrom(...listFacts), literalList, tie('top'));
    return {
      // long lists too: `in` searches a literal list of more than 8 items through a Set
      literalList: fc.oneof(
        fc.array(literal, { maxLength: 4 }),
        fc.array(literal, { minLength: 9, maxLength: 12 }),
        fc.array(fc.array(literal, { maxLength: 2 }), { maxLength: 3 }),
      ),
      top: fc.oneof(
        depth,
        literal,
        varOf(topPaths, literal),
        ...compounds(tie('top'), tie('elem'), tie('reduce'), topList, topPaths),
      ),
      elem: fc.oneof(
        depth,
        literal,
        varOf([''], literal),
        ...compounds(tie('elem'), tie('elem'), tie('reduce'), fc.oneof(literalList, tie('elem')), ['']),
      ),
      reduce: fc.oneof(
        depth,
        literal,
        varOf(['current', 'accumulator'], literal),
        ...compounds(tie('reduce'), tie('elem'), tie('reduce'), fc.oneof(literalList, tie('reduce')), [
          'current',
          'accumulator',
        ]),
      ),
    };
  });
  return top;
}

function factValue(type: FactType): fc.Arbitrary<string | number | boolean | null | string[]> {
  switch (type) {
    case 'string':
      return str;
    case 'string?':
      return fc.option(str, { nil: null });
    case 'number':
      return num;
    case 'number?':
      return fc.option(num, { nil: null });
    case 'boolean':
      return fc.boolean();
    case 'string[]':
      return fc.array(str, { maxLength: 4 });
  }
}

function factsFor(stage: RuleStage) {
  const model: Record<string, fc.Arbitrary<string | number | boolean | null | string[]>> = {};
  for (const [name, type] of Object.entries(ruleFacts[stage] as Record<string, FactType>))
    model[name] = factValue(type);
  // some facts may be absent: a rule must treat them as json-logic treats a missing key
  return fc.record(model, { requiredKeys: Object.keys(model).slice(1) }).map(freezeFacts);
}

type Outcome = { threw: false; value: unknown } | { threw: true };

function outcome(run: () => unknown): Outcome {
  try {
    return { threw: false, value: run() };
  } catch {
    return { threw: true };
  }
}

beforeAll(() => {
  for (const [name, operation] of Object.entries(customOperations)) jsonLogic.add_operation(name, operation);
});
afterAll(() => {
  for (const name of Object.keys(customOperations)) jsonLogic.rm_operation(name);
});

describe.each(['link', 'read', 'credential'] as const)(
  'compiled rules equal json-logic-js apply (%s stage)',
  (stage) => {
    test(`${runs} random expressions over random facts`, () => {
      fc.assert(
        fc.property(logicFor(stage), factsFor(stage), (logic, facts) => {
          expect(checkRuleLogic(logic, stage)).toEqual([]);
          const ours = outcome(() => compileLogic(logic)(facts));
          const theirs = outcome(() => jsonLogic.apply(logic as jsonLogic.RulesLogic, facts));
          expect(ours).toEqual(theirs);
          // as a condition (the engine's path: the rule's predicate, facts checked once), throwing alike
          const rule = compileRule({ id: 'r', stage, effect: 'deny', message: 'm', when: logic });
          const condition = theirs.threw ? theirs : { threw: false, value: truthy(theirs.value) };
          expect(outcome(() => rule.test(facts))).toEqual(condition);
          expect(outcome(() => factsPredicate(rule)(facts))).toEqual(condition);
        }),
        { numRuns: runs },
      );
    });
  },
);
