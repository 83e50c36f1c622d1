import fc from 'fast-check';
import { credentialKinds } from '../../src/gate/inputs.ts';
import { ruleFacts, type FactType, type RuleStage } from '../../src/policy/rule-facts.ts';

// Generated eval lines (DESIGN §4) for property tests over the whole decision pipeline: mostly well-formed, so the
// checks and custom rules run, with hostile values mixed in (odd uris, broken base64, both carriers, odd resultTypes).

const hosts = [
  'example.com',
  'docs.example.org',
  '93.184.215.14',
  '127.0.0.1',
  '169.254.169.254',
  '[::1]',
  '10.0.0.8',
  'localhost',
  'intranet',
  '0x7f.1',
  'xn--e1afmkfd.xn--p1ai',
];
const schemes = ['https', 'http', 'guide', 'demo', 'file', 'javascript', 'data', 'gopher', 'ws', 'ftp', 'HTTPS'];
const mimeTypes = [
  'text/plain',
  'text/markdown',
  'application/json',
  'image/png',
  'image/svg+xml',
  'application/pdf',
  'text/html',
  'application/zip',
  'application/octet-stream',
  'TEXT/PLAIN; charset=utf-8',
  '',
];

/** A uri: mostly one a policy may allow (custom scheme, public https), else hostile forms and raw text. */
export const uriArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'guide://manuals',
          'demo://linkgate',
          'https://example.com',
          'https://docs.example.org',
          'http://93.184.215.14',
        ),
        fc.webPath(),
      )
      .map(([base, p]) => `${base}${p}`),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...schemes),
        fc.constantFrom(...hosts),
        fc.webPath(),
        fc.option(fc.webQueryParameters(), { nil: undefined }),
      )
      .map(([s, h, p, q]) => `${s}://${h}${p}${q === undefined ? '' : `?${q}`}`),
  },
  { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'guide://manuals/packing',
      'urn:isbn:0451450523',
      'javascript:alert(1)',
      'https://user:pw@example.com/',
      'http://example.com\\@evil.test/',
      'https://exa\u0000mple.com/',
      ' https://example.com/',
      'https:example.com',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const declaredMime = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('text/plain', 'image/png', 'application/json') },
    { weight: 1, arbitrary: fc.constantFrom(...mimeTypes) },
  ),
  { nil: undefined },
);

/** A `resource_link` item, sometimes with missing, mistyped or odd fields. */
export const linkArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        type: fc.constant('resource_link'),
        uri: uriArb,
        name: fc.string({ maxLength: 12 }),
        mimeType: declaredMime,
        size: fc.oneof(
          { weight: 4, arbitrary: fc.nat({ max: 4096 }) },
          { weight: 1, arbitrary: fc.constantFrom(-1, 0.5, 64 * 1024 * 1024, Number.MAX_SAFE_INTEGER) },
        ),
      },
      { requiredKeys: ['type', 'uri', 'name'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('type', 'uri', 'name', 'mimeType', 'size', '__proto__', 'constructor'),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 5 },
    ),
  },
);

