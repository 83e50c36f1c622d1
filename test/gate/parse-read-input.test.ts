import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputSchemas, parseInput, parseReadInput, parseWith } from '../../src/gate/inputs.ts';

const readInputSchema = inputSchemas().read;

const link = { type: 'resource_link', uri: 'guide://manuals/packing', name: 'packing' };
const result = { resultType: 'complete', contents: [{ uri: link.uri, text: 'hi' }] };

function agree(value: unknown): void {
  const fast = parseReadInput(value);
  const zod = parseWith(readInputSchema, value);
  expect(fast.ok).toBe(zod.ok);
  if (fast.ok && zod.ok) expect(fast.input).toEqual(zod.input);
  else expect(fast).toEqual(zod);
}

describe('parseReadInput: the hand-written check agrees with readInputSchema', () => {
  it.each<[label: string, value: unknown]>([
    ['the minimal line', { stage: 'read', link, result }],
    ['every field', { stage: 'read', server: 'docs', readFrom: 'docs', link, elapsedMs: 0, result }],
    ['a json-rpc error result', { stage: 'read', link, result: { error: { code: -32602, message: 'nope' } } }],
    ['an empty result object (judged by the decision)', { stage: 'read', link, result: {} }],
    ['a null-prototype result', { stage: 'read', link, result: Object.assign(Object.create(null) as object, result) }],
    [
      'an own `__proto__` in the result',
      JSON.parse(`{"stage":"read","link":${JSON.stringify(link)},"result":{"__proto__":{"contents":[]}}}`),
    ],
    ['result is an array', { stage: 'read', link, result: [result] }],
    ['result is null', { stage: 'read', link, result: null }],
    ['no result', { stage: 'read', link }],
    ['no link', { stage: 'read', result }],
    ['link uri not a string', { stage: 'read', link: { ...link, uri: 1 }, result }],
    ['negative elapsedMs', { stage: 'read', link, result, elapsedMs: -1 }],
    ['infinite elapsedMs', { stage: 'read', link, result, elapsedMs: Infinity }],
    ['elapsedMs a string', { stage: 'read', link, result, elapsedMs: '3' }],
    ['empty readFrom', { stage: 'read', link, result, readFrom: '' }],
    ['another stage', { stage: 'link', link, result }],
    ['an unknown key', { stage: 'read', link, result, extra: 1 }],
    [
      'an inherited enumerable key',
      Object.assign(Object.create({ inherited: 1 }) as object, { stage: 'read', link, result }),
    ],
  ])('%s', (_label, value) => agree(value));

  it('returns a plain line itself, without copying, and parseInput takes the same path', () => {
    const line = { stage: 'read', server: 'docs', link: { ...link }, result: { ...result } };
    const parsed = parseReadInput(line);
    expect(parsed.ok && parsed.input).toBe(line);
    expect(parseInput(line)).toEqual(parsed);
  });

  it('agrees with zod on lines of any shape', () => {
    const anyValue = fc.oneof(
      fc.constantFrom(undefined, null, '', 'read', 0, -1, 1.5, Number.NaN, Infinity, true, [], {}),
      fc.string({ maxLength: 6 }),
      fc.double(),
    );
    const mostly = <T>(valid: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: anyValue, weight: 1 });
    const line = fc.record(
      {
        stage: mostly(fc.constant('read')),
        server: mostly(fc.constantFrom('docs', 'a')),
        readFrom: mostly(fc.constantFrom('docs', 'b')),
        elapsedMs: mostly(fc.oneof(fc.nat(), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }))),
        link: mostly(
          fc.record(
            { type: mostly(fc.constant('resource_link')), uri: mostly(fc.string()), name: mostly(fc.string()) },
            { requiredKeys: [] },
          ),
        ),
        result: mostly(fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }))),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof({ arbitrary: line, weight: 9 }, { arbitrary: anyValue, weight: 1 }), (value) =>
        agree(value),
      ),
      { numRuns: 3000 },
    );
  });
});
