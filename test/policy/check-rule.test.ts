import { describe, expect, test } from 'vitest';
import { checkRuleLogic } from '../../src/policy/check-rule.ts';
import type { RuleStage } from '../../src/policy/rule-facts.ts';

type Want = { code: string; path: (string | number)[]; at: 'key' | 'value' };

// stage, when, expected issues (code, path below `when`, key or value)
const rejected: [string, RuleStage, unknown, Want[]][] = [
  ['unknown operator', 'link', { log: 'x' }, [{ code: 'logic.unknown-operator', path: ['log'], at: 'key' }]],
  [
    'dotted operator',
    'link',
    { 'Math.max': [1, 2] },
    [{ code: 'logic.unknown-operator', path: ['Math.max'], at: 'key' }],
  ],
  [
    'operator named __proto__',
    'link',
    JSON.parse('{"__proto__": [1]}') as unknown,
    [{ code: 'logic.unknown-operator', path: ['__proto__'], at: 'key' }],
  ],
  ['== with one argument', 'link', { '==': [1] }, [{ code: 'logic.arity', path: ['=='], at: 'key' }]],
  ['! with two arguments', 'link', { '!': [1, 2] }, [{ code: 'logic.arity', path: ['!'], at: 'key' }]],
  ['?: with two arguments', 'link', { '?:': [1, 2] }, [{ code: 'logic.arity', path: ['?:'], at: 'key' }]],
  ['and with no arguments', 'link', { and: [] }, [{ code: 'logic.arity', path: ['and'], at: 'key' }]],
  [
    'some with one argument',
    'read',
    { some: [{ var: 'kinds' }] },
    [{ code: 'logic.arity', path: ['some'], at: 'key' }],
  ],
  ['var with three arguments', 'link', { var: ['a', 1, 2] }, [{ code: 'logic.arity', path: ['var'], at: 'key' }]],
  ['var of another stage', 'link', { var: 'kinds' }, [{ code: 'logic.unknown-fact', path: ['var'], at: 'value' }]],
  [
    'var misspelled, list form',
    'link',
    { '==': [{ var: ['hots'] }, 'a'] },
    [{ code: 'logic.unknown-fact', path: ['==', 0, 'var', 0], at: 'value' }],
  ],
  ['var of the whole facts', 'link', { var: '' }, [{ code: 'logic.unknown-fact', path: ['var'], at: 'value' }]],
  [
    'var below a string fact',
    'link',
    { var: 'host.length' },
    [{ code: 'logic.unknown-fact', path: ['var'], at: 'value' }],
  ],
  [
    'var named index into a list fact',
    'read',
    { var: 'kinds.length' },
    [{ code: 'logic.unknown-fact', path: ['var'], at: 'value' }],
  ],
  ['var __proto__', 'link', { var: '__proto__' }, [{ code: 'logic.forbidden-path', path: ['var'], at: 'value' }]],
  [
    'var constructor below a fact',
    'link',
    { var: 'host.constructor' },
    [{ code: 'logic.forbidden-path', path: ['var'], at: 'value' }],
  ],
  [
    'var prototype in a list item',
    'read',
    { some: [{ var: 'kinds' }, { var: 'prototype' }] },
    [{ code: 'logic.forbidden-path', path: ['some', 1, 'var'], at: 'value' }],
  ],
  [
    'computed var path',
    'link',
    { var: { cat: ['ho', 'st'] } },
    [{ code: 'logic.invalid-expression', path: ['var'], at: 'value' }],
  ],
  ['negative var index', 'read', { var: -1 }, [{ code: 'logic.invalid-expression', path: ['var'], at: 'value' }]],
  [
    'missing of an unknown fact',
    'credential',
    { missing: ['kind', 'knd'] },
    [{ code: 'logic.unknown-fact', path: ['missing', 1], at: 'value' }],
  ],
  [
    'missing with a computed name',
    'credential',
    { missing: [{ var: 'kind' }] },
    [{ code: 'logic.invalid-expression', path: ['missing', 0], at: 'value' }],
  ],
  [
    'missing_some without a literal list',
    'credential',
    { missing_some: [1, 'kind'] },
    [{ code: 'logic.invalid-expression', path: ['missing_some', 1], at: 'value' }],
  ],
  [
    'missing_some of a forbidden name',
    'credential',
    { missing_some: [1, ['constructor']] },
    [{ code: 'logic.forbidden-path', path: ['missing_some', 1, 0], at: 'value' }],
  ],
  [
    'a string item has no fields',
    'read',
    { some: [{ var: 'kinds' }, { var: 'name' }] },
    [{ code: 'logic.unknown-fact', path: ['some', 1, 'var'], at: 'value' }],
  ],
  [
    'stage facts are out of scope in a list body',
    'read',
    { some: [{ var: 'kinds' }, { var: 'uri' }] },
    [{ code: 'logic.unknown-fact', path: ['some', 1, 'var'], at: 'value' }],
  ],
  [
    'reduce offers only current and accumulator',
    'read',
    { reduce: [{ var: 'kinds' }, { var: 'total' }, 0] },
    [{ code: 'logic.unknown-fact', path: ['reduce', 1, 'var'], at: 'value' }],
  ],
  [
    'an object with two keys',
    'link',
    { and: [{ '==': [1, 1], '!=': [1, 2] }] },
    [{ code: 'logic.invalid-expression', path: ['and', 0], at: 'value' }],
  ],
  ['an empty object', 'link', {}, [{ code: 'logic.invalid-expression', path: [], at: 'value' }]],
  [
    'a non-finite number',
    'link',
    { '>': [{ var: 'size' }, Number.POSITIVE_INFINITY] },
    [{ code: 'logic.invalid-expression', path: ['>', 1], at: 'value' }],
  ],
  [
    'every issue is reported',
    'link',
    { and: [{ foo: 1 }, { var: 'x' }, { '!': [] }] },
    [
      { code: 'logic.unknown-operator', path: ['and', 0, 'foo'], at: 'key' },
      { code: 'logic.unknown-fact', path: ['and', 1, 'var'], at: 'value' },
      { code: 'logic.arity', path: ['and', 2, '!'], at: 'key' },
    ],
  ],
];

