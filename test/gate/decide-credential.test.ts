import { describe, expect, it } from 'vitest';
import { decideCredential } from '../../src/gate/decide-credential.ts';
import type { CredentialInput } from '../../src/gate/inputs.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { testPolicy } from './policy-fixture.ts';

function cred(
  from: string,
  to: string,
  via?: string[],
  kind: CredentialInput['kind'] = 'authorization',
): CredentialInput {
  return { stage: 'credential', kind, from, to, ...(via === undefined ? {} : { via }) };
}

const sameOrigin = testPolicy();

describe('decideCredential: same origin forwards', () => {
  it.each([
    ['identical', 'https://api.example.com/a', 'https://api.example.com/b'],
    ['host case', 'https://api.example.com/a', 'https://API.Example.COM/b'],
    ['explicit default port', 'https://api.example.com/a', 'https://api.example.com:443/b'],
    ['explicit default port on from', 'http://api.example.com:80/a', 'http://api.example.com/b'],
    ['percent-encoded host', 'https://example.com/a', 'https://%65xample.com/b'],
    ['fullwidth host', 'https://example.com/a', 'https://ｅｘａｍｐｌｅ.com/b'],
    ['two spellings of one ipv6 address', 'https://[2001:db8::1]/a', 'https://[2001:0db8:0:0:0:0:0:1]/b'],
    ['same-origin hops', 'https://api.example.com/a', 'https://api.example.com/c', ['https://api.example.com/b']],
    ['wss', 'wss://api.example.com/a', 'wss://api.example.com:443/b'],
  ])('%s', (_label, from, to, via?: string[]) => {
    const decision = decideCredential(sameOrigin, cred(from, to, via));
    expect(decision).toEqual({ effect: 'allow', reasons: [], policy: { ...sameOrigin.ref } });
  });
});

describe('decideCredential: strips', () => {
  it.each<[string, string, string, string[] | undefined, string[]]>([
    [
      'scheme downgrade',
      'https://api.example.com/a',
      'http://api.example.com/a',
      undefined,
      ['credential.cross-origin'],
    ],
    ['other port', 'https://app.example.com/', 'https://app.example.com:8443/', undefined, ['credential.cross-origin']],
    ['subdomain', 'https://example.com/a', 'https://api.example.com/a', undefined, ['credential.cross-origin']],
    ['parent domain', 'https://api.example.com/a', 'https://example.com/a', undefined, ['credential.cross-origin']],
    ['trailing dot', 'https://api.example.com/a', 'https://api.example.com./b', undefined, ['credential.cross-origin']],
    ['idn homograph', 'https://paypal.com/a', 'https://pаypal.com/a', undefined, ['credential.cross-origin']],
    [
      'ip literal for the name',
      'https://example.com/a',
      'https://93.184.215.14/b',
      undefined,
      ['credential.cross-origin'],
    ],
    [
      'non-http scheme',
      'https://api.example.com/a',
      'ftp://api.example.com/file',
      undefined,
      ['credential.cross-origin'],
    ],
    [
      'chain leaves and comes back',
      'https://api.example.com/a',
      'https://api.example.com/c',
      ['https://evil.example.net/1'],
      ['credential.cross-origin'],
    ],
    [
      'chain leaves and stays away',
      'https://api.example.com/a',
      'https://evil.example.net/2',
      ['https://evil.example.net/1'],
      ['credential.cross-origin'],
    ],
    [
      'custom scheme has an opaque origin',
      'guide://manuals/a',
      'guide://manuals/b',
      undefined,
      ['credential.cross-origin'],
    ],
    ['userinfo in to', 'https://api.example.com/a', 'https://u:p@api.example.com/b', undefined, ['uri.userinfo']],
    ['userinfo in from', 'https://u@api.example.com/a', 'https://api.example.com/b', undefined, ['uri.userinfo']],
    [
      'backslash confusion',
      'https://api.example.com/a',
      'https://evil.example.net\\@api.example.com/x',
      undefined,
      ['uri.parser-confusion', 'credential.cross-origin'],
    ],
    ['to does not parse', 'https://api.example.com/a', 'https://[::1/x', undefined, ['uri.invalid']],
    ['from does not parse', 'not a url', 'https://api.example.com/a', undefined, ['uri.invalid']],
    ['a hop does not parse', 'https://api.example.com/a', 'https://api.example.com/b', ['http://'], ['uri.invalid']],
  ])('%s', (_label, from, to, via, codes) => {
    const decision = decideCredential(sameOrigin, cred(from, to, via));
    expect(decision.effect).toBe('deny');
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
    for (const reason of decision.reasons) {
      expect(reason.rule).toBe('credentials.forward');
      expect(reason.stage).toBe('credential');
    }
  });

  it.each(['authorization', 'cookie', 'proxy-authorization', 'api-key-header', 'bearer-in-query'] as const)(
    'kind %s follows the same rule',
    (kind) => {
      expect(
        decideCredential(sameOrigin, cred('https://a.example.com/', 'https://a.example.com/x', undefined, kind)).effect,
      ).toBe('allow');
      expect(
        decideCredential(sameOrigin, cred('https://a.example.com/', 'https://b.example.com/x', undefined, kind)).effect,
      ).toBe('deny');
    },
  );

  it('names the hop where the chain left', () => {
    const [reason] = decideCredential(
      sameOrigin,
      cred('https://a.example.com/', 'https://a.example.com/x', ['https://a.example.com/1', 'https://b.example.com/2']),
    ).reasons;
    expect(reason?.message).toContain('via[1]');
  });
});

