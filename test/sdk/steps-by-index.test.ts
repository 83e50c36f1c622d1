// A tool result's link steps handed to the proxy by `content` index (`onToolResultSteps`, `onEarlyItems`): one array
// indexed by position, read as the `Map` the decorator made before, set in the same order.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { LinkStep } from '../../src/flow/link-steps.ts';
import { StepsByIndex } from '../../src/sdk/steps-by-index.ts';

// a stand-in step per index: only its identity is read here
const stepAt = (i: number) => ({ discovered: { contentIndex: i } }) as unknown as LinkStep;

describe('StepsByIndex', () => {
  test('property: reads as the Map set in the same order, for keys in it and keys not', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 20 }), (raw) => {
        const indices = [...raw].sort((a, b) => a - b);
        const steps = indices.map(stepAt);
        const map = new Map(indices.map((i, k) => [i, steps[k] as LinkStep]));
        const made = new StepsByIndex(indices, steps);
        expect(made.size).toBe(map.size);
        for (const key of [-1, 0, 0.5, 1, 7, 39, 40, 41, Number.NaN, 2 ** 53])
          expect([made.get(key), made.has(key)]).toEqual([map.get(key), map.has(key)]);
        expect([...made]).toEqual([...map]);
        expect([...made.entries()]).toEqual([...map.entries()]);
        expect([...made.keys()]).toEqual([...map.keys()]);
        expect([...made.values()]).toEqual([...map.values()]);
        const seen: [number, LinkStep][] = [];
        const self = {};
        made.forEach(function (this: unknown, value, key, whole) {
          expect(this).toBe(self);
          expect(whole).toBe(made);
          seen.push([key, value]);
        }, self);
        expect(seen).toEqual([...map]);
      }),
      { numRuns: 300 },
    );
  });

  test('fits only increasing indices, each a safe integer from 0', () => {
    expect(StepsByIndex.fits([])).toBe(true);
    expect(StepsByIndex.fits([0, 1, 5])).toBe(true);
    expect(StepsByIndex.fits([1, 1])).toBe(false);
    expect(StepsByIndex.fits([2, 1])).toBe(false);
    expect(StepsByIndex.fits([-1])).toBe(false);
    expect(StepsByIndex.fits([null])).toBe(false);
    expect(StepsByIndex.fits([1.5])).toBe(false);
    expect(StepsByIndex.fits([2 ** 32 - 2])).toBe(true);
    expect(StepsByIndex.fits([2 ** 32 - 1])).toBe(false);
  });
});
