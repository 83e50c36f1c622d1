import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideLink, linkNamesToResolve } from '../../src/gate/decide-link.ts';
import type { LinkInput } from '../../src/gate/inputs.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import type { PolicyDocument } from '../../src/policy/policy-schema.ts';
import { testPolicy } from './policy-fixture.ts';

function link(
  uri: string,
  extra: Partial<LinkInput['link']> = {},
  top: Partial<Omit<LinkInput, 'link'>> = {},
): LinkInput {
  return { stage: 'link', ...top, link: { type: 'resource_link', uri, name: 'n', ...extra } };
}

const base = testPolicy();

describe('decideLink: allowed links', () => {
  it.each([
    'https://docs.example.com/guide?step=2#top',
    'http://8.8.8.8/',
    'https://[2606:4700:4700::1111]/',
    'guide://manuals/packing',
    'notes://team/2024/retro',
    'urn:isbn:0451450523',
    'demo://resource/dynamic/text/2',
  ])('%s', (uri) => {
    const decision = decideLink(base, link(uri, { mimeType: 'text/plain', size: 100 }));
    expect(decision).toEqual({ effect: 'allow', reasons: [], policy: { ...base.ref } });
  });
});

type Row = [label: string, links: Partial<PolicyDocument['links']>, input: LinkInput, codes: string[], rules: string[]];

