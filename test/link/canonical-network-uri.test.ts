import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCanonicalNetworkUri } from '../../src/link/canonical-network-uri.ts';
import { parseUri } from '../../src/link/parse-uri.ts';
import { isDottedQuad } from '../../src/link/uri-host.ts';
import { expectSameParse } from './expect-same-parse.ts';

// The fast path is only sound where WHATWG URL (the reference) reads the text exactly as it is written: every uri it
// takes must be its own serialization, with the host and port it reports and no userinfo.
function expectWhatwgAgrees(raw: string): void {
  const parts = readCanonicalNetworkUri(raw);
  if (parts === null) return;
  const { scheme, hostStart, hostEnd, kind, port, address } = parts;
  const url = URL.parse(raw);
  // the text is its own serialization, but for an IPv4 host in another number form, which WHATWG writes dotted
  const written = address === null ? raw : `${raw.slice(0, hostStart)}${address}${raw.slice(hostEnd)}`;
  expect(url?.href, raw).toBe(written);
  if (url === null) return;
  expect(url.protocol).toBe(`${scheme}:`);
  const hostText = address ?? raw.slice(hostStart, hostEnd);
  expect(url.hostname).toBe(kind === 'ipv6' ? `[${hostText}]` : hostText);
  expect(url.port).toBe(port === -1 ? '' : String(port));
  expect(url.username + url.password).toBe('');
  // the host kind `specialHost` takes from WHATWG's hostname, and no punycode for another reader to decode
  expect(isDottedQuad(url.hostname)).toBe(kind === 'ipv4');
  expect(url.hostname.includes('xn--')).toBe(false);
  // and parseUri reads it as its WHATWG path reads the same text with an upper-case scheme
  const fast = parseUri(raw);
  const slow = parseUri(raw.replace(/^[a-z]+/, (s) => s.toUpperCase()));
  expect(fast.ok && slow.ok, raw).toBe(true);
  expectSameParse(fast, slow, raw);
  if (fast.ok) expect(fast.url.href, raw).toBe(written);
}

// IPv6 text with many zero pieces and one `::` anywhere (or none): where WHATWG compresses is the hard part
const ipv6Pieces = fc
  .tuple(
    fc.array(fc.constantFrom('0', '0', '1', 'a', 'ffff', '00', 'A'), { maxLength: 9 }),
    fc.integer({ min: -1, max: 9 }),
  )
  .map(([pieces, at]) =>
    at < 0 || at > pieces.length
      ? `[${pieces.join(':')}]`
      : `[${pieces.slice(0, at).join(':')}::${pieces.slice(at).join(':')}]`,
  );