const bytesArb = fc.uint8Array({ maxLength: 48 });
const pngHead = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One `contents` item: text, blob (valid or broken base64), both carriers, neither, or any JSON. */
export const itemArb = (uri: fc.Arbitrary<string>): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record(
        {
          uri,
          mimeType: declaredMime,
          text: fc.oneof(
            { weight: 3, arbitrary: fc.lorem({ maxCount: 8 }) },
            { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
          ),
        },
        { requiredKeys: ['uri', 'text'] },
      ),
    },
    {
      weight: 4,
      arbitrary: fc
        .record(
          {
            uri,
            mimeType: declaredMime,
            bytes: fc.oneof(
              bytesArb,
              bytesArb.map((b) => Uint8Array.from([...pngHead, ...b])),
            ),
          },
          { requiredKeys: ['uri', 'bytes'] },
        )
        .map(({ bytes, ...rest }) => ({ ...rest, blob: Buffer.from(bytes).toString('base64') })),
    },
    { weight: 1, arbitrary: fc.record({ uri, blob: fc.string({ maxLength: 20 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({ uri, text: fc.string({ maxLength: 8 }), blob: fc.base64String({ maxLength: 12 }) }),
    },
    { weight: 1, arbitrary: fc.record({ uri }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );

/** A read result: complete, input_required, unknown resultType, absent resultType, or a JSON-RPC error. */
export const resultArb = (linkUri: string): fc.Arbitrary<Record<string, unknown>> => {
  const itemUri = fc.oneof(
    { weight: 4, arbitrary: fc.constant(linkUri) },
    { weight: 1, arbitrary: fc.constant(`${linkUri}/part`) },
    { weight: 1, arbitrary: uriArb },
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record(
        {
          resultType: fc.oneof(
            { weight: 4, arbitrary: fc.constant('complete') },
            { weight: 1, arbitrary: fc.constantFrom('input_required', 'task', 'pending', 'COMPLETE') },
          ),
          contents: fc.array(itemArb(itemUri), { minLength: 1, maxLength: 4 }),
          ttlMs: fc.oneof(fc.nat(), fc.constant(-5)),
          cacheScope: fc.constantFrom('public', 'private', 'shared'),
        },
        { requiredKeys: ['contents'] },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        error: fc.record({ code: fc.integer({ min: -33000, max: -32000 }), message: fc.string({ maxLength: 20 }) }),
      }),
    },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) },
  );
};

/** `server` and `readFrom`: mostly the same connection (or both absent), sometimes another one. */
const serversArb: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.constantFrom('docs', 'default').map((s) => ({ server: s, readFrom: s })) },
  {
    weight: 1,
    arbitrary: fc.record(
      { server: fc.constantFrom('docs', 'other'), readFrom: fc.constantFrom('docs', 'other') },
      { requiredKeys: [] },
    ),
  },
);

/** A link-stage line. */
export const linkLineArb: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(serversArb, linkArb)
  .map(([servers, link]) => ({ stage: 'link', ...servers, link }));

/** A read that should pass: a custom-scheme text link answered with its own text. */
const healthyReadArb: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.webPath(), fc.lorem({ maxCount: 12 }), fc.constantFrom('text/plain', 'text/markdown', undefined))
  .map(([p, text, mimeType]) => {
    const uri = `guide://manuals${p}`;
    const typed = mimeType === undefined ? {} : { mimeType };
    return {
      stage: 'read',
      link: { type: 'resource_link', uri, name: 'doc', ...typed },
      result: { resultType: 'complete', contents: [{ uri, ...typed, text }] },
    };
  });

/** A read-stage line whose result fits its link's uri most of the time. */
export const readLineArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 1, arbitrary: healthyReadArb },
  {
    weight: 3,
    arbitrary: fc.tuple(serversArb, linkArb).chain(([servers, link]) =>
      fc
        .record(
          {
            elapsedMs: fc.oneof(
              { weight: 4, arbitrary: fc.nat({ max: 2000 }) },
              { weight: 1, arbitrary: fc.constantFrom(-1, 20_000) },
            ),
            result: resultArb(typeof link['uri'] === 'string' ? link['uri'] : 'guide://x'),
          },
          { requiredKeys: ['result'] },
        )
        .map((rest) => ({ stage: 'read', ...servers, link, ...rest })),
    ),
  },
);

/** A credential-stage line. */
export const credentialLineArb: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    stage: fc.constant('credential'),
    kind: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...credentialKinds) },
      { weight: 1, arbitrary: fc.constant('password') },
    ),
    from: fc.oneof(fc.constant('https://example.com/start'), uriArb),
    // often the same origin as `from`, so forwarding is allowed as well as denied
    to: fc.oneof(fc.constant('https://example.com/next'), uriArb),
    via: fc.array(uriArb, { maxLength: 2 }),
  },
  { requiredKeys: ['stage', 'kind', 'from', 'to'] },
);

/** Any eval line: one of the three stages, or any JSON value at all. */
export const lineArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: linkLineArb },
  { weight: 3, arbitrary: readLineArb },
  { weight: 2, arbitrary: credentialLineArb },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Lines of one stage. */
export const stageLineArb: Readonly<Record<RuleStage, fc.Arbitrary<Record<string, unknown>>>> = {
  link: linkLineArb,
  read: readLineArb,
  credential: credentialLineArb,
};

const factNames = (stage: RuleStage, types: readonly FactType[]) =>
  Object.entries(ruleFacts[stage])
    .filter(([, t]) => types.includes(t))
    .map(([name]) => name);

