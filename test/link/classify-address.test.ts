import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  classifyIpLiteral,
  ipLiteralClass,
  nonPublicLiteral,
} from '../../src/link/classify-address.ts';
import { parseUri } from '../../src/link/parse-uri.ts';

describe('classifyAddress', () => {
  it.each([
    // IPv4
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['9.255.255.255', 'public'],
    ['11.0.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['169.255.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.31.196.1', 'public'],
    ['192.52.193.1', 'public'],
    ['192.175.48.1', 'public'],
    ['223.255.255.255', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.0.0.1', 'this-network'],
    ['0.255.255.255', 'this-network'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['192.0.0.1', 'ietf-protocol'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['192.88.99.1', 'relay-anycast'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['192.0.0.192', 'cloud-metadata'],
    ['168.63.129.16', 'cloud-metadata'],
    // IPv6
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['2001:200::1', 'public'],
    ['2001:db7::', 'public'],
    ['2001:db9::', 'public'],
    ['2001:3::1', 'public'],
    ['2001:4:112::1', 'public'],
    ['[2606:4700:4700::1111]', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'cloud-metadata'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['64:ff9b:1::1234', 'nat64-local'],
    ['2002::', 'unspecified'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:1f63:45e8::1', 'public'],
    ['::127.0.0.1', 'ipv4-compatible'],
    ['::8.8.8.8', 'ipv4-compatible'],
    ['::ffff:0:192.168.1.10', 'ipv4-translated'],
    ['100::1', 'discard'],
    ['fc00::1', 'unique-local'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001::1', 'teredo'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:2:ffff:ffff:ffff:ffff:ffff:ffff', 'ietf-protocol'],
    ['2001:10::1', 'orchid'],
    ['2001:20::a:b:c', 'orchid'],
    ['2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', 'orchid'],
    ['2001:30::', 'drone-id'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['5f00::1', 'segment-routing'],
    ['::1fff:0:0:0', 'reserved'],
    ['99::ffff:ffff:ffff:ffff', 'reserved'],
    ['101::', 'reserved'],
    ['fb00::', 'reserved'],
    ['4000::1', 'reserved'],
    // not addresses
    ['example.com', 'invalid'],
    ['127.1', 'invalid'],
    ['0x7f.0.0.1', 'invalid'],
    ['', 'invalid'],
  ])('%s is %s', (text, cls) => {
    const verdict = classifyAddress(text);
    expect(verdict.class).toBe(cls);
    expect(verdict.public).toBe(cls === 'public');
    expect(verdict.description).not.toBe('');
  });

  it.each([
    ['0:0:0:0:0:ffff:7f00:1', '::ffff:7f00:1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['127.000.000.001', '127.000.000.001'],
  ])('reports %s as %s', (text, address) => {
    expect(classifyAddress(text).address).toBe(address);
  });

  it('names the embedded address for mapped, nat64 and 6to4', () => {
    expect(classifyAddress('::ffff:10.1.2.3').description).toContain('10.1.2.3');
    expect(classifyAddress('64:ff9b::a01:203').description).toContain('10.1.2.3');
    expect(classifyAddress('2002:a01:203::').description).toContain('10.1.2.3');
  });
});

describe('classifyAddress: every zero-run position of WHATWG ipv6 text', () => {
  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['1::', 'reserved'],
    ['2001:db8::', 'documentation'],
    ['2001:db8::1:0:0:1', 'documentation'],
    ['2606:4700:4700::1111', 'public'],
    ['2606:4700:4700:0:0:0:0:1111', 'public'],
    ['fe80:0:0:0:0:0:0:0', 'link-local'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['2002:a00:1::', 'private'],
    ['2002:808:808::1', 'public'],
  ])('%s is %s', (text, cls) => {
    expect(classifyAddress(text).class).toBe(cls);
  });
});

describe('classifyIpLiteral: the hot-path twin agrees with classifyAddress', () => {
  it.each([
    ['ipv4', '127.0.0.1'],
    ['ipv4', '0.0.0.0'],
    ['ipv4', '255.255.255.255'],
    ['ipv4', '169.254.169.254'],
    ['ipv4', '8.8.8.8'],
    ['ipv6', '::'],
    ['ipv6', '::1'],
    ['ipv6', '1::'],
    ['ipv6', 'fd00:ec2::254'],
    ['ipv6', '2001:db8::1:0:0:1'],
    ['ipv6', '::ffff:a9fe:a9fe'],
  ] as const)('%s %s', (kind, text) => {
    expect(classifyIpLiteral(kind, text)).toEqual(classifyAddress(text));
  });

  it('for every address WHATWG canonicalizes', () => {
    const literal = fc.oneof(
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.ipV6().map((a) => `[${a}]`),
    );
    fc.assert(
      fc.property(literal, (text) => {
        const uri = parseUri(`http://${text}/`);
        if (!uri.ok || uri.host === null || uri.host.kind === 'name') return;
        expect(classifyIpLiteral(uri.host.kind, uri.host.text)).toEqual(classifyAddress(uri.host.text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('ipLiteralClass: the class alone, as the allow path asks it', () => {
  // the embedded-IPv4 forms and the special-purpose blocks, where the class comes from more than one table
  const special = fc.constantFrom(
    '::ffff:',
    '64:ff9b::',
    '2002:',
    '2001:db8::',
    '2001::',
    '2001:3::',
    '2001:4:112::',
    'fe80::',
    'fd00::',
    '::',
    '100::',
    '5f00::',
  );
  const isatap = fc
    .tuple(fc.ipV6(), fc.ipV4(), fc.constantFrom('0:5efe', '200:5efe', '300:5efe', '100:5efe'))
    .map(([prefix, ipv4, id]) => `${prefix.split(':').slice(0, 4).join(':') || '2606'}::${id}:${ipv4}`);
  const literal = fc.oneof(
    fc.ipV4(),
    fc.ipV4Extended(),
    fc.ipV6(),
    fc.tuple(special, fc.ipV4()).map(([prefix, ipv4]) => `${prefix}${ipv4}`),
    isatap,
  );

  it('is classifyIpLiteral(kind, text).class for every literal WHATWG canonicalizes', () => {
    fc.assert(
      fc.property(literal, (text) => {
        const uri = parseUri(text.includes(':') ? `http://[${text}]/` : `http://${text}/`);
        if (!uri.ok || uri.host === null || uri.host.kind === 'name') return;
        expect(ipLiteralClass(uri.host.kind, uri.host.text)).toBe(
          classifyIpLiteral(uri.host.kind, uri.host.text).class,
        );
      }),
      { numRuns: 5000 },
    );
  });

  it('nonPublicLiteral is classifyIpLiteral for a literal that is not public, undefined for one that is', () => {
    fc.assert(
      fc.property(literal, (text) => {
        const uri = parseUri(text.includes(':') ? `http://[${text}]/` : `http://${text}/`);
        if (!uri.ok || uri.host === null || uri.host.kind === 'name') return;
        const verdict = classifyIpLiteral(uri.host.kind, uri.host.text);
        expect(nonPublicLiteral(uri.host.kind, uri.host.text)).toEqual(verdict.public ? undefined : verdict);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['ipv6', '::ffff:7f00:1', 'loopback'],
    ['ipv6', '2002:a00:1::', 'private'],
    ['ipv6', '2606:4700::5efe:a00:1', 'private'],
    ['ipv6', '2606:4700::200:5efe:808:808', 'public'],
    ['ipv6', 'fe80::5efe:808:808', 'link-local'],
    ['ipv6', 'fd00:ec2::254', 'cloud-metadata'],
    ['ipv4', '169.254.169.254', 'cloud-metadata'],
    ['ipv4', '8.8.8.8', 'public'],
  ] as const)('%s %s is %s', (kind, text, cls) => {
    expect(ipLiteralClass(kind, text)).toBe(cls);
    expect(classifyIpLiteral(kind, text).class).toBe(cls);
    expect(nonPublicLiteral(kind, text)?.class).toBe(cls === 'public' ? undefined : cls);
  });
});
