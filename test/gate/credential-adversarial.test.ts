import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

// An attacker controls redirect targets (`via`, `to`) and wants a credential issued for `from` sent elsewhere.
// Both shipped policies that forward credentials at all say `credentials.forward: same-origin`.
const repoRoot = path.resolve(import.meta.dirname, '../..');
const policyFiles = ['policies/default.yaml', 'policies/web-public.yaml'] as const;
const kinds = ['authorization', 'cookie', 'proxy-authorization', 'api-key-header', 'bearer-in-query'] as const;

let gates: readonly (readonly [string, Gate])[];

beforeAll(async () => {
  gates = await Promise.all(
    policyFiles.map(
      async (file) => [file, createGate(await loadPolicy(path.join(repoRoot, file)), { resolve: 'none' })] as const,
    ),
  );
});

type Row = readonly [
  label: string,
  from: string,
  to: string,
  via: readonly string[] | null,
  want: 'allow' | 'deny',
  code: string | null,
];

function check(
  label: string,
  from: string,
  to: string,
  via: readonly string[] | null,
  want: 'allow' | 'deny',
  code: string | null,
): void {
  for (const [file, gate] of gates) {
    for (const kind of kinds) {
      const decision = gate.decideCredential({
        stage: 'credential',
        kind,
        from,
        to,
        ...(via === null ? {} : { via: [...via] }),
      });
      const where = `${file} ${kind}: ${label}`;
      expect(decision.effect, where).toBe(want);
      if (code === null) expect(decision.reasons, where).toEqual([]);
      else
        expect(
          decision.reasons.map((r) => r.code),
          where,
        ).toContain(code);
    }
  }
}

describe('bypass found in review: a host other parsers read differently strips', () => {
  it.each<Row>([
    // WHATWG reads 1.2.3.010 as 1.2.3.8 (same origin); Java and Go < 1.17 connect to 1.2.3.10
    ['zero-padded to', 'https://1.2.3.8/a', 'https://1.2.3.010/b', null, 'deny', 'uri.parser-confusion'],
    [
      'zero-padded hop',
      'https://1.2.3.8/a',
      'https://1.2.3.8/b',
      ['https://1.2.3.010/r'],
      'deny',
      'uri.parser-confusion',
    ],
    ['zero-padded single number', 'https://8.8.8.8/a', 'https://01002004010/b', null, 'deny', 'uri.parser-confusion'],
    [
      'ascii-only punycode',
      'https://a.xn--example-.com/a',
      'https://a.xn--example-.com/b',
      null,
      'deny',
      'uri.parser-confusion',
    ],
  ])('%s', check);
});

describe('probes that held: spellings of another origin strip', () => {
  it.each<Row>([
    ['trailing dot on to', 'https://example.com/a', 'https://example.com./b', null, 'deny', 'credential.cross-origin'],
    [
      'trailing dot on from',
      'https://example.com./a',
      'https://example.com/b',
      null,
      'deny',
      'credential.cross-origin',
    ],
    ['two trailing dots', 'https://example.com/a', 'https://example.com../b', null, 'deny', 'credential.cross-origin'],
    [
      'percent-encoded trailing dot',
      'https://example.com/a',
      'https://example.com%2e/b',
      null,
      'deny',
      'credential.cross-origin',
    ],
    [
      'cyrillic a (homograph)',
      'https://example.com/a',
      'https://exаmple.com/b',
      null,
      'deny',
      'credential.cross-origin',
    ],
    [
      'punycode homograph',
      'https://example.com/a',
      'https://xn--exmple-cua.com/b',
      null,
      'deny',
      'credential.cross-origin',
    ],
    ['transitional ß', 'https://fass.de/a', 'https://faß.de/b', null, 'deny', 'credential.cross-origin'],
    ['subdomain', 'https://example.com/a', 'https://sub.example.com/b', null, 'deny', 'credential.cross-origin'],
    ['parent domain', 'https://sub.example.com/a', 'https://example.com/b', null, 'deny', 'credential.cross-origin'],
    ['scheme downgrade', 'https://example.com/a', 'http://example.com/b', null, 'deny', 'credential.cross-origin'],
    ['scheme upgrade', 'http://example.com/a', 'https://example.com/b', null, 'deny', 'credential.cross-origin'],
    ['websocket', 'https://example.com/a', 'wss://example.com/b', null, 'deny', 'credential.cross-origin'],
    ['other port', 'https://example.com/a', 'https://example.com:8443/b', null, 'deny', 'credential.cross-origin'],
    [
      'http default port on https',
      'https://example.com/a',
      'https://example.com:80/b',
      null,
      'deny',
      'credential.cross-origin',
    ],
    [
      'ipv4-mapped vs dotted',
      'https://1.2.3.4/a',
      'https://[::ffff:1.2.3.4]/b',
      null,
      'deny',
      'credential.cross-origin',
    ],
    ['ipv4 vs name', 'https://93.184.215.14/a', 'https://example.com/b', null, 'deny', 'credential.cross-origin'],
    [
      'blob of the same origin',
      'https://example.com/a',
      'blob:https://example.com/uuid',
      null,
      'deny',
      'credential.cross-origin',
    ],
    ['custom scheme both sides', 'guide://docs/a', 'guide://docs/b', null, 'deny', 'credential.cross-origin'],
    ['file both sides', 'file:///a', 'file:///b', null, 'deny', 'credential.cross-origin'],
  ])('%s', check);
});