describe('checkRuleLogic rejects', () => {
  test.each(rejected)('%s', (_name, stage, when, want) => {
    const issues = checkRuleLogic(when, stage).map(({ code, path, at }) => ({ code, path, at }));
    expect(issues).toEqual(want);
    for (const issue of checkRuleLogic(when, stage)) expect(issue.message).toMatch(/^[a-z`][^\n]*[^.]$/);
  });
});

const accepted: [string, RuleStage, unknown][] = [
  ['a literal', 'link', true],
  ['a list of expressions', 'link', [{ var: 'host' }, 1]],
  ['var with a default', 'link', { var: ['port', 443] }],
  ['var null means the datum in a list body', 'read', { some: [{ var: 'kinds' }, { '==': [{ var: null }, 'exe'] }] }],
  ['numeric index into a list fact', 'read', { '==': [{ var: 'kinds.0' }, 'png'] }],
  ['numeric var path into a list fact', 'read', { map: [[{ var: 'kinds' }], { var: 0 }] }],
  ['indexes into unknown items', 'read', { map: [[[1, 2]], { var: '0.1' }] }],
  [
    'filter keeps the item type',
    'read',
    { some: [{ filter: [{ var: 'kinds' }, true] }, { in: [{ var: '' }, ['exe', 'elf']] }] },
  ],
  [
    'reduce current and accumulator',
    'read',
    { reduce: [{ var: 'kinds' }, { cat: [{ var: 'accumulator' }, { var: 'current' }] }, ''] },
  ],
  [
    'missing and missing_some',
    'credential',
    { or: [{ missing: ['fromOrigin', 'toOrigin'] }, { missing_some: [1, ['kind', 'hops']] }] },
  ],
  [
    'custom operators',
    'link',
    { or: [{ lg_suffix: [{ var: 'host' }, 'example.com'] }, { lg_startsWith: [{ var: 'uri' }, 'https:'] }] },
  ],
  ['between', 'read', { '<=': [1, { var: 'itemCount' }, 8] }],
];

describe('checkRuleLogic accepts', () => {
  test.each(accepted)('%s', (_name, stage, when) => {
    expect(checkRuleLogic(when, stage)).toEqual([]);
  });
});
