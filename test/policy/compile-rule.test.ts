import jsonLogic from 'json-logic-js';
import { describe, expect, test } from 'vitest';
import { GateError } from '../../src/errors.ts';
import { compileLogic, compileRule, factsPredicate, isRuleFacts } from '../../src/policy/compile-rule.ts';
import { freezeFacts } from '../../src/policy/rule-facts.ts';

const facts = freezeFacts({
  server: 'docs',
  readFrom: 'docs',
  uri: 'https://docs.example.com/a',
  scheme: 'https',
  host: 'docs.example.com',
  port: 443,
  origin: 'https://docs.example.com',
  path: '/a',
  name: 'a',
  mimeType: null,
  size: 120,
  addressClass: null,
  customScheme: false,
  kinds: ['png', 'text', 'exe'],
  empty: [],
});

// name, expression, expected value (each row is also checked against json-logic-js itself)
const cases: [string, unknown, unknown][] = [
  ['var reads a fact', { var: 'scheme' }, 'https'],
  ['var in bare list form', { var: ['host'] }, 'docs.example.com'],
  ['var of a missing fact is null', { var: 'nope' }, null],
  ['var default when missing', { var: ['nope', 'fallback'] }, 'fallback'],
  ['var default is not used for a null fact', { var: ['mimeType', 'fallback'] }, null],
  ['var default may be an expression', { var: ['nope', { cat: ['a', 'b'] }] }, 'ab'],
  ['var index into a list fact', { var: 'kinds.1' }, 'text'],
  ['var index past the end is null', { var: 'kinds.9' }, null],
  ['var numeric path', { var: 0 }, null],
  ['missing lists absent and null facts', { missing: ['scheme', 'mimeType', 'nope'] }, ['mimeType', 'nope']],
  ['missing with one list argument', { missing: [['size', 'nope']] }, ['nope']],
  ['missing_some satisfied', { missing_some: [1, ['nope', 'scheme']] }, []],
  ['missing_some unsatisfied', { missing_some: [2, ['nope', 'scheme']] }, ['nope']],
  ['if picks the first truthy branch', { if: [false, 1, true, 2, 3] }, 2],
  ['if falls to the else', { if: [false, 1, 0, 2, 3] }, 3],
  ['if without else is null', { if: [false, 1] }, null],
  ['if with one argument returns it', { if: ['x'] }, 'x'],
  ['?: ternary', { '?:': [{ var: 'customScheme' }, 'custom', 'network'] }, 'network'],
  ['== coerces', { '==': [1, '1'] }, true],
  ['== null and undefined-like', { '==': [null, { var: 'nope' }] }, true],
  ['=== does not coerce', { '===': [1, '1'] }, false],
  ['!= coerces', { '!=': [0, ''] }, false],
  ['!== does not coerce', { '!==': [0, ''] }, true],
  ['! of an empty list is true', { '!': [[]] }, true],
  ['! bare operand', { '!': { var: 'customScheme' } }, true],
  ['!! of a non-empty string', { '!!': ['0'] }, true],
  ['!! of an empty list fact is false', { '!!': { var: 'empty' } }, false],
  ['or returns the first truthy value', { or: [0, '', 'x', 'y'] }, 'x'],
  ['or returns the last value when none is truthy', { or: [0, []] }, []],
  ['and returns the first falsy value', { and: [1, [], 2] }, []],
  ['and returns the last value', { and: [1, 'a', 2] }, 2],
  ['> numbers', { '>': [{ var: 'size' }, 100] }, true],
  ['> coerces strings', { '>': ['10', 9] }, true],
  ['>= equal', { '>=': [3, 3] }, true],
  ['< two arguments', { '<': [1, 2] }, true],
  ['< between, exclusive', { '<': [1, 1, 3] }, false],
  ['<= between, inclusive', { '<=': [1, 1, 3] }, true],
  ['max', { max: [1, 3, 2] }, 3],
  ['min', { min: [1, -3, 2] }, -3],
  ['max of a string is NaN', { max: ['a', 1] }, Number.NaN],
  ['+ parses strings', { '+': ['1.5', 2] }, 3.5],
  ['+ one argument casts', { '+': ['3'] }, 3],
  ['- binary', { '-': [5, 7] }, -2],
  ['- unary negates', { '-': [5] }, -5],
  ['* parses', { '*': ['2', 3] }, 6],
  ['* one argument returns it unchanged', { '*': ['3'] }, '3'],
  ['/ divides', { '/': [1, 4] }, 0.25],
  ['% remainder', { '%': [7, 3] }, 1],
  ['in a list', { in: ['exe', { var: 'kinds' }] }, true],
  ['in a literal list', { in: [{ var: 'scheme' }, ['http', 'https']] }, true],
  ['in a string', { in: ['example', { var: 'host' }] }, true],
  ['in a non-list is false', { in: ['1', 12] }, false],
  ['cat joins, null as empty', { cat: ['a', null, 1, [2, 3]] }, 'a12,3'],
  ['substr start', { substr: ['linkgate', 4] }, 'gate'],
  ['substr negative start', { substr: ['linkgate', -4] }, 'gate'],
  ['substr length', { substr: ['linkgate', 0, 4] }, 'link'],
  ['substr negative end', { substr: ['linkgate', 0, -4] }, 'link'],
  ['merge flattens one level', { merge: [1, [2, [3]], { var: 'empty' }] }, [1, 2, [3]]],
  ['some', { some: [{ var: 'kinds' }, { '==': [{ var: '' }, 'exe'] }] }, true],
  ['some of an empty list is false', { some: [{ var: 'empty' }, true] }, false],
  ['all', { all: [{ var: 'kinds' }, { '>': [{ cat: [{ var: '' }] }, ''] }] }, true],
  ['all of an empty list is false', { all: [{ var: 'empty' }, true] }, false],
  ['none', { none: [{ var: 'kinds' }, { '==': [{ var: '' }, 'elf'] }] }, true],
  ['none of a non-list is true', { none: [{ var: 'scheme' }, true] }, true],
  ['map', { map: [[1, 2], { '*': [{ var: '' }, 2] }] }, [2, 4]],
  ['map of a non-list is an empty list', { map: [{ var: 'size' }, 1] }, []],
  ['filter', { filter: [{ var: 'kinds' }, { '!=': [{ var: '' }, 'text'] }] }, ['png', 'exe']],
  [
    'reduce with an initial value',
    { reduce: [[1, 2, 3], { '+': [{ var: 'current' }, { var: 'accumulator' }] }, 10] },
    16,
  ],
  [
    'reduce without an initial value starts from null',
    { reduce: [[1, 2], { cat: [{ var: 'accumulator' }, { var: 'current' }] }] },
    '12',
  ],
  ['reduce of a non-list is the initial value', { reduce: [{ var: 'size' }, 1, 'init'] }, 'init'],
  ['a literal list is evaluated item by item', [{ var: 'scheme' }, 1], ['https', 1]],
  ['a literal is itself', 'text', 'text'],
];

