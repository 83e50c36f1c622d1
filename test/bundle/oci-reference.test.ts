import { describe, expect, it } from 'vitest';
import { parseOciReference } from '../../src/bundle/oci-reference.ts';
import { GateError } from '../../src/errors.ts';

function refusal(text: string): GateError {
  try {
    parseOciReference(text, false);
  } catch (error) {
    if (error instanceof GateError) return error;
    throw error;
  }
  throw new Error(`expected \`${text.slice(0, 40)}…\` to be refused`);
}

describe('parseOciReference', () => {
  it('reads host, repository and tag', () => {
    expect(parseOciReference('oci://registry.example.com:5000/team/policy-bundle:1.2.0', false)).toEqual({
      host: 'registry.example.com:5000',
      repository: 'team/policy-bundle',
      tag: '1.2.0',
      baseUrl: 'https://registry.example.com:5000',
    });
  });

  it('refuses a path that does not percent-decode with GateError USAGE', () => {
    const error = refusal('oci://registry.example.com/team/%E0%A4:1');
    expect(error.code).toBe('USAGE');
    expect(error.message).toContain('does not percent-decode');
  });

  // each shape near the repository grammar that a backtracking matcher could retry, at 100 KB: the pattern must
  // refuse every one (it is linear: a failed match backtracks one character per step)
  it.each([
    ['a run of name characters', (n: number) => 'a'.repeat(n)],
    ['name-dash pairs', (n: number) => 'a-'.repeat(n / 2)],
    ['long dash runs', (n: number) => `a${'-'.repeat(20)}`.repeat(n / 21)],
    ['double underscores', (n: number) => 'a__'.repeat(n / 3)],
    ['path components', (n: number) => 'a/a-'.repeat(n / 4)],
    ['mixed separators', (n: number) => 'a.a_a__a-a'.repeat(n / 10)],
  ])('refuses 100 KB of %s that ends wrong', (_shape, make) => {
    const repository = `${make(100_000)}-`;
    const error = refusal(`oci://registry.example.com/${repository}:1`);
    expect(error.code).toBe('USAGE');
    expect(error.message).toContain('repository name');
  });
});
