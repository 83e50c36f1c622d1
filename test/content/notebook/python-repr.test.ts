// Python's repr of a JSON value, which nbconvert writes raw for an output that is no string: the oracle is python3
// itself (`repr(json.loads(…))`, as nbformat reads the notebook). Under CI=true a missing python3 fails.
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { pythonRepr } from '../../../src/content/notebook/python-repr.ts';
import { mustRunRealParts } from '../../real-host/host-suite.ts';

function pythonSays(json: string): string | undefined {
  try {
    return execFileSync('python3', ['-c', 'import json,sys; sys.stdout.write(repr(json.loads(sys.argv[1])))', json], {
      encoding: 'utf8',
    });
  } catch (error) {
    if (mustRunRealParts()) throw error;
    return undefined;
  }
}

describe("python's repr of json values", () => {
  test.for([
    ['an object holding markup', { summary: '<img src=x onerror=fetch(`http://ran.test/`)>' }],
    ['quotes of both kinds', { "it's": 'say "hi"', only: "it's" }],
    ['escapes and non-printable characters', { t: 'a\tb\nc\rd\\e\u0007\u00a0\u200b\u2028é😀' }],
    ['literals and nesting', [true, false, null, 1, -2.5, 'x', ['<p>'], { rows: ['<b>'] }]],
    ['an empty object and list', { a: {}, b: [] }],
  ] as const)('%s', ([, value], ctx) => {
    const json = JSON.stringify(value);
    const expected = pythonSays(json);
    if (expected === undefined) return ctx.skip('no python3 here');
    expect(pythonRepr(JSON.parse(json))).toBe(expected);
  });

  test('an object whose key order javascript does not keep is unknown', () => {
    expect(pythonRepr(JSON.parse('{"<img src=x": "", "1": " onerror=alert(1)>"}'))).toBeNull();
    expect(pythonRepr(JSON.parse('{"1": "<b>"}'))).toBe("{'1': '<b>'}");
  });
});
