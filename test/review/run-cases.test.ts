import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import { compareDecisions } from '../../src/review/diff-policies.ts';
import { compareDecision, ruleCoverage, UniqueNames } from '../../src/review/run-cases.ts';

const ref = { id: 'p', version: '1.0.0', digest: 'sha256:0' };
const reason = (code: string, rule = 'x') => ({
  code: code as Decision['reasons'][number]['code'],
  rule,
  stage: 'link' as const,
  message: 'm',
});
const decision = (effect: Decision['effect'], codes: string[] = [], items?: Decision['effect'][]): Decision => ({
  effect,
  reasons: codes.map((c) => reason(c, c)),
  ...(items === undefined ? {} : { items: items.map((e, index) => ({ index, effect: e, reasons: [] })) }),
  policy: ref,
});

describe('comparing a decision with what a case wants', () => {
  it.each([
    {
      name: 'equal',
      want: { effect: 'deny' as const, reasons: ['uri.userinfo'] },
      got: decision('deny', ['uri.userinfo', 'uri.invalid']),
      failures: [],
    },
    {
      name: 'effect',
      want: { effect: 'allow' as const },
      got: decision('deny', ['uri.userinfo']),
      failures: ['effect: want `allow`, got `deny`'],
    },
    {
      name: 'missing reason',
      want: { effect: 'deny' as const, reasons: ['uri.invalid'] },
      got: decision('deny', ['uri.userinfo']),
      failures: ['reasons: want `uri.invalid` among them, got `uri.userinfo`'],
    },
    {
      name: 'item effect',
      want: { effect: 'partial' as const, items: [{ index: 1, effect: 'deny' as const }] },
      got: decision('partial', [], ['allow', 'partial']),
      failures: ['items[1].effect: want `deny`, got `partial`'],
    },
    {
      name: 'no items',
      want: { effect: 'allow' as const, items: [{ index: 0, effect: 'allow' as const }] },
      got: decision('allow'),
      failures: ['items[0]: want an item, got no items'],
    },
  ])('$name', ({ want, got, failures }) => {
    expect(compareDecision(want, got)).toEqual(failures);
  });
});

describe('rule coverage', () => {
  it('counts targets that fired in some decision or item', () => {
    const d = decision('deny', ['links.schemes']);
    const withItem: Decision = {
      ...decision('partial'),
      items: [{ index: 0, effect: 'partial', reasons: [reason('content.unsafe-text', 'content.allow')] }],
    };
    expect(ruleCoverage(['content.allow', 'links.origins', 'links.schemes'], [d, withItem])).toEqual({
      targets: ['content.allow', 'links.origins', 'links.schemes'],
      covered: ['content.allow', 'links.schemes'],
      missed: ['links.origins'],
      percent: 66.6,
    });
    expect(ruleCoverage([], []).percent).toBe(100);
  });
});

describe('diff of two decisions', () => {
  it.each([
    { old: decision('deny', ['a']), new: decision('allow'), direction: 'loosening' },
    { old: decision('deny', ['a']), new: decision('partial', ['a']), direction: 'loosening' },
    { old: decision('partial', ['a']), new: decision('allow'), direction: 'loosening' },
    { old: decision('allow'), new: decision('deny', ['a']), direction: 'tightening' },
    { old: decision('deny', ['a']), new: decision('deny', ['b']), direction: 'neutral' },
    {
      old: decision('partial', ['a'], ['deny', 'allow']),
      new: decision('partial', ['a'], ['allow', 'allow']),
      direction: 'loosening',
    },
  ])('$old.effect → $new.effect is $direction', ({ old, new: after, direction }) => {
    expect(compareDecisions(old, after)?.direction).toBe(direction);
  });

  it('finds nothing between equal decisions', () => {
    expect(compareDecisions(decision('deny', ['a']), decision('deny', ['a']))).toBeUndefined();
  });
});

describe('unique names', () => {
  it('suffixes repeats, never colliding with a note that looks like a suffix', () => {
    const names = new UniqueNames();
    expect(['a', 'a (2)', 'a', 'a'].map((n) => names.take(n))).toEqual(['a', 'a (2)', 'a (3)', 'a (4)']);
  });
});