describe('probes that held: confusion forms and userinfo strip', () => {
  it.each<Row>([
    ['userinfo on from', 'https://user@example.com/a', 'https://example.com/b', null, 'deny', 'uri.userinfo'],
    ['userinfo on to', 'https://example.com/a', 'https://user:pw@example.com/b', null, 'deny', 'uri.userinfo'],
    ['empty userinfo on to', 'https://example.com/a', 'https://@example.com/b', null, 'deny', 'uri.userinfo'],
    [
      'port-looking userinfo',
      'https://example.com/a',
      'https://example.com:443@evil.com/b',
      null,
      'deny',
      'uri.userinfo',
    ],
    [
      'userinfo on a hop',
      'https://example.com/a',
      'https://example.com/b',
      ['https://user@example.com/r'],
      'deny',
      'uri.userinfo',
    ],
    [
      'backslash before @',
      'https://example.com/a',
      'https://example.com\\@evil.com/b',
      null,
      'deny',
      'uri.parser-confusion',
    ],
    [
      'fragment before @',
      'https://example.com/a',
      'https://evil.com#@example.com/b',
      null,
      'deny',
      'uri.parser-confusion',
    ],
    [
      'query before @',
      'https://example.com/a',
      'https://evil.com?@example.com/b',
      null,
      'deny',
      'uri.parser-confusion',
    ],
    ['tab in host', 'https://example.com/a', 'https://exam\tple.com/b', null, 'deny', 'uri.invalid'],
    [
      'newline in a hop',
      'https://example.com/a',
      'https://example.com/b',
      ['https://example.com\n/r'],
      'deny',
      'uri.invalid',
    ],
    ['no slashes', 'https://example.com/a', 'https:example.com/b', null, 'deny', 'uri.parser-confusion'],
    ['three slashes', 'https://example.com/a', 'https:///example.com/b', null, 'deny', 'uri.parser-confusion'],
    ['backslashes', 'https://example.com/a', 'https:\\\\example.com/b', null, 'deny', 'uri.parser-confusion'],
    ['leading space', ' https://example.com/a', 'https://example.com/b', null, 'deny', 'uri.invalid'],
    ['nul in host', 'https://example.com/a', 'https://example.com%00/b', null, 'deny', 'uri.invalid'],
    ['scheme-relative to', 'https://example.com/a', '//example.com/b', null, 'deny', 'uri.invalid'],
    ['relative hop', 'https://example.com/a', 'https://example.com/b', ['/r'], 'deny', 'uri.invalid'],
    ['port out of range', 'https://example.com/a', 'https://example.com:65536/b', null, 'deny', 'uri.invalid'],
  ])('%s', check);
});

describe('probes that held: a chain that leaves never comes back', () => {
  it.each<Row>([
    [
      'one foreign hop',
      'https://example.com/a',
      'https://example.com/b',
      ['https://evil.com/r'],
      'deny',
      'credential.cross-origin',
    ],
    [
      'foreign hop in the middle',
      'https://example.com/a',
      'https://example.com/b',
      ['https://example.com/r', 'https://evil.com/r2', 'https://example.com/r3'],
      'deny',
      'credential.cross-origin',
    ],
    [
      'trailing-dot hop',
      'https://example.com/a',
      'https://example.com/b',
      ['https://example.com./r'],
      'deny',
      'credential.cross-origin',
    ],
    [
      'downgrade hop',
      'https://example.com/a',
      'https://example.com/b',
      ['http://example.com/r'],
      'deny',
      'credential.cross-origin',
    ],
    [
      'other-port hop',
      'https://example.com/a',
      'https://example.com/b',
      ['https://example.com:444/r'],
      'deny',
      'credential.cross-origin',
    ],
    [
      'custom-scheme hop',
      'https://example.com/a',
      'https://example.com/b',
      ['guide://example.com/r'],
      'deny',
      'credential.cross-origin',
    ],
    [
      'mapped-ipv6 hop',
      'https://1.2.3.4/a',
      'https://1.2.3.4/b',
      ['https://[::ffff:1.2.3.4]/r'],
      'deny',
      'credential.cross-origin',
    ],
  ])('%s', check);
});

describe('same origin spelled differently still forwards', () => {
  it.each<Row>([
    ['case', 'https://example.com/a', 'HTTPS://EXAMPLE.COM/b', null, 'allow', null],
    ['explicit default port', 'https://example.com/a', 'https://example.com:443/b', null, 'allow', null],
    ['zero-padded port', 'https://example.com/a', 'https://example.com:0443/b', null, 'allow', null],
    ['empty port', 'https://example.com/a', 'https://example.com:/b', null, 'allow', null],
    ['fullwidth', 'https://example.com/a', 'https://ｅｘａｍｐｌｅ.com/b', null, 'allow', null],
    ['percent-encoded', 'https://example.com/a', 'https://%65xample.com/b', null, 'allow', null],
    ['ideographic dot', 'https://example.com/a', 'https://example。com/b', null, 'allow', null],
    ['soft hyphen', 'https://example.com/a', 'https://exam\u00adple.com/b', null, 'allow', null],
    ['idn and punycode', 'https://bücher.de/a', 'https://xn--bcher-kva.de/b', null, 'allow', null],
    ['two ipv6 spellings', 'https://[2001:db8::1]/a', 'https://[2001:DB8:0:0:0:0:0:1]/b', null, 'allow', null],
    ['hex ipv4', 'https://1.2.3.4/a', 'https://0x01020304/b', null, 'allow', null],
    [
      'same-origin hops',
      'https://example.com/a',
      'https://example.com/b',
      ['https://EXAMPLE.COM:443/r', 'https://example.com/r2'],
      'allow',
      null,
    ],
    ['@ in the path', 'https://example.com/a', 'https://example.com/@evil.com', null, 'allow', null],
    ['@ in the fragment', 'https://example.com/a', 'https://example.com/b?x#@evil.com', null, 'allow', null],
  ])('%s', check);
});
