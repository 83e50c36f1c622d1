import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fastCheckSettings } from './fast-check.ts';

/** Runs a property that fails on large numbers with long strings; returns fast-check's failure message. */
function failureOf(seed: number | undefined): string {
  const property = fc.property(fc.integer(), fc.string(), (n, s) => n < 1000 || s.length < 2);
  try {
    fc.assert(property, seed === undefined ? {} : { seed });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the property was meant to fail');
}

describe('fast-check runs can be replayed', () => {
  test('a failing property names its seed, and that seed replays the same counterexample', () => {
    const first = failureOf(undefined);
    const seed = /\{ seed: (-?\d+)/.exec(first)?.[1];
    expect(seed).toBeDefined();
    const counterexample = (message: string) => /Counterexample: (.*)/.exec(message)?.[1];
    const replay = failureOf(fastCheckSettings({ FC_SEED: seed }).seed);
    expect(counterexample(first)).toBeDefined();
    expect(counterexample(replay)).toBe(counterexample(first));
  });

  test('the seed comes from FC_SEED, and what is not an integer is refused', () => {
    expect(fastCheckSettings({})).toEqual({});
    expect(fastCheckSettings({ FC_SEED: '-1860745852' })).toEqual({ seed: -1860745852 });
    expect(() => fastCheckSettings({ FC_SEED: 'abc' })).toThrow('FC_SEED must be an integer, got `abc`');
  });

  test('the global settings are in force for every property', () => {
    expect(fc.readConfigureGlobal()).toMatchObject(fastCheckSettings(process.env));
  });
});
