import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/link/classify-address.ts';
import { wildcardDnsAnswer, wildcardDnsAnswers } from '../../src/link/wildcard-dns.ts';

describe('wildcardDnsAnswer', () => {
  it.each([
    ['127.0.0.1.nip.io', '127.0.0.1'],
    ['a.b.10.0.0.5.nip.io', '10.0.0.5'],
    ['10-0-0-5.sslip.io', '10.0.0.5'],
    ['customer2-app-169-254-169-254.nip.io', '169.254.169.254'],
    ['app-c0a80001.nip.io', '192.168.0.1'],
    ['127.127.127.127.xip.io', '127.127.127.127'],
    ['localtest.me', 'loopback'],
    ['foo.localtest.me', 'loopback'],
    ['lvh.me', 'loopback'],
    ['999.0.0.1.nip.io', undefined],
    ['app.nip.io', undefined],
    ['example.com', undefined],
    ['notlocaltest.me', undefined],
  ])('%s → %s', (name, answer) => {
    expect(wildcardDnsAnswer(name)).toBe(answer);
  });
});

describe('wildcardDnsAnswers', () => {
  it.each([
    ['--1.sslip.io', ['::1']],
    ['fd00-ec2--254.sslip.io', ['fd00:ec2::254']],
    ['app-2a01-4f8-c17-b8f--2.sslip.io', ['2a01:4f8:c17:b8f::2']],
    ['--ffff-7f00-1.nip.io', ['::ffff:7f00:1']],
    // one label, two readings: dashed IPv4 and dashed IPv6
    ['--1-1-1-1.sslip.io', ['1.1.1.1', '::1:1:1:1']],
    ['10-0-0-5.sslip.io', ['10.0.0.5']],
    ['app-x-y.sslip.io', undefined],
    ['--1.example.com', undefined],
    ['lvh.me', 'loopback'],
  ])('%s → %j', (name, answers) => {
    expect(wildcardDnsAnswers(name)).toEqual(answers);
  });
});

describe('an address written anywhere in a wildcard-dns name is read (issue 14 review)', () => {
  // sslip.io takes the leftmost dotted, dashed or hex address bounded by (^|[.-]) … ($|[.-]) anywhere in the name
  const v4: [string, number[]][] = [
    ['loopback', [127, 0, 0, 1]],
    ['metadata', [169, 254, 169, 254]],
    ['private', [10, 0, 0, 5]],
    ['private', [192, 168, 1, 1]],
  ];
  const spell: [string, (o: number[]) => string][] = [
    ['dotted', (o) => o.join('.')],
    ['dashed', (o) => o.join('-')],
    ['mixed', (o) => `${o[0]}.${o[1]}-${o[2]}.${o[3]}`],
    ['hex', (o) => o.map((x) => x.toString(16).padStart(2, '0')).join('')],
  ];
  const place: [string, (ip: string) => string][] = [
    ['alone', (ip) => ip],
    ['before more labels', (ip) => `${ip}.app`],
    ['inside a label', (ip) => `x-${ip}-y`],
    ['at a label start', (ip) => `${ip}-app`],
    ['behind other labels', (ip) => `a.b-${ip}.c`],
  ];
  const cases = v4.flatMap(([what, o]) =>
    spell.flatMap(([how, f]) =>
      place.flatMap(([where, p]) =>
        ['sslip.io', 'nip.io'].map((suffix) => [what, how, where, `${p(f(o))}.${suffix}`, o.join('.')] as const),
      ),
    ),
  );
  it.each(cases)('%s, %s, %s: %s reads %s', (_, __, ___, name, address) => {
    const answers = wildcardDnsAnswers(name);
    expect(Array.isArray(answers) ? answers : []).toContain(address);
  });

  const v6: [string, string][] = [
    ['--1', '::1'],
    ['fd00-ec2--254', 'fd00:ec2::254'],
    ['--ffff-a9fe-a9fe', '::ffff:a9fe:a9fe'],
  ];
  // a prefix that is itself hex (`b-fd00-…`) makes a longer, other address, as sslip.io reads it: the test
  // asks that some reading is not public
  it.each(v6.flatMap(([dashed]) => place.map(([where, p]) => [where, `${p(dashed)}.sslip.io`] as const)))(
    'ipv6 %s: %s reads a non-public address',
    (_, name) => {
      const answers = wildcardDnsAnswers(name);
      expect(Array.isArray(answers) && answers.some((a) => !classifyAddress(a).public)).toBe(true);
    },
  );

  it.each(['my-app-2024.sslip.io', 'dead-beef-cafe.sslip.io', 'app.nip.io', 'v2-release.nip.io', '1-2-3.sslip.io'])(
    '%s embeds no address',
    (name) => {
      expect(wildcardDnsAnswers(name)).toBeUndefined();
    },
  );
});
