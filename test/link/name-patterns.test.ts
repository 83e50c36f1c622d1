import { describe, expect, it } from 'vitest';
import { compileNamePatterns, matchesNamePatterns, noNamePatterns } from '../../src/link/name-patterns.ts';

describe('name patterns', () => {
  const patterns = compileNamePatterns(['Build.Example.COM', '*.corp.example.com', 'faß.de.', '*.ＩＮＴＲＡ.example']);

  it.each([
    ['build.example.com', true],
    ['a.corp.example.com', true],
    ['a.b.corp.example.com', true],
    ['corp.example.com', false],
    ['xcorp.example.com', false],
    ['xn--fa-hia.de', true],
    ['x.intra.example', true],
    ['example.com', false],
  ])('%s → %s', (name, match) => {
    expect(matchesNamePatterns(patterns, name)).toBe(match);
  });

  it('the empty list matches nothing', () => {
    expect(matchesNamePatterns(noNamePatterns, 'localhost')).toBe(false);
  });
});
