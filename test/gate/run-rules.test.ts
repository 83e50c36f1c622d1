import { describe, expect, test } from 'vitest';
import { runRules } from '../../src/gate/run-rules.ts';
import type { CompiledRule } from '../../src/policy/compile-rule.ts';
import { freezeFacts, type RuleFacts, type RuleStage } from '../../src/policy/rule-facts.ts';
import { assemblePolicy, type Policy } from '../../src/policy/policy.ts';
import { testPolicy } from './policy-fixture.ts';

const policy = testPolicy({
  rules: [
    {
      id: 'gopher',
      stage: 'link',
      effect: 'deny',
      message: 'no gopher',
      when: { '==': [{ var: 'scheme' }, 'gopher'] },
    },
    { id: 'big', stage: 'read', effect: 'partial', message: 'big read', when: { '>': [{ var: 'totalBytes' }, 100] } },
    { id: 'docs', stage: 'link', effect: 'partial', message: 'docs host', when: { in: ['docs', { var: 'host' }] } },
    { id: 'not-a', stage: 'link', effect: 'deny', message: 'named a', when: { '!': { '!=': [{ var: 'name' }, 'a'] } } },
    { id: 'hops', stage: 'credential', effect: 'deny', message: 'many hops', when: { '>': [{ var: 'hops' }, 2] } },
  ],
});

const link = (fields: Record<string, string | number | null>): RuleFacts =>
  freezeFacts({ scheme: 'https', host: 'example.com', name: 'x', ...fields });

describe('runRules', () => {
  test.each<[string, RuleStage, RuleFacts, string[]]>([
    ['no rule fires', 'link', link({}), []],
    ['one link rule', 'link', link({ scheme: 'gopher' }), ['rule.gopher']],
    [
      'hits keep policy order',
      'link',
      link({ name: 'a', scheme: 'gopher', host: 'docs.example.com' }),
      ['rule.gopher', 'rule.docs', 'rule.not-a'],
    ],
    ['only the stage asked for', 'read', freezeFacts({ totalBytes: 1000, scheme: 'gopher' }), ['rule.big']],
    ['credential stage', 'credential', freezeFacts({ hops: 3 }), ['rule.hops']],
    ['a missing fact reads as null', 'credential', freezeFacts({}), []],
  ])('%s', (_name, stage, facts, want) => {
    expect(runRules(policy, stage, facts).map((h) => h.reason.code)).toEqual(want);
  });

  test('a hit carries the rule effect and a located reason', () => {
    expect(runRules(policy, 'read', freezeFacts({ totalBytes: 101 }))).toEqual([
      { effect: 'partial', reason: { code: 'rule.big', rule: 'rules.big', stage: 'read', message: 'big read' } },
    ]);
  });

  test('facts that are not null-prototype go through the checked test and never read a prototype', () => {
    const inherited = Object.create({ scheme: 'gopher', name: 'a' }) as Record<string, unknown>;
    inherited.host = 'docs.example.com';
    expect(runRules(policy, 'link', inherited as RuleFacts).map((h) => h.reason.code)).toEqual(['rule.docs']);
  });

  test('each call returns a fresh list', () => {
    const facts = link({ scheme: 'gopher' });
    const first = runRules(policy, 'link', facts);
    first.pop();
    expect(runRules(policy, 'link', facts)).toHaveLength(1);
  });

  test.each([
    ['frozen facts', link({})],
    ['a plain object', { scheme: 'https' }],
  ])('a rule not built by compileRule runs through its own test, and its throw propagates (%s)', (_name, facts) => {
    const explodes: CompiledRule = Object.freeze({
      id: 'explodes',
      stage: 'link',
      effect: 'deny',
      message: 'm',
      test: () => {
        throw new Error('boom');
      },
    });
    const withRule: Policy = assemblePolicy({ ...policy, rules: [...policy.rules, explodes] });
    expect(() => runRules(withRule, 'link', facts)).toThrow('boom');
  });
});
