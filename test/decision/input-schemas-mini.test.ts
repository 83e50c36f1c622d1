import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { credentialKinds, inputSchemas, parseWith } from '../../src/gate/inputs.ts';

const {
  link: linkInputSchema,
  read: readInputSchema,
  credential: credentialInputSchema,
  rpcError: rpcErrorSchema,
} = inputSchemas();

// The input schemas moved to zod's mini build (a hook event loads ~25 KB of zod instead of ~190 KB). These are the
// same schemas written with classic zod, as they were: for any value both must accept the same inputs, give the
// same data and name the same first issue, so no eval line, hook event or proxy read is judged differently.
const link = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
});
const classic = {
  link: z.strictObject({
    stage: z.literal('link'),
    server: z.string().min(1).optional(),
    readFrom: z.string().min(1).optional(),
    link,
    discovered: z.boolean().optional(),
  }),
  read: z.strictObject({
    stage: z.literal('read'),
    server: z.string().min(1).optional(),
    readFrom: z.string().min(1).optional(),
    link,
    elapsedMs: z.number().min(0).optional(),
    result: z.record(z.string(), z.unknown()),
  }),
  credential: z.strictObject({
    stage: z.literal('credential'),
    kind: z.enum(credentialKinds),
    from: z.string(),
    to: z.string(),
    via: z.array(z.string()).optional(),
  }),
  rpcError: z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
};
const mini: Record<keyof typeof classic, Parameters<typeof parseWith<unknown>>[0]> = {
  link: linkInputSchema,
  read: readInputSchema,
  credential: credentialInputSchema,
  rpcError: rpcErrorSchema,
};

function classicParse(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const field = path.length > 0 ? path.join('.') : '(line)';
  const what =
    issue?.code === 'unrecognized_keys'
      ? `unknown key ${issue.keys.map((k) => `\`${k}\``).join(', ')}`
      : (issue?.message ?? '').toLowerCase().replace(/\.$/, '');
  return { ok: false, field, message: `field \`${field}\`: ${what}` };
}

// values near the schemas' shapes, with every field sometimes right, sometimes wrong, sometimes missing or extra
const anyValue = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x', 0, -1, 1.5, Number.NaN, Infinity, true, [], {}),
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
);
const field = <T>(right: fc.Arbitrary<T>) => fc.option(fc.oneof(right, right, anyValue), { nil: undefined });
const linkValue = fc.record(
  {
    type: field(fc.constant('resource_link')),
    uri: field(fc.string({ maxLength: 8 })),
    name: field(fc.string({ maxLength: 4 })),
    title: field(fc.string({ maxLength: 4 })),
    mimeType: field(fc.constantFrom('text/plain', 'image/png')),
    size: field(fc.oneof(fc.nat(), fc.double())),
    _meta: field(fc.jsonValue({ maxDepth: 1 })),
  },
  { requiredKeys: [] },
);
const line = fc.record(
  {
    stage: field(fc.constantFrom('link', 'read', 'credential')),
    server: field(fc.string({ maxLength: 3 })),
    readFrom: field(fc.string({ maxLength: 3 })),
    link: field(linkValue),
    discovered: field(fc.boolean()),
    elapsedMs: field(fc.oneof(fc.nat(), fc.double())),
    result: field(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 })),
    kind: field(fc.constantFrom(...credentialKinds)),
    from: field(fc.constant('https://a.example/')),
    to: field(fc.constant('https://b.example/')),
    via: field(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })),
    code: field(fc.integer()),
    message: field(fc.string({ maxLength: 3 })),
    extra: field(fc.jsonValue({ maxDepth: 1 })),
  },
  { requiredKeys: [] },
);

describe('the input schemas on zod mini judge exactly as the classic ones did', () => {
  it.each(Object.keys(classic) as (keyof typeof classic)[])('%s: same acceptance, data and first issue', (name) => {
    fc.assert(
      fc.property(fc.oneof(line, anyValue), (value) => {
        expect(parseWith(mini[name], value)).toEqual(classicParse(classic[name], value));
      }),
      { numRuns: 2000 },
    );
  });

  it('messages are english whatever the value', () => {
    expect(parseWith(linkInputSchema, { stage: 'link', link: { type: 'resource_link', uri: 5, name: 'n' } })).toEqual({
      ok: false,
      field: 'link.uri',
      message: 'field `link.uri`: invalid input: expected string, received number',
    });
  });
});