const words = fc.constantFrom(
  'https',
  'guide',
  'example.com',
  'docs',
  'text',
  'png',
  'text/plain',
  'complete',
  'cookie',
  '',
  'a',
);

/** A json-logic condition over the facts of `stage`, built only from operators the compiler supports, depth ≤ `depth`. */
export function conditionArb(stage: RuleStage, depth = 2): fc.Arbitrary<unknown> {
  const strings = factNames(stage, ['string', 'string?']);
  const numbers = factNames(stage, ['number', 'number?']);
  const booleans = factNames(stage, ['boolean']);
  const lists = factNames(stage, ['string[]']);
  const v = (names: string[]) => fc.constantFrom(...names).map((name) => ({ var: name }));
  const leaves: fc.Arbitrary<unknown>[] = [
    fc.constant({ '==': [1, 1] }),
    fc.constant({ '==': [1, 2] }),
    fc
      .tuple(v(strings), words, fc.constantFrom('==', '!=', 'lg_startsWith', 'lg_endsWith', 'lg_suffix'))
      .map(([a, w, op]) => ({ [op]: [a, w] })),
    fc.tuple(words, v(strings)).map(([w, a]) => ({ in: [w, a] })),
    fc.tuple(v(strings), fc.array(words, { minLength: 1, maxLength: 3 })).map(([a, ws]) => ({ in: [a, ws] })),
    fc.tuple(v(strings), fc.nat({ max: 5 })).map(([a, n]) => ({ '==': [{ substr: [a, 0, n] }, 'ht'] })),
    v(strings).map((a) => ({ missing: [a.var] })),
  ];
  if (numbers.length > 0) {
    leaves.push(
      fc
        .tuple(v(numbers), fc.integer({ min: -1, max: 20_000 }), fc.constantFrom('>', '>=', '<', '<=', '=='))
        .map(([a, n, op]) => ({ [op]: [a, n] })),
    );
    leaves.push(fc.tuple(v(numbers), fc.integer({ min: 1, max: 7 })).map(([a, n]) => ({ '==': [{ '%': [a, n] }, 0] })));
    leaves.push(fc.tuple(v(numbers), v(numbers)).map(([a, b]) => ({ '>': [{ '+': [a, b] }, { '*': [a, 2] }] })));
  }
  if (booleans.length > 0)
    leaves.push(
      v(booleans),
      v(booleans).map((a) => ({ '!': a })),
    );
  if (lists.length > 0) {
    leaves.push(
      fc
        .tuple(v(lists), words, fc.constantFrom('some', 'all', 'none'))
        .map(([a, w, op]) => ({ [op]: [a, { '==': [{ var: '' }, w] }] })),
    );
    leaves.push(
      fc
        .tuple(v(lists), fc.nat({ max: 3 }))
        .map(([a, n]) => ({ '>': [{ reduce: [a, { '+': [{ var: 'accumulator' }, 1] }, 0] }, n] })),
    );
    leaves.push(fc.tuple(words, v(lists)).map(([w, a]) => ({ in: [w, a] })));
  }
  const leaf = fc.oneof(...leaves);
  if (depth === 0) return leaf;
  const sub = conditionArb(stage, depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(sub, { minLength: 1, maxLength: 3 }).map((xs) => ({ and: xs })) },
    { weight: 1, arbitrary: fc.array(sub, { minLength: 1, maxLength: 3 }).map((xs) => ({ or: xs })) },
    { weight: 1, arbitrary: sub.map((x) => ({ '!': x })) },
    { weight: 1, arbitrary: fc.tuple(sub, sub, sub).map(([c, a, b]) => ({ if: [c, a, b] })) },
  );
}

/** A deny rule document (as it would be written in a policy) over the facts of its stage. */
export const denyRuleArb: fc.Arbitrary<{
  id: string;
  stage: RuleStage;
  effect: 'deny';
  message: string;
  when: unknown;
}> = fc
  .constantFrom<RuleStage>('link', 'read', 'credential')
  .chain((stage) => conditionArb(stage).map((when) => ({ stage, when })))
  .map(({ stage, when }) => ({
    id: 'generated',
    stage,
    effect: 'deny' as const,
    message: 'generated deny rule',
    when,
  }));