describe('compiled operators give json-logic-js results', () => {
  test.each(cases)('%s', (_name, logic, want) => {
    expect(compileLogic(logic)(facts)).toEqual(want);
    expect(jsonLogic.apply(logic as jsonLogic.RulesLogic, facts)).toEqual(want);
  });
});

// linkgate's own operators, which json-logic-js does not have
const customCases: [string, unknown, unknown][] = [
  ['lg_suffix on a label boundary', { lg_suffix: [{ var: 'host' }, 'example.com'] }, true],
  ['lg_suffix is not a substring match', { lg_suffix: ['badexample.com', 'example.com'] }, false],
  ['lg_suffix equal host', { lg_suffix: ['example.com', 'example.com'] }, true],
  ['lg_suffix ignores a leading `*.`', { lg_suffix: ['a.example.com', '*.example.com'] }, true],
  ['lg_suffix ignores a leading `.`', { lg_suffix: ['a.example.com', '.example.com'] }, true],
  ['lg_suffix is case-insensitive and ignores a trailing dot', { lg_suffix: ['A.Example.COM.', 'example.com'] }, true],
  ['lg_suffix of a null host is false', { lg_suffix: [{ var: 'mimeType' }, 'example.com'] }, false],
  ['lg_suffix with an empty suffix is false', { lg_suffix: ['example.com', ''] }, false],
  ['lg_startsWith', { lg_startsWith: [{ var: 'uri' }, 'https://docs.'] }, true],
  ['lg_startsWith is case-sensitive', { lg_startsWith: [{ var: 'uri' }, 'HTTPS://'] }, false],
  ['lg_startsWith of a non-string is false', { lg_startsWith: [{ var: 'size' }, '1'] }, false],
  ['lg_endsWith', { lg_endsWith: [{ var: 'path' }, '/a'] }, true],
  ['lg_endsWith of a non-string is false', { lg_endsWith: [{ var: 'size' }, '0'] }, false],
];