describe('readCanonicalNetworkUri: a uri that is its own WHATWG serialization', () => {
  it.each([
    ['https://docs.example.com/guide/packing?lang=en', 'docs.example.com', 'name', -1],
    ['http://93.184.215.14/index.html', '93.184.215.14', 'ipv4', -1],
    ['http://10.0.0.5/', '10.0.0.5', 'ipv4', -1],
    ['wss://stream.example.net/socket', 'stream.example.net', 'name', -1],
    ['ws://a.example.net:443/socket/2', 'a.example.net', 'name', 443],
    ['http://api.x.dev:8080/docs/a.md?v=3#top', 'api.x.dev', 'name', 8080],
    ['https://www.example.org/a/b/c.png', 'www.example.org', 'name', -1],
    ['http://localhost/', 'localhost', 'name', -1],
    ['http://0.0.0.0/', '0.0.0.0', 'ipv4', -1],
    ['https://[2606:4700:438b::bc71]:8080/x/8', '2606:4700:438b::bc71', 'ipv6', 8080],
    ['http://[::1]/', '::1', 'ipv6', -1],
    ['http://[::]/', '::', 'ipv6', -1],
    ['http://[fd00:ec2::254]/latest/', 'fd00:ec2::254', 'ipv6', -1],
    ['http://[1:0:0:2::]/', '1:0:0:2::', 'ipv6', -1],
    ['http://[1:2:3:4:5:6:7:8]/', '1:2:3:4:5:6:7:8', 'ipv6', -1],
    ['http://[1::2:0:0:3]/', '1::2:0:0:3', 'ipv6', -1],
    // IPv4 in other number forms: the host is WHATWG's dotted reading of them
    ['http://2130706433/', '127.0.0.1', 'ipv4', -1],
    ['http://0x7f.1:8080/a', '127.0.0.1', 'ipv4', 8080],
    ['http://0177.0.0.1/', '127.0.0.1', 'ipv4', -1],
    ['http://017700000001/', '127.0.0.1', 'ipv4', -1],
    ['http://0x8abb674f/', '138.187.103.79', 'ipv4', -1],
    ['http://10.0.1/', '10.0.0.1', 'ipv4', -1],
    ['http://0/', '0.0.0.0', 'ipv4', -1],
    ['http://010.0.0.1/', '8.0.0.1', 'ipv4', -1],
    ["https://a-b.1x.io/%41%7e/...x?q=%2e&r=x#'f?", 'a-b.1x.io', 'name', -1],
  ] as const)('%s', (raw, host, kind, port) => {
    const parts = readCanonicalNetworkUri(raw);
    expect(parts).not.toBeNull();
    expect(parts?.address ?? raw.slice(parts?.hostStart, parts?.hostEnd)).toBe(host);
    expect(parts?.kind).toBe(kind);
    expect(parts?.port).toBe(port);
    expectWhatwgAgrees(raw);
  });

  it.each([
    'HTTPS://example.com/', // scheme case
    'https://Example.com/', // host case
    'https://example.com', // no path
    'https://example.com?x', // query before a path
    'https://example.com./', // trailing dot
    'https://a..b/', // empty label
    'https://xn--fa-hia.de/', // punycode
    'https://a.xn--p1ai/',
    'http://256.0.0.1/', // a part over 255
    'http://1.2.3.4.5/',
    'http://0x/', // no digit after the prefix
    'http://08/', // not octal
    'http://0X7f.1/', // upper case
    'http://4294967296/',
    'http://1.16777216/',
    'http://127.0.0.1./',
    'http://[0:0:0:0:0:0:0:1]/', // not compressed
    'http://[::ffff:127.0.0.1]/', // dotted tail
    'http://[::FFFF:1]/', // upper case
    'http://[::01]/', // leading zero
    'http://[1:2:3:4:5:6::8]/', // `::` for one piece
    'http://[1:0:0:2::3:4]/', // a run as long as the `::` one, first
    'http://[1::2:0:0:0:3]/', // a longer run after
    'http://[1:0::2]/', // a zero piece beside `::`
    'http://[1:2:3:4:5:6:7:8:9]/',
    'http://[1::2::3]/',
    'http://[::1]:80/',
    'http://a.0x1/',
    'http://a:80/', // default port
    'https://a:443/',
    'http://a:080/',
    'http://a:65536/',
    'http://a:/',
    'http://u@a/', // userinfo
    'http://a/./b',
    'http://a/b/..',
    'http://a/%2e/b',
    'http://a/%2E%2e/',
    'http://a/b%zz',
    "https://a/?q='", // `'` is encoded in a special query
    'http://a/b c',
    'http://a/b\\c',
    'http://a/é',
    'http://a/#x#y',
    'http://a/{x}',
    'ftp://a/',
    'file:///etc/passwd',
    'http:/a/',
  ])('%s is left to the WHATWG parser', (raw) => {
    expect(readCanonicalNetworkUri(raw)).toBeNull();
  });

  it('agrees with WHATWG URL on every uri it takes (generated near the covered form)', () => {
    const piece = fc.constantFrom(
      ...'abcxyz019-.:/?#%@\\\'"<>`{}|^[] \t~!$&()*+,;=ABZ'.split(''),
      'xn--',
      '%2e',
      '%2E',
      '%41',
      '%0',
      '..',
      '.',
      '255',
      '256',
      '00',
      '0x',
      '80',
      '443',
      '65535',
      '65536',
      'ß',
      '。',
      'é',
    );
    const scheme = fc.constantFrom('http://', 'https://', 'ws://', 'wss://', 'HTTP://', 'http:/', 'http:///');
    const host = fc.oneof(
      fc.domain(),
      fc.ipV4(),
      fc.ipV4Extended(),
      fc.ipV6().map((a) => `[${a}]`),
      ipv6Pieces,
      fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
    );
    const port = fc.oneof(
      fc.constant(''),
      fc.integer({ min: 0, max: 70000 }).map((p) => `:${p}`),
      fc.constant(':'),
    );
    const rest = fc.array(piece, { maxLength: 16 }).map((p) => p.join(''));
    fc.assert(
      fc.property(scheme, host, port, rest, (s, h, p, r) => {
        expectWhatwgAgrees(`${s}${h}${p}${r}`);
        expectWhatwgAgrees(`${s}${h}${p}/${r}`);
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with WHATWG URL where most generated uris are taken (dot segments, escapes, query and fragment)', () => {
    let taken = 0;
    const piece = fc.constantFrom(
      'a',
      'Z',
      '0',
      '-',
      '.',
      '..',
      '/',
      '/.',
      '/..',
      '%2e',
      '%41',
      '%7E',
      '?',
      '#',
      "'",
      ':',
      '@',
      '~',
    );
    const scheme = fc.constantFrom('http://', 'https://', 'ws://', 'wss://');
    const host = fc.oneof(
      fc.domain(),
      fc.ipV4(),
      fc.constantFrom('localhost', 'a', '1.a', 'a-.b-', '0.0.0.0'),
      fc
        .array(fc.constantFrom('0', '1', '7', '9', '0x', 'f', 'a', '.', '00', '255', '4294967295', '4294967296'), {
          minLength: 1,
          maxLength: 6,
        })
        .map((p) => p.join('')),
      fc.ipV6().map((a) => `[${a}]`),
      ipv6Pieces,
    );
    const port = fc.oneof(
      fc.constant(''),
      fc.integer({ min: 1, max: 65535 }).map((p) => `:${p}`),
    );
    const rest = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(scheme, host, port, rest, (s, h, p, r) => {
        const raw = `${s}${h}${p}/${r}`;
        if (readCanonicalNetworkUri(raw) !== null) taken++;
        expectWhatwgAgrees(raw);
      }),
      { numRuns: 20_000 },
    );
    // not a vacuous property: a good share of the uris take the fast path
    expect(taken).toBeGreaterThan(5_000);
  });
});