describe('decideCredential: forward never', () => {
  const never = testPolicy({ credentials: { forward: 'never' } });

  it.each([
    ['same url', 'https://api.example.com/a', 'https://api.example.com/a', ['credential.forward-disabled']],
    ['same origin', 'https://api.example.com/a', 'https://api.example.com/b', ['credential.forward-disabled']],
    [
      'cross origin',
      'https://api.example.com/a',
      'https://b.example.com/',
      ['credential.forward-disabled', 'credential.cross-origin'],
    ],
  ])('%s', (_label, from, to, codes) => {
    const decision = decideCredential(never, cred(from, to));
    expect(decision.effect).toBe('deny');
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
  });
});

describe('decideCredential: custom rules', () => {
  const policy = testPolicy({
    rules: [
      {
        id: 'no-long-chains',
        stage: 'credential',
        effect: 'deny',
        message: 'too many hops',
        when: { '>': [{ var: 'hops' }, 1] },
      },
      {
        id: 'cookies-partial',
        stage: 'credential',
        effect: 'partial',
        message: 'cookie',
        when: { '==': [{ var: 'kind' }, 'cookie'] },
      },
      { id: 'link-only', stage: 'link', effect: 'deny', message: 'link', when: true },
    ],
  });

  it.each<[string, CredentialInput, 'allow' | 'deny' | 'partial', string[]]>([
    ['no rule fires', cred('https://a.example.com/', 'https://a.example.com/x'), 'allow', []],
    [
      'deny rule on hops',
      cred('https://a.example.com/', 'https://a.example.com/x', ['https://a.example.com/1', 'https://a.example.com/2']),
      'deny',
      ['rule.no-long-chains'],
    ],
    [
      'partial rule on kind',
      cred('https://a.example.com/', 'https://a.example.com/x', undefined, 'cookie'),
      'partial',
      ['rule.cookies-partial'],
    ],
    [
      'built-in reasons first',
      cred('https://a.example.com/', 'https://b.example.com/x', undefined, 'cookie'),
      'deny',
      ['credential.cross-origin', 'rule.cookies-partial'],
    ],
  ])('%s', (_label, input, effect, codes) => {
    const decision = decideCredential(policy, input);
    expect(decision.effect).toBe(effect);
    expect(decision.reasons.map((r) => r.code)).toEqual(codes);
  });

  it('facts carry canonical origins and sameOrigin', () => {
    const seen = testPolicy({
      rules: [
        {
          id: 'origins',
          stage: 'credential',
          effect: 'deny',
          message: 'm',
          when: {
            and: [
              { '==': [{ var: 'fromOrigin' }, 'https://a.example.com'] },
              { '==': [{ var: 'toOrigin' }, 'https://a.example.com'] },
              { var: 'sameOrigin' },
            ],
          },
        },
      ],
    });
    expect(
      decideCredential(seen, cred('https://A.example.com:443/', 'https://a.example.com/x')).reasons.map((r) => r.code),
    ).toEqual(['rule.origins']);
  });
});

describe('decideCredential through createGate', () => {
  it('rejects a malformed line with input.invalid', () => {
    const gate = createGate(sameOrigin, { resolve: 'none' });
    const decision = gate.decideCredential({
      stage: 'credential',
      kind: 'password',
      from: 'https://a/',
      to: 'https://a/',
    });
    expect(decision.reasons.map((r) => r.code)).toEqual(['input.invalid']);
  });
});
