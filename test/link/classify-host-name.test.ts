import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyHostName, internalTopLevelDomains, type NameClass } from '../../src/link/classify-host-name.ts';
import { nameHash } from '../../src/link/name-hash.ts';
import { asciiTopLevelDomains, resolvedReservedTopLevelDomains } from '../../src/link/root-zone.ts';
import { wildcardDnsTopLevelDomains } from '../../src/link/wildcard-dns.ts';
import { compileNamePatterns } from '../../src/link/name-patterns.ts';

const internalNames = compileNamePatterns(['build.corp.example.com', '*.svc.example.net']);

describe('classifyHostName: network authorities', () => {
  it.each<[string, NameClass]>([
    ['example.com', 'public'],
    ['docs.example.com', 'public'],
    ['example.com.', 'public'],
    ['localhost.example.com', 'public'],
    ['169-254-169-254.example.com', 'public'],
    ['ssrf.localdomain.pw', 'public'],
    ['xn--fa-hia.de', 'public'],
    ['foo.bar', 'public'],
    ['localhost', 'localhost'],
    ['localhost.', 'localhost'],
    ['example.com.localhost', 'localhost'],
    ['ip6-localhost', 'localhost'],
    ['ip6-loopback', 'localhost'],
    ['localhost.localdomain', 'localhost'],
    ['metadata', 'cloud-metadata'],
    ['metadata.google.internal', 'cloud-metadata'],
    ['metadata.google.internal.', 'cloud-metadata'],
    ['instance-data', 'cloud-metadata'],
    ['metadata.packet.net', 'cloud-metadata'],
    ['build.corp.example.com', 'policy-internal'],
    ['a.svc.example.net', 'policy-internal'],
    ['svc.example.net', 'public'],
    ['intranet', 'single-label'],
    ['x', 'single-label'],
    ['*', 'single-label'],
    ['db.internal', 'internal-tld'],
    ['printer.local', 'internal-tld'],
    ['nas.home.arpa', 'internal-tld'],
    ['test.invalid', 'internal-tld'],
    ['a.test', 'internal-tld'],
    ['wiki.corp', 'internal-tld'],
    ['router.lan', 'internal-tld'],
    ['host.localdomain', 'internal-tld'],
    // RFC 6761 §6.5: documentation names are resolved like any other, not a local namespace (issue 41)
    ['www.example', 'public'],
    ['xn--fa-hia.example', 'public'],
    ['duck.onion', 'internal-tld'],
    ['..', 'empty-label'],
    ['foo.09..', 'empty-label'],
    ['a..b', 'empty-label'],
    ['127.0.0.1.nip.io', 'wildcard-dns'],
    ['app-10-0-0-5.sslip.io', 'wildcard-dns'],
    ['0a000005.nip.io', 'wildcard-dns'],
    ['localtest.me', 'wildcard-dns'],
    ['anything.lvh.me', 'wildcard-dns'],
    ['8.8.8.8.nip.io', 'public'],
    ['nip.io', 'public'],
    ['localhost4', 'localhost'],
    ['localhost6.localdomain6', 'localhost'],
    ['ip6-allnodes', 'localhost'],
    ['ipv6-loopback', 'localhost'],
    ['api.default.svc', 'internal-tld'],
    ['web.service.consul', 'internal-tld'],
    ['x.svc.cluster.local', 'internal-tld'],
    ['host.localdomain4', 'internal-tld'],
    ['fd00-ec2--254.sslip.io', 'wildcard-dns'],
    ['--1.nip.io', 'wildcard-dns'],
    ['2606-4700-4700--1111.sslip.io', 'public'],
    ['db.prod', 'public'],
    ['db.prodvpc', 'undelegated-tld'],
    ['printer.office', 'public'],
    ['printer.officelan', 'undelegated-tld'],
    ['example.xn--p1ai', 'public'],
  ])('%s is %s', (name, cls) => {
    const verdict = classifyHostName(name, { internalNames });
    expect(verdict.class).toBe(cls);
    expect(verdict.public).toBe(cls === 'public');
  });
});

describe('classifyHostName: custom-scheme authorities', () => {
  it.each<[string, NameClass]>([
    ['manuals', 'public'],
    ['team', 'public'],
    ['test', 'public'],
    ['a..b', 'public'],
    ['localhost', 'localhost'],
    ['metadata', 'cloud-metadata'],
    ['db.internal', 'internal-tld'],
    ['build.corp.example.com', 'policy-internal'],
    ['localhost4.localdomain4', 'localhost'],
    ['localhost6', 'localhost'],
    ['kubernetes.svc', 'internal-tld'],
    // an identifier is not a dns name: the root zone does not judge it
    ['team.retro', 'public'],
  ])('%s is %s', (name, cls) => {
    expect(classifyHostName(name, { internalNames, opaqueAuthority: true }).class).toBe(cls);
  });
});

describe('classifyHostName: empty labels, found in one pass', () => {
  // the rule as written before the one-pass scan: one trailing dot dropped, then no empty label anywhere
  const hasEmptyLabel = (host: string): boolean => {
    const name = host.endsWith('.') ? host.slice(0, -1) : host;
    return name === '' || name.startsWith('.') || name.endsWith('.') || name.includes('..');
  };

  it('calls a name empty-label exactly when a label is empty', () => {
    const host = fc.array(fc.constantFrom('a', 'b', '.', 'com', 'x1'), { maxLength: 8 }).map((p) => p.join(''));
    fc.assert(
      fc.property(host, (text) => {
        expect(classifyHostName(text).class === 'empty-label').toBe(hasEmptyLabel(text));
        if (hasEmptyLabel(text)) expect(classifyHostName(text, { opaqueAuthority: true }).class).toBe('public');
      }),
      { numRuns: 3000 },
    );
  });
});

describe('classifyHostName: the top-level domain looked up by its hash, compared in place', () => {
  // the rule as written before the lookup by hash: one set per kind of top-level domain
  const reference = (tld: string): NameClass => {
    if (tld === 'localhost') return 'localhost';
    if (internalTopLevelDomains.has(tld)) return 'internal-tld';
    return asciiTopLevelDomains.has(tld) || tld.startsWith('xn--') || resolvedReservedTopLevelDomains.has(tld)
      ? 'public'
      : 'undelegated-tld';
  };
  const listed = [...new Set([...asciiTopLevelDomains, ...internalTopLevelDomains, ...wildcardDnsTopLevelDomains])];

  it('every listed top-level domain, and labels one character off, get the class the sets give', () => {
    for (const tld of listed) {
      for (const label of [tld, `${tld}x`, tld.slice(0, -1), `x${tld}`, `xn--${tld}`]) {
        if (label === '') continue;
        expect(classifyHostName(`name.${label}`).class, label).toBe(reference(label));
      }
    }
  });

  it('a label with the same hash as a listed one is not taken for it', () => {
    const chars = 'abcdefghijklmnopqrstuvwxyz0123456789-';
    // every label of one to three characters, by hash (`io` and `k1` share one: 105·31+111 = 107·31+49)
    const byHash = new Map<number, string[]>();
    const walk = (prefix: string): void => {
      if (prefix !== '') byHash.set(nameHash(prefix), [...(byHash.get(nameHash(prefix)) ?? []), prefix]);
      if (prefix.length < 3) for (const c of chars) walk(prefix + c);
    };
    walk('');
    let checked = 0;
    for (const tld of listed) {
      if (tld.length > 3) continue;
      for (const other of byHash.get(nameHash(tld)) ?? []) {
        if (other === tld) continue;
        expect(classifyHostName(`name.${other}`).class, `${other} (the hash of ${tld})`).toBe(reference(other));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
