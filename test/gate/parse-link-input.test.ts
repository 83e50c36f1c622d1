import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputSchemas, parseInput, parseLinkInput, parseWith } from '../../src/gate/inputs.ts';

const linkInputSchema = inputSchemas().link;

const item = { type: 'resource_link', uri: 'https://docs.example.com/a', name: 'a' };

describe('parseLinkInput: the hand-written check agrees with linkInputSchema', () => {
  it.each<[label: string, value: unknown]>([
    ['the minimal line', { stage: 'link', link: item }],
    [
      'every field',
      {
        stage: 'link',
        server: 'docs',
        readFrom: 'docs',
        link: { ...item, title: 't', description: 'd', mimeType: 'text/plain', size: 0 },
      },
    ],
    ['unknown link members are kept', { stage: 'link', link: { ...item, _meta: { a: 1 }, annotations: null } }],
    ['link members named like Object.prototype', { stage: 'link', link: { ...item, toString: 'x', constructor: 1 } }],
    ['a null-prototype line', Object.assign(Object.create(null) as object, { stage: 'link', link: item })],
    [
      'a class instance (zod accepts it)',
      new (class Line {
        stage = 'link';
        link = item;
      })(),
    ],
    [
      'an own `__proto__` link member',
      JSON.parse('{"stage":"link","link":{"type":"resource_link","uri":"u","name":"n","__proto__":{"x":1}}}'),
    ],
    [
      'a present but undefined optional field',
      { stage: 'link', server: undefined, link: { ...item, title: undefined } },
    ],
    ['negative and fractional sizes (judged by the decision)', { stage: 'link', link: { ...item, size: -1.5 } }],
    ['not an object', 'link'],
    ['null', null],
    ['an array', [{ stage: 'link', link: item }]],
    ['another stage', { stage: 'read', link: item }],
    ['no stage', { link: item }],
    ['no link', { stage: 'link', server: 'docs' }],
    ['link is an array', { stage: 'link', link: [item] }],
    ['wrong item type', { stage: 'link', link: { ...item, type: 'resource' } }],
    ['uri not a string', { stage: 'link', link: { ...item, uri: 5 } }],
    ['name missing', { stage: 'link', link: { type: 'resource_link', uri: 'u' } }],
    ['empty server', { stage: 'link', server: '', link: item }],
    ['readFrom not a string', { stage: 'link', readFrom: 1, link: item }],
    ['mimeType null', { stage: 'link', link: { ...item, mimeType: null } }],
    ['size a string', { stage: 'link', link: { ...item, size: '5' } }],
    ['size NaN', { stage: 'link', link: { ...item, size: Number.NaN } }],
    ['size infinite', { stage: 'link', link: { ...item, size: Infinity } }],
    ['an unknown top-level key', { stage: 'link', link: item, extra: 1 }],
    [
      'an own `__proto__` top-level key',
      JSON.parse('{"stage":"link","__proto__":{},"link":{"type":"resource_link","uri":"u","name":"n"}}'),
    ],
    [
      'an inherited enumerable key',
      Object.assign(Object.create({ inherited: 1 }) as object, { stage: 'link', link: item }),
    ],
  ])('%s', (_label, value) => {
    const fast = parseLinkInput(value);
    const zod = parseWith(linkInputSchema, value);
    expect(fast.ok).toBe(zod.ok);
    if (fast.ok && zod.ok) expect(fast.input).toEqual(zod.input);
    else expect(fast).toEqual(zod);
  });

  it.each<[label: string, value: unknown, field: string]>([
    ['uri not a string', { stage: 'link', link: { ...item, uri: 5 } }, 'link.uri'],
    ['no link', { stage: 'link' }, 'link'],
    ['empty server', { stage: 'link', server: '', link: item }, 'server'],
    ['size NaN', { stage: 'link', link: { ...item, size: Number.NaN } }, 'link.size'],
    ['an unknown key', { stage: 'link', link: item, extra: 1 }, '(line)'],
  ])('names the field: %s', (_label, value, field) => {
    const parsed = parseLinkInput(value);
    expect(parsed).toMatchObject({ ok: false, field });
    if (!parsed.ok)
      expect(parsed.message).toMatch(new RegExp(`^field \`${field.replace(/[.()]/g, '\\$&')}\`: [^\\n]+$`));
  });

  it('returns a plain line itself, without copying', () => {
    const line = { stage: 'link', server: 'docs', link: { ...item } };
    const parsed = parseLinkInput(line);
    expect(parsed.ok && parsed.input).toBe(line);
    expect(parseInput(line)).toEqual(parsed);
  });

  it('agrees with zod on lines of any shape', () => {
    const anyValue = fc.oneof(
      fc.constantFrom(undefined, null, '', 'link', 'resource_link', 0, -1, 1.5, Number.NaN, Infinity, true, [], {}),
      fc.string({ maxLength: 6 }),
      fc.double(),
    );
    // mostly valid fields, so both the accept path and each single-field failure are well covered
    const mostly = <T>(valid: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: anyValue, weight: 1 });
    const linkItem = fc.record(
      {
        type: mostly(fc.constant('resource_link')),
        uri: mostly(fc.oneof(fc.webUrl(), fc.string({ maxLength: 8 }))),
        name: mostly(fc.string({ maxLength: 8 })),
        title: mostly(fc.string({ maxLength: 4 })),
        mimeType: mostly(fc.constant('text/plain')),
        size: mostly(fc.oneof(fc.nat(), fc.double({ noNaN: true, noDefaultInfinity: true }))),
        _meta: anyValue,
      },
      { requiredKeys: ['type', 'uri', 'name'] },
    );
    const lineFields = {
      stage: mostly(fc.constant('link')),
      server: mostly(fc.constantFrom('docs', 'a')),
      readFrom: mostly(fc.constantFrom('docs', 'b')),
      link: fc.oneof({ arbitrary: linkItem, weight: 8 }, { arbitrary: anyValue, weight: 1 }),
      other: anyValue,
    };
    const line = fc.oneof(
      { arbitrary: anyValue, weight: 1 },
      // unknown `other` and missing `stage` or `link` only now and then
      { arbitrary: fc.record(lineFields, { requiredKeys: [] }), weight: 1 },
      {
        arbitrary: fc
          .record({ ...lineFields, other: fc.constant(undefined) }, { requiredKeys: ['stage', 'link'] })
          .map(({ other: _, ...rest }) => rest),
        weight: 8,
      },
    );
    fc.assert(
      fc.property(line, (value) => {
        const fast = parseLinkInput(value);
        const zod = parseWith(linkInputSchema, value);
        expect(fast.ok).toBe(zod.ok);
        if (fast.ok && zod.ok) expect(fast.input).toEqual(zod.input);
        else expect(fast).toEqual(zod);
      }),
      { numRuns: 3000 },
    );
  });
});
