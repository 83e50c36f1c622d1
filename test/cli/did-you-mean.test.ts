import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/cli/did-you-mean.ts';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['origins', 'origins', 0],
    ['origns', 'origins', 1],
    ['orgiins', 'origins', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
  ])('%s → %s is %d', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('didYouMean', () => {
  it.each([
    ['origns', ['schemes', 'origins', 'servers'], 'origins'],
    ['Origins', ['origins'], 'origins'],
    ['polcy', ['policy', 'json'], 'policy'],
    ['maxbytes', ['maxBytes', 'maxItemBytes'], 'maxBytes'],
    ['zzz', ['origins', 'schemes'], null],
    ['a', ['b'], null],
    ['origins', ['origins'], null],
  ])('%s among %j → %s', (word, candidates, want) => {
    expect(didYouMean(word, candidates)).toBe(want);
  });
});