describe('custom lg_ operators', () => {
  test.each(customCases)('%s', (_name, logic, want) => {
    expect(compileLogic(logic)(facts)).toBe(want);
  });
});

describe('facts are read without their prototype', () => {
  const inherited = Object.create({ host: 'evil.example' }) as Record<string, unknown>;
  inherited.scheme = 'https';
  test.each([
    ['a plain object with an inherited fact', inherited, { var: 'host' }, null],
    ['its own fact still reads', inherited, { var: 'scheme' }, 'https'],
    [
      'a list item does not leak its prototype',
      freezeFacts({ kinds: ['png'] }),
      { some: [{ var: 'kinds' }, { var: '' }] },
      true,
    ],
  ])('%s', (_name, data, logic, want) => {
    expect(compileLogic(logic)(data)).toEqual(want);
  });

  test('a polluted Object.prototype is never read', () => {
    const key = 'lgPollutedFact';
    Object.defineProperty(Object.prototype, key, { value: 'polluted', configurable: true });
    try {
      expect(jsonLogic.apply({ var: key }, {})).toBe('polluted'); // what this guards against
      expect(compileLogic({ var: key })({ scheme: 'https' })).toBeNull();
      expect(compileLogic({ some: [[1, 'a', [2]], { var: key }] })({})).toBe(false);
      expect(compileLogic({ reduce: [[1], { var: key }] })({})).toBeNull();
    } finally {
      delete (Object.prototype as Record<string, unknown>)[key];
    }
  });
});

describe('compileRule', () => {
  const rule = (when: unknown, stage: 'link' | 'read' | 'credential' = 'link') => ({
    id: 'r',
    stage,
    effect: 'deny' as const,
    message: 'm',
    when,
  });

  test.each([
    ['truthy string', { var: 'scheme' }, true],
    ['empty list is falsy', { filter: [{ var: 'uri' }, true] }, false],
    ['zero is falsy', { '-': [1, 1] }, false],
    ['null is falsy', { var: 'mimeType' }, false],
  ])('test() applies json-logic truthiness: %s', (_name, when, want) => {
    expect(compileRule(rule(when)).test(facts)).toBe(want);
  });

  test('keeps id, stage, effect and message, and is frozen', () => {
    const compiled = compileRule({
      id: 'no-exe',
      stage: 'read',
      effect: 'partial',
      message: 'no executables',
      when: true,
    });
    expect(compiled).toMatchObject({ id: 'no-exe', stage: 'read', effect: 'partial', message: 'no executables' });
    expect(Object.isFrozen(compiled)).toBe(true);
  });

  test.each([
    ['unknown operator', { log: 1 }, /unknown operator `log`/],
    ['wrong arity', { '==': [1] }, /`==` takes 2 arguments, got 1/],
    ['fact of another stage', { var: 'kinds' }, /stage `link` has no fact `kinds`/],
    ['forbidden segment', { var: 'host.constructor' }, /names `constructor`/],
  ])('rejects %s with POLICY_INVALID', (_name, when, message) => {
    const run = () => compileRule(rule(when));
    expect(run).toThrow(GateError);
    expect(run).toThrow(message);
  });
});

