import { describe, expect, it } from 'vitest';
import { combineEffects, strongerEffect, type Effect } from '../../src/decision/decision.ts';

describe('effects', () => {
  it.each([
    ['allow', 'allow', 'allow'],
    ['allow', 'partial', 'partial'],
    ['partial', 'allow', 'partial'],
    ['deny', 'partial', 'deny'],
    ['partial', 'deny', 'deny'],
    ['allow', 'deny', 'deny'],
  ] as [Effect, Effect, Effect][])('%s with %s is %s: deny beats partial beats allow', (a, b, want) => {
    expect(strongerEffect(a, b)).toBe(want);
  });

  it('combines any number of effects, allow when there are none', () => {
    expect(combineEffects([])).toBe('allow');
    expect(combineEffects(['allow', 'partial', 'allow'])).toBe('partial');
    expect(combineEffects(['partial', 'deny', 'allow'])).toBe('deny');
  });
});
