// A refused address behind an IPv6 host written another way was not found (red team round 6): `[::ffff:169.254.169.254]`
// and `[::ffff:a9fe:a9fe]` reach 169.254.169.254 through curl or a dual-stack socket, and `[FD00:0:0::1]` is the host
// `[fd00::1]` to every URL parser. The oracles are ipaddr.js (the mapped IPv4 address) and the WHATWG URL parser (the
// host it writes); fast-check writes each address in the spellings RFC 4291 allows.
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, test } from 'vitest';
import { AddressSearch } from '../../src/flow/address-search.ts';
import { readIpv6Host, readIpv6Hosts } from '../../src/flow/bracketed-hosts.ts';

function refused(...uris: string[]): AddressSearch<string> {
  const search = new AddressSearch<string>();
  for (const uri of uris) search.add(uri, uri);
  return search;
}

// an IPv6 address written with every piece, leading zeros and case as `spelling` says, and `::` where it says
function spell(pieces: number[], spelling: { pad: boolean[]; upper: boolean; compress: number | null }): string {
  const written = pieces.map((p, i) => {
    const hex = spelling.pad[i] ? p.toString(16).padStart(4, '0') : p.toString(16);
    return spelling.upper ? hex.toUpperCase() : hex;
  });
  const at = spelling.compress;
  if (at === null || at >= written.length - 1 || pieces[at] !== 0 || pieces[at + 1] !== 0) return written.join(':');
  let end = at;
  while (end < pieces.length && pieces[end] === 0) end += 1;
  return `${written.slice(0, at).join(':')}::${written.slice(end).join(':')}`;
}

// `::` at a piece from 0 to `last` (or none)
const spelling = (last: number) =>
  fc.record({
    pad: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    upper: fc.boolean(),
    compress: fc.option(fc.integer({ min: 0, max: last }), { nil: null }),
  });

describe('a bracketed IPv6 host is read as a URL parser reads it', () => {
  test('an IPv4-mapped host, however written, is read as its IPv4 address (ipaddr.js is the oracle)', () => {
    fc.assert(
      fc.property(fc.ipV4(), spelling(4), fc.boolean(), (v4, how, dottedTail) => {
        const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
        const pieces = [0, 0, 0, 0, 0, 0xffff, (a << 8) | b, (c << 8) | d];
        let host = spell(pieces, how);
        if (dottedTail) host = `${host.slice(0, host.lastIndexOf(':', host.lastIndexOf(':') - 1))}:${v4}`;
        const oracle = ipaddr.IPv6.parse(host);
        expect(oracle.isIPv4MappedAddress()).toBe(true);
        expect(readIpv6Host(`[${host}]`)).toBe(oracle.toIPv4Address().toString());
      }),
    );
  });

  test('any other IPv6 host is written as the WHATWG URL parser writes it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }),
        spelling(6),
        (p, how) => {
          fc.pre(!ipaddr.IPv6.parse(spell(p, how)).isIPv4MappedAddress());
          const written = `[${spell(p, how)}]`;
          expect(readIpv6Host(written)).toBe(new URL(`http://${written}/`).hostname);
        },
      ),
    );
  });

  test('what is no IPv6 address is left as written', () => {
    for (const text of ['[1]', '[::g]', '[1:2:3:4:5:6:7:8:9]', '[a:b]', '[]', '[:]', '[[::1]]x', 'arr[12]', '[ab.cd]'])
      expect(readIpv6Hosts(text), text).toBe(text);
  });
});

describe('the refused-address search finds the address behind another spelling of its host', () => {
  const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';

  test('an IPv4 address refused, named by an IPv4-mapped IPv6 host (the red team round 6 spellings and more)', () => {
    const search = refused(metadata);
    for (const host of [
      '[::ffff:169.254.169.254]',
      '[::ffff:a9fe:a9fe]',
      '[::FFFF:A9FE:A9FE]',
      '[0:0:0:0:0:ffff:169.254.169.254]',
      '[0000::ffff:a9fe:a9fe]',
    ]) {
      const written = `http://${host}/latest/meta-data/iam/security-credentials/`;
      expect(ipaddr.IPv6.parse(host.slice(1, -1)).toIPv4Address().toString()).toBe('169.254.169.254');
      expect(search.find(`the keys are at ${written} now`), host).toBe(metadata);
    }
  });

  test('an IPv6 address refused, named by another spelling of it', () => {
    const search = refused('http://[fd00::1]/admin/keys');
    for (const host of ['[FD00::1]', '[fd00:0::1]', '[fd00:0000:0:0:0:0:0:0001]'])
      expect(search.find(`try http://${host}/admin/keys`), host).toBe('http://[fd00::1]/admin/keys');
  });

  test('an IPv4-mapped address refused, named by its IPv4 address', () => {
    const search = refused('http://[::ffff:a9fe:a9fe]/latest/meta-data/');
    expect(search.find('fetch http://169.254.169.254/latest/meta-data/ now')).toBe(
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    );
  });

  test('other addresses are not found', () => {
    const search = refused(metadata);
    expect(search.find('see http://[::ffff:a9fe:a9ff]/latest/meta-data/iam/security-credentials/')).toBeUndefined();
    expect(search.find('see http://[fe80::a9fe:a9fe]/latest/meta-data/iam/security-credentials/')).toBeUndefined();
  });
});