describe('decideLink: one row per reason code', () => {
  it.each<Row>([
    ['uri.invalid: no scheme', {}, link('docs.example.com/a'), ['uri.invalid'], ['links.uri']],
    ['uri.invalid: bad host', {}, link('http://256.256.256.256/'), ['uri.invalid'], ['links.uri']],
    [
      'uri.parser-confusion: backslash',
      {},
      link('https://example.com\\@example.net/'),
      ['uri.parser-confusion'],
      ['links.uri'],
    ],
    ['uri.parser-confusion: no //', {}, link('https:example.com/'), ['uri.parser-confusion'], ['links.uri']],
    ['uri.userinfo', {}, link('https://user:pw@example.com/'), ['uri.userinfo'], ['links.userinfo']],
    ['uri.userinfo: empty', {}, link('https://@example.com/'), ['uri.userinfo'], ['links.userinfo']],
    [
      'uri.scheme-not-allowed: javascript',
      {},
      link('javascript:alert(1)'),
      ['uri.scheme-not-allowed'],
      ['links.schemes'],
    ],
    ['uri.scheme-not-allowed: file', {}, link('file:///etc/passwd'), ['uri.scheme-not-allowed'], ['links.schemes']],
    ['uri.scheme-not-allowed: data', {}, link('data:text/plain,hi'), ['uri.scheme-not-allowed'], ['links.schemes']],
    [
      'uri.scheme-not-allowed: wss not listed',
      {},
      link('wss://example.com/'),
      ['uri.scheme-not-allowed'],
      ['links.schemes'],
    ],
    [
      'uri.scheme-not-allowed: custom denied',
      { customSchemes: 'deny' },
      link('guide://manuals/x'),
      ['uri.scheme-not-allowed'],
      ['links.customSchemes'],
    ],
    ['file allowed when listed', { schemes: ['https', 'file'] }, link('file:///etc/passwd'), [], []],
    [
      'uri.non-public-address: loopback',
      {},
      link('http://127.0.0.1/'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: octal',
      {},
      link('http://0177.0.0.1/'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: mapped',
      {},
      link('http://[::ffff:169.254.169.254]/'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: localhost',
      {},
      link('http://LOCALHOST./'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: metadata name',
      {},
      link('http://metadata.google.internal/'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: single label',
      {},
      link('https://intranet/'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: internal tld',
      {},
      link('https://wiki.corp/'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: internalNames',
      { internalNames: ['*.corp.example.com'] },
      link('https://git.corp.example.com/'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: custom ip authority',
      {},
      link('guide://0x7f.1/x'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    [
      'uri.non-public-address: custom localhost',
      {},
      link('guide://localhost/x'),
      ['uri.non-public-address'],
      ['links.denyNonPublicAddresses'],
    ],
    ['non-public allowed when not denied', { denyNonPublicAddresses: false }, link('http://127.0.0.1/'), [], []],
    [
      'origin.not-allowed',
      { origins: ['https://docs.example.com'] },
      link('https://docs.example.net/'),
      ['origin.not-allowed'],
      ['links.origins'],
    ],
    [
      'origin.not-allowed: apex of a wildcard',
      { origins: ['https://*.example.com'] },
      link('https://example.com/'),
      ['origin.not-allowed'],
      ['links.origins'],
    ],
    [
      'origin allowed: subdomain of a wildcard',
      { origins: ['https://*.example.com'] },
      link('https://a.example.com/'),
      [],
      [],
    ],
    [
      'origins do not apply to custom schemes',
      { origins: ['https://docs.example.com'] },
      link('guide://manuals/x'),
      [],
      [],
    ],
    [
      'server.not-allowed',
      { servers: ['docs'] },
      link('guide://m/x', {}, { server: 'other', readFrom: 'other' }),
      ['server.not-allowed'],
      ['links.servers'],
    ],
    [
      'server.not-allowed: default server',
      { servers: ['docs'] },
      link('guide://m/x'),
      ['server.not-allowed'],
      ['links.servers'],
    ],
    [
      'server.mismatch',
      {},
      link('guide://m/x', {}, { server: 'docs', readFrom: 'other' }),
      ['server.mismatch'],
      ['links.requireSameServer'],
    ],
    ['readFrom defaults to the server that returned the link', {}, link('guide://m/x', {}, { server: 'docs' }), [], []],
    [
      'server.mismatch: an explicit readFrom',
      {},
      link('guide://m/x', {}, { readFrom: 'other' }),
      ['server.mismatch'],
      ['links.requireSameServer'],
    ],
    [
      'server.not-allowed: a defaulted readFrom is the listed server',
      { servers: ['docs'] },
      link('guide://m/x', {}, { server: 'docs' }),
      [],
      [],
    ],
    [
      'other server allowed without requireSameServer',
      { requireSameServer: false },
      link('guide://m/x', {}, { server: 'docs', readFrom: 'other' }),
      [],
      [],
    ],
    [
      'size.declared-too-large',
      {},
      link('guide://m/x', { size: 1025 }),
      ['size.declared-too-large'],
      ['links.maxDeclaredBytes'],
    ],
    ['size at the cap', {}, link('guide://m/x', { size: 1024 }), [], []],
    ['input.invalid: negative size', {}, link('guide://m/x', { size: -1 }), ['input.invalid'], ['input']],
    ['input.invalid: fractional size', {}, link('guide://m/x', { size: 1.5 }), ['input.invalid'], ['input']],
    ['input.invalid: infinite size', {}, link('guide://m/x', { size: Infinity }), ['input.invalid'], ['input']],
    [
      'type.declared-not-allowed',
      {},
      link('guide://m/x', { mimeType: 'text/html' }),
      ['type.declared-not-allowed'],
      ['links.denyDeclaredTypes'],
    ],
    [
      'type.declared-not-allowed: unknown type',
      {},
      link('guide://m/x', { mimeType: 'application/x-nope' }),
      ['type.declared-not-allowed'],
      ['links.denyDeclaredTypes'],
    ],
    ['declared type with parameters', {}, link('guide://m/x', { mimeType: 'Text/Plain; charset=utf-8' }), [], []],
    [
      'declared types not checked when off',
      { denyDeclaredTypes: false },
      link('guide://m/x', { mimeType: 'text/html' }),
      [],
      [],
    ],
  ])('%s', (_label, links, input, codes, rules) => {
    const policy = testPolicy({ links });
    const decision = decideLink(policy, input);
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
    expect(decision.reasons.map((r) => r.rule)).toEqual(rules);
    expect(decision.effect).toBe(codes.length === 0 ? 'allow' : 'deny');
    for (const reason of decision.reasons) {
      expect(reason.message).toMatch(/^[^\n]+$/);
      expect(reason.message).not.toMatch(/\.$/);
    }
  });

  it('reports every applicable reason in a fixed order', () => {
    const policy = testPolicy({ links: { servers: ['docs'] } });
    const input = link(
      'gopher://user@127.0.0.1:70/',
      { size: 4096, mimeType: 'application/zip' },
      { server: 'docs', readFrom: 'evil' },
    );
    const codes = decideLink(policy, input).reasons.map((r) => r.code);
    expect(codes).toEqual([
      'uri.userinfo',
      'uri.scheme-not-allowed',
      'uri.non-public-address',
      'server.not-allowed',
      'server.mismatch',
      'size.declared-too-large',
      'type.declared-not-allowed',
    ]);
    expect(decideLink(policy, input)).toEqual(decideLink(policy, input));
  });

  it('does not echo userinfo into messages', () => {
    const decision = decideLink(base, link('https://admin:hunter2@127.0.0.1/'));
    expect(JSON.stringify(decision)).not.toContain('hunter2');
  });
});

describe('decideLink: name resolution', () => {
  const resolved = (entries: Record<string, string[]>) => ({ resolved: new Map(Object.entries(entries)) });

  it.each<[string, string, Record<string, string[]>, string[]]>([
    [
      'public answers',
      'https://docs.example.com/',
      { 'docs.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] },
      [],
    ],
    [
      'a loopback answer',
      'https://evil.example.net/',
      { 'evil.example.net': ['127.0.0.1'] },
      ['uri.non-public-address'],
    ],
    [
      'rebinding: one answer of two is private',
      'https://rebind.example.net/',
      { 'rebind.example.net': ['93.184.215.14', '10.0.0.1'] },
      ['uri.non-public-address'],
    ],
    ['mapped answer', 'https://a.example.net/', { 'a.example.net': ['::ffff:127.0.0.1'] }, ['uri.non-public-address']],
    [
      'an answer that is not an address',
      'https://a.example.net/',
      { 'a.example.net': ['not-an-ip'] },
      ['uri.non-public-address'],
    ],
    ['absent name', 'https://a.example.net/', {}, ['uri.unresolved']],
    ['empty answer', 'https://a.example.net/', { 'a.example.net': [] }, ['uri.unresolved']],
    ['trailing dot is its own name', 'https://a.example.net./', { 'a.example.net.': ['8.8.8.8'] }, []],
    // UTS #46: WHATWG reads `faß.de` as xn--fa-hia.de, transitional readers (IDNA2003 libraries) as fass.de
    ['both readings public', 'https://faß.de/', { 'xn--fa-hia.de': ['93.184.215.14'], 'fass.de': ['8.8.8.8'] }, []],
    [
      'the transitional reading resolves to loopback',
      'https://faß.de/',
      { 'xn--fa-hia.de': ['93.184.215.14'], 'fass.de': ['127.0.0.1'] },
      ['uri.non-public-address'],
    ],
    ['the transitional reading does not resolve', 'https://faß.de/', { 'xn--fa-hia.de': ['93.184.215.14'] }, []],
    ['the WHATWG reading does not resolve', 'https://faß.de/', { 'fass.de': ['93.184.215.14'] }, ['uri.unresolved']],
  ])('%s', (_label, uri, answers, codes) => {
    const decision = decideLink(base, link(uri), resolved(answers));
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
    expect(decision.effect).toBe(codes.length === 0 ? 'allow' : 'deny');
  });

  it('without `resolved` judges by text only', () => {
    expect(decideLink(base, link('https://a.example.net/')).effect).toBe('allow');
  });

  it.each<[string, Partial<PolicyDocument['links']>, LinkInput, string[]]>([
    ['a public name', {}, link('https://Docs.Example.com/a'), ['docs.example.com']],
    ['an ip literal', {}, link('https://8.8.8.8/'), []],
    ['a custom scheme', {}, link('guide://manuals/x'), []],
    ['a text-denied name', {}, link('https://localhost/'), []],
    ['a link denied for another reason', {}, link('https://docs.example.com/', { size: 5000 }), []],
    ['a scheme that is not listed', {}, link('gopher://docs.example.com/'), []],
    ['non-public addresses allowed', { denyNonPublicAddresses: false }, link('https://docs.example.com/'), []],
    ['an invalid uri', {}, link('nope'), []],
    ['a name with a UTS #46 deviation: both readings', {}, link('https://FAß.de/'), ['xn--fa-hia.de', 'fass.de']],
  ])('linkNamesToResolve: %s', (_label, links, input, names) => {
    expect(linkNamesToResolve(testPolicy({ links }), input)).toEqual(names);
  });

  it('the gate resolves the transitional reading too, and names it in the reason', async () => {
    const answers: Record<string, string[]> = { 'xn--fa-hia.de': ['93.184.215.14'], 'fass.de': ['10.0.0.7'] };
    const asked: string[] = [];
    const gate = createGate(base, {
      resolve: async (name) => {
        asked.push(name);
        const found = answers[name];
        if (found === undefined) throw new Error('nxdomain');
        return found;
      },
    });
    const decision = await gate.decide(link('https://faß.de/'));
    expect(asked.sort()).toEqual(['fass.de', 'xn--fa-hia.de']);
    expect(decision.effect).toBe('deny');
    expect(decision.reasons[0]?.message).toBe(
      'host `xn--fa-hia.de` is read as `fass.de` by other parsers, which resolves to non-public `10.0.0.7` (private 10/8)',
    );
  });

  it('resolves through the gate and fails closed when the resolver throws', async () => {
    const gate = createGate(base, {
      resolve: async (name) => {
        if (name === 'ok.example.com') return ['8.8.8.8'];
        throw new Error('nxdomain');
      },
    });
    const ok = await gate.decide(link('https://ok.example.com/'));
    const missing = await gate.decide(link('https://missing.example.com/'));
    expect(ok.effect).toBe('allow');
    expect(missing.reasons.map((r) => r.code)).toEqual(['uri.unresolved']);
  });
});

describe('decideLink: custom rules', () => {
  const rules = [
    {
      id: 'no-high-ports',
      stage: 'link' as const,
      effect: 'deny' as const,
      message: 'port over 8000',
      when: { '>': [{ var: 'port' }, 8000] },
    },
    {
      id: 'custom-partial',
      stage: 'link' as const,
      effect: 'partial' as const,
      message: 'custom scheme',
      when: { '==': [{ var: 'customScheme' }, true] },
    },
    {
      id: 'public-ip',
      stage: 'link' as const,
      effect: 'deny' as const,
      message: 'ip literal',
      when: { '==': [{ var: 'addressClass' }, 'public'] },
    },
    { id: 'cred-rule', stage: 'credential' as const, effect: 'deny' as const, message: 'never', when: true },
  ];
  const policy = testPolicy({ rules });

  it.each<[string, string, 'allow' | 'deny' | 'partial', string[]]>([
    ['no rule fires', 'https://docs.example.com/', 'allow', []],
    ['deny rule on port', 'https://docs.example.com:8443/', 'deny', ['rule.no-high-ports']],
    ['partial rule on custom scheme', 'guide://manuals/x', 'partial', ['rule.custom-partial']],
    ['deny rule on address class', 'https://8.8.8.8/', 'deny', ['rule.public-ip']],
    ['deny beats partial', 'guide://manuals:9000/x', 'deny', ['rule.no-high-ports', 'rule.custom-partial']],
    [
      'built-in reasons come first',
      'https://127.0.0.1:9000/',
      'deny',
      ['uri.non-public-address', 'rule.no-high-ports'],
    ],
    ['rules skipped when the uri does not parse', 'nope', 'deny', ['uri.invalid']],
  ])('%s', (_label, uri, effect, codes) => {
    const decision = decideLink(policy, link(uri));
    expect(decision.effect).toBe(effect);
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
  });

  it('names the rule and stage', () => {
    const [reason] = decideLink(policy, link('https://docs.example.com:8443/')).reasons;
    expect(reason).toEqual({
      code: 'rule.no-high-ports',
      rule: 'rules.no-high-ports',
      stage: 'link',
      message: 'port over 8000',
    });
  });

  it('a partial rule does not stop resolution', () => {
    const names = linkNamesToResolve(
      testPolicy({ rules: [{ ...rules[1]!, when: true }] }),
      link('https://docs.example.com/'),
    );
    expect(names).toEqual(['docs.example.com']);
  });
});

describe('decideLink: links.allowNonPublicOrigins exempts exact origins from the address rules only', () => {
  const exempt = ['http://127.0.0.1:40123', 'http://[::1]:40125', 'http://localhost:40126', 'guide://10.0.0.7:9'];
  const policy = testPolicy({ links: { allowNonPublicOrigins: exempt } });

  it.each<[label: string, input: LinkInput, codes: string[]]>([
    ['the listed origin', link('http://127.0.0.1:40123/file.txt'), []],
    ['the listed origin without a path', link('http://127.0.0.1:40123'), []],
    ['another spelling of the same canonical origin', link('HTTP://0x7f000001:40123/a'), []],
    ['the listed ipv6 origin', link('http://[0::1]:40125/a'), []],
    ['the listed localhost name', link('http://LOCALHOST:40126/a'), []],
    ['a listed custom-scheme origin', link('guide://10.0.0.7:9/x'), []],
    ['another port stays denied', link('http://127.0.0.1:40124/'), ['uri.non-public-address']],
    ['the default port stays denied', link('http://127.0.0.1/'), ['uri.non-public-address']],
    ['another host spelling stays denied', link('http://localhost:40123/'), ['uri.non-public-address']],
    ['another loopback address stays denied', link('http://127.0.0.2:40123/'), ['uri.non-public-address']],
    ['the mapped ipv6 form is another origin', link('http://[::ffff:127.0.0.1]:40123/'), ['uri.non-public-address']],
    ['another scheme stays denied', link('https://127.0.0.1:40123/'), ['uri.non-public-address']],
    ['a listed name on another port stays denied', link('http://localhost:40127/'), ['uri.non-public-address']],
    ['userinfo still denies', link('http://u:p@127.0.0.1:40123/'), ['uri.userinfo']],
    ['parser confusion still denies', link('http://127.0.0.1:40123\\@evil.example.com/'), ['uri.parser-confusion']],
    [
      'server binding still applies',
      link('http://127.0.0.1:40123/', {}, { server: 'docs', readFrom: 'other' }),
      ['server.mismatch'],
    ],
    ['the size cap still applies', link('http://127.0.0.1:40123/', { size: 4096 }), ['size.declared-too-large']],
    [
      'the declared type still applies',
      link('http://127.0.0.1:40123/', { mimeType: 'text/html' }),
      ['type.declared-not-allowed'],
    ],
  ])('%s', (_label, input, codes) => {
    const decision = decideLink(policy, input);
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
    expect(decision.effect).toBe(codes.length === 0 ? 'allow' : 'deny');
  });

  it.each<[label: string, links: Partial<PolicyDocument['links']>, uri: string, codes: string[]]>([
    [
      'a scheme the policy does not list',
      { schemes: ['https'] },
      'http://127.0.0.1:40123/',
      ['uri.scheme-not-allowed'],
    ],
    ['custom schemes denied', { customSchemes: 'deny' }, 'guide://10.0.0.7:9/x', ['uri.scheme-not-allowed']],
    [
      'an origin allow-list without it',
      { origins: ['https://docs.example.com'] },
      'http://127.0.0.1:40123/',
      ['origin.not-allowed'],
    ],
    ['an origin allow-list with it', { origins: ['http://127.0.0.1:40123'] }, 'http://127.0.0.1:40123/', []],
    ['servers not listed', { servers: ['docs'] }, 'http://127.0.0.1:40123/', ['server.not-allowed']],
    [
      'an entry with a path exempts nothing',
      { allowNonPublicOrigins: ['http://127.0.0.1:40123/admin'] },
      'http://127.0.0.1:40123/admin',
      ['uri.non-public-address'],
    ],
    [
      'a pattern exempts nothing',
      { allowNonPublicOrigins: ['http://*.corp.example.com:80'] },
      'http://git.corp.example.com/',
      [],
    ],
    [
      'internal names are address rules too',
      { allowNonPublicOrigins: ['https://git.corp.example.com'], internalNames: ['*.corp.example.com'] },
      'https://git.corp.example.com/',
      [],
    ],
    [
      'an internal name on another origin stays denied',
      { allowNonPublicOrigins: ['https://git.corp.example.com'], internalNames: ['*.corp.example.com'] },
      'https://ci.corp.example.com/',
      ['uri.non-public-address'],
    ],
  ])('other settings still apply: %s', (_label, links, uri, codes) => {
    const decision = decideLink(testPolicy({ links: { allowNonPublicOrigins: exempt, ...links } }), link(uri));
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
  });

  it('custom rules still apply and still see the address class', () => {
    const rule = {
      id: 'loopback-rule',
      stage: 'link' as const,
      effect: 'partial' as const,
      message: 'loopback',
      when: { '==': [{ var: 'addressClass' }, 'loopback'] },
    };
    const decision = decideLink(
      testPolicy({ links: { allowNonPublicOrigins: exempt }, rules: [rule] }),
      link('http://127.0.0.1:40123/'),
    );
    expect(decision.effect).toBe('partial');
    expect(decision.reasons.map((r) => r.code)).toEqual(['rule.loopback-rule']);
  });

  const resolved = (answers: Record<string, string[]>) => ({ resolved: new Map(Object.entries(answers)) });
  it.each<[label: string, uri: string, answers: Record<string, string[]>, codes: string[]]>([
    ['a listed name may resolve to loopback', 'http://localhost:40126/', { localhost: ['127.0.0.1', '::1'] }, []],
    ['a listed name must still resolve', 'http://localhost:40126/', {}, ['uri.unresolved']],
    [
      'an answer that is not an address still denies',
      'http://localhost:40126/',
      { localhost: ['not-an-ip'] },
      ['uri.non-public-address'],
    ],
    [
      'an unlisted origin still needs public answers',
      'http://evil.example.net:40126/',
      { 'evil.example.net': ['127.0.0.1'] },
      ['uri.non-public-address'],
    ],
  ])('resolution: %s', (_label, uri, answers, codes) => {
    expect(decideLink(policy, link(uri), resolved(answers)).reasons.map((r) => r.code)).toEqual(codes);
  });

  it.each<[uri: string, names: string[]]>([
    ['http://localhost:40126/', ['localhost']],
    ['http://127.0.0.1:40123/', []],
    ['http://localhost:40127/', []],
  ])('linkNamesToResolve(%s) → %j', (uri, names) => {
    expect(linkNamesToResolve(policy, link(uri))).toEqual(names);
  });

  it('through the gate, with a resolver', async () => {
    const gate = createGate(policy, { resolve: async (name) => (name === 'localhost' ? ['127.0.0.1'] : []) });
    expect((await gate.decide(link('http://localhost:40126/'))).effect).toBe('allow');
    expect(gate.decideLink(link('http://127.0.0.1:40123/')).effect).toBe('allow');
    expect(gate.decideLink(link('http://127.0.0.1:40124/')).effect).toBe('deny');
  });
});

describe('decideLink through createGate: any string uri', () => {
  const gate = createGate(base, { resolve: 'none' });
  const controlChar = fc
    .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
    .map((c) => String.fromCharCode(c));
  const uris = fc.oneof(
    // any unicode code point, lone surrogates included
    fc.string({ unit: 'binary', maxLength: 120 }),
    fc
      .string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 8 })
      .map((s) => `https://a${s}.com/${s}`),
    // ASCII with its control characters, alone and inside a uri
    fc.string({ unit: 'binary-ascii', maxLength: 120 }),
    fc
      .tuple(
        fc.constantFrom('http://', 'https://', 'guide://', 'HTTP:', 'ws:\\'),
        fc.string({
          unit: fc.oneof(controlChar, fc.constantFrom('a', '.', '@', ':', '/', '\\', '?', '#', '[', ']', '%', '1')),
          maxLength: 24,
        }),
      )
      .map(([a, b]) => a + b),
    fc.webUrl({
      validSchemes: ['http', 'https', 'ws', 'wss', 'guide', 'ftp', 'file'],
      withFragments: true,
      withQueryParameters: true,
      authoritySettings: { withIPv4: true, withIPv6: true, withIPv4Extended: true, withUserInfo: true, withPort: true },
    }),
    fc
      .tuple(
        fc.constantFrom('http', 'https', 'HTTP', 'guide', 'file', 'data', 'ws', 'javascript', 'x-y.z'),
        fc.constantFrom(':', '://', ':/', ':\\\\', ':///'),
        fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
        fc.constantFrom('', '@', '.', '%2e', '[', ']', ':', '\\', '#', '?', '\t', '。', '０'),
        fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended(), fc.domain()),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
      )
      .map((parts) => parts.join('')),
  );

  it('never throws, never fails with engine.error, and is deterministic', () => {
    fc.assert(
      fc.property(uris, (uri) => {
        const input = { stage: 'link', link: { type: 'resource_link', uri, name: 'n' } };
        const first = gate.decideLink(input);
        expect(first).toEqual(gate.decideLink(input));
        expect(['allow', 'deny', 'partial']).toContain(first.effect);
        expect(first.reasons.map((r) => r.code)).not.toContain('engine.error');
        if (first.effect !== 'allow') expect(first.reasons.length).toBeGreaterThan(0);
        expect(first.policy).toEqual(base.ref);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same decision through the gate as directly, under exemptions and rules too', () => {
    const policies = [
      base,
      testPolicy({ links: { allowNonPublicOrigins: ['http://127.0.0.1:8080', 'https://localhost'] } }),
      testPolicy({
        rules: [
          { id: 'port', stage: 'link', effect: 'partial', message: 'port', when: { '>': [{ var: 'port' }, 1000] } },
        ],
      }),
    ];
    fc.assert(
      fc.property(uris, fc.constantFrom(...policies), (uri, policy) => {
        const input: LinkInput = { stage: 'link', server: 's', link: { type: 'resource_link', uri, name: 'n' } };
        expect(createGate(policy, { resolve: 'none' }).decideLink(input)).toEqual(decideLink(policy, input));
      }),
      { numRuns: 1000 },
    );
  });
});