// The engine reads a rule as a condition: these shapes get their own closures (a fact read inline, `!` of an
// equality turned into the opposite equality, `in` on a string fact, a long list through a Set); each row is
// checked against json-logic-js truthiness, on frozen facts and on a plain object with the same fields.
const linkFacts = freezeFacts({
  server: 'docs',
  scheme: 'https',
  host: 'docs.example.com',
  uri: 'https://docs.example.com:443/a',
  name: 'a',
  mimeType: null,
  size: 120,
}); // no `port`
const readFacts = freezeFacts({ server: 'docs', kinds: ['png', 'text', 'exe'], mimeTypes: [], totalBytes: 0 });
const longList = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', null, 0];
const conditionCases: [string, 'link' | 'read', unknown][] = [
  ['fact == literal', 'link', { '==': [{ var: 'scheme' }, 'https'] }],
  ['literal == fact', 'link', { '==': ['https', { var: 'scheme' }] }],
  ['missing fact == null', 'link', { '==': [{ var: 'port' }, null] }],
  ['missing fact === null', 'link', { '===': [{ var: 'port' }, null] }],
  ['missing fact !== null', 'link', { '!==': [{ var: 'port' }, null] }],
  ['null fact === null', 'link', { '===': [{ var: 'mimeType' }, null] }],
  ['fact === literal of another type', 'link', { '===': [{ var: 'size' }, '120'] }],
  ['fact == literal coerces', 'link', { '==': [{ var: 'size' }, '120'] }],
  ['missing fact < 1 reads as null, which is 0', 'link', { '<': [{ var: 'port' }, 1] }],
  ['literal > missing fact', 'link', { '>': [1, { var: 'port' }] }],
  ['literal <= fact', 'link', { '<=': [120, { var: 'size' }] }],
  ['fact >= literal string', 'link', { '>=': [{ var: 'size' }, '121'] }],
  ['! of != is ==', 'link', { '!': { '!=': [{ var: 'name' }, 'a'] } }],
  ['! of == is !=', 'link', { '!': [{ '==': [{ var: 'name' }, 'a'] }] }],
  ['! of === is !==', 'link', { '!': { '===': [{ var: 'size' }, 120] } }],
  ['! of !== is ===', 'link', { '!': { '!==': [{ var: 'port' }, null] } }],
  ['! of a comparison', 'link', { '!': { '>': [{ var: 'size' }, 100] } }],
  ['!! of a list fact', 'read', { '!!': { var: 'kinds' } }],
  ['!! of an empty list fact', 'read', { '!!': { var: 'mimeTypes' } }],
  ['literal in a string fact', 'link', { in: ['docs', { var: 'host' }] }],
  ['empty needle in a string fact', 'link', { in: ['', { var: 'host' }] }],
  ['literal in a missing fact', 'link', { in: ['a', { var: 'port' }] }],
  ['literal in a list fact', 'read', { in: ['exe', { var: 'kinds' }] }],
  ['number in a string fact coerces', 'link', { in: [443, { var: 'uri' }] }],
  ['fact in a short list', 'link', { in: [{ var: 'scheme' }, ['http', 'https']] }],
  ['fact in a long list', 'link', { in: [{ var: 'name' }, longList] }],
  ['fact not in a long list', 'link', { in: [{ var: 'scheme' }, longList] }],
  ['missing fact in a long list with null', 'link', { in: [{ var: 'port' }, longList] }],
  ['null fact in a long list with null', 'link', { in: [{ var: 'mimeType' }, longList] }],
  ['fact in a literal string', 'link', { in: [{ var: 'name' }, 'abc'] }],
  [
    'and of conditions',
    'link',
    { and: [{ '>': [{ var: 'size' }, 100] }, { '==': [{ var: 'scheme' }, 'https'] }, { var: 'host' }] },
  ],
  ['and returning a falsy value', 'read', { and: [{ var: 'server' }, { var: 'mimeTypes' }] }],
  ['or of conditions', 'link', { or: [{ '==': [{ var: 'server' }, 'evil'] }, { '<': [{ var: 'size' }, 0] }] }],
  ['or returning a truthy value', 'read', { or: [{ var: 'totalBytes' }, { var: 'kinds' }] }],
  ['if as a condition', 'read', { if: [{ var: 'totalBytes' }, true, { var: 'mimeTypes' }, 1, { var: 'kinds' }] }],
  ['if without else', 'link', { if: [false, 1] }],
  ['var with a default', 'link', { var: ['port', 'x'] }],
  ['a literal list', 'link', [0]],
  ['an empty literal list', 'link', []],
  ['a falsy literal', 'link', 0],
];

describe('rules read as conditions agree with json-logic-js truthiness', () => {
  test.each(conditionCases)('%s', (_name, stage, when) => {
    const compiled = compileRule({ id: 'r', stage, effect: 'deny', message: 'm', when });
    const frozen = stage === 'link' ? linkFacts : readFacts;
    for (const data of [frozen, Object.fromEntries(Object.entries(frozen))]) {
      const want = jsonLogic.truthy(jsonLogic.apply(when as jsonLogic.RulesLogic, data));
      expect(compiled.test(data)).toBe(want);
      expect(jsonLogic.truthy(compileLogic(when)(data))).toBe(want);
    }
    expect(factsPredicate(compiled)(frozen)).toBe(compiled.test(frozen));
  });
});

describe('isRuleFacts', () => {
  test.each([
    ['frozen facts', facts, true],
    ['a null-prototype object', Object.create(null) as unknown, true],
    ['a plain object', { scheme: 'https' }, false],
    ['a list', [], false],
    ['null', null, false],
    ['a string', 'facts', false],
  ])('%s: %s', (_name, data, want) => {
    expect(isRuleFacts(data)).toBe(want);
  });
});
