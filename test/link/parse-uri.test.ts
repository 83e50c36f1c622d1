import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findConfusions, scanAuthority, scanC0Control, scanUserinfo } from '../../src/link/authority-scan.ts';
import { decimalReading } from '../../src/link/host-readings.ts';
import { isCanonicalLdh } from '../../src/link/read-host.ts';
import { maxUriChars, parseUri, type ParsedUri, uriOrigin } from '../../src/link/parse-uri.ts';

function parsed(uri: string): ParsedUri {
  const result = parseUri(uri);
  if (!result.ok) throw new Error(`expected \`${uri}\` to parse: ${result.message}`);
  return result;
}

describe('parseUri: canonical host, port and origin', () => {
  it.each([
    // uri, scheme, host kind, host text, port, origin
    ['https://API.Example.COM:443/a', 'https', 'name', 'api.example.com', 443, 'https://api.example.com'],
    ['http://example.com:8080/', 'http', 'name', 'example.com', 8080, 'http://example.com:8080'],
    ['HTTP://EXAMPLE.com:80/a?b#c', 'http', 'name', 'example.com', 80, 'http://example.com'],
    ['wss://example.com/', 'wss', 'name', 'example.com', 443, 'wss://example.com'],
    ['ws://example.com:443/', 'ws', 'name', 'example.com', 443, 'ws://example.com:443'],
    ['https://example.com./', 'https', 'name', 'example.com.', 443, 'https://example.com.'],
    ['http://ｅｘａｍｐｌｅ.com/', 'http', 'name', 'example.com', 80, 'http://example.com'],
    ['http://%65xample.com/', 'http', 'name', 'example.com', 80, 'http://example.com'],
    ['https://faß.de/', 'https', 'name', 'xn--fa-hia.de', 443, 'https://xn--fa-hia.de'],
    ['http://[0:0::1]:80/', 'http', 'ipv6', '::1', 80, 'http://[::1]'],
    ['http://[::ffff:127.0.0.1]/', 'http', 'ipv6', '::ffff:7f00:1', 80, 'http://[::ffff:7f00:1]'],
    ['http://0x7f.1/', 'http', 'ipv4', '127.0.0.1', 80, 'http://127.0.0.1'],
    ['http://2130706433/', 'http', 'ipv4', '127.0.0.1', 80, 'http://127.0.0.1'],
    ['http://0177.0.0.01/', 'http', 'ipv4', '127.0.0.1', 80, 'http://127.0.0.1'],
    ['http://169。254。169。254/', 'http', 'ipv4', '169.254.169.254', 80, 'http://169.254.169.254'],
    ['guide://manuals/packing', 'guide', 'name', 'manuals', null, 'guide://manuals'],
    ['guide://Manuals:8080/x', 'guide', 'name', 'manuals', 8080, 'guide://manuals:8080'],
    ['guide://0x7f.1/x', 'guide', 'ipv4', '127.0.0.1', null, 'guide://127.0.0.1'],
    ['guide://%31%32%37.0.0.1/x', 'guide', 'ipv4', '127.0.0.1', null, 'guide://127.0.0.1'],
    ['guide://①②⑦.0.0.1/', 'guide', 'ipv4', '127.0.0.1', null, 'guide://127.0.0.1'],
    ['guide://[0::1]/', 'guide', 'ipv6', '::1', null, 'guide://[::1]'],
    ['guide://v1.2/x', 'guide', 'name', 'v1.2', null, 'guide://v1.2'],
  ] as const)('%s', (uri, scheme, kind, text, port, origin) => {
    const p = parsed(uri);
    expect(p.scheme).toBe(scheme);
    expect(p.host).toEqual({ kind, text });
    expect(p.port).toBe(port);
    expect(uriOrigin(p)).toBe(origin);
  });

  it.each([
    ['urn:isbn:0451450523', 'urn', 'isbn:0451450523'],
    ['file:///etc/passwd', 'file', '/etc/passwd'],
    ['javascript:alert(1)', 'javascript', 'alert(1)'],
    ['guide:///no-host', 'guide', '/no-host'],
  ])('%s has no host and no origin', (uri, scheme, path) => {
    const p = parsed(uri);
    expect(p.scheme).toBe(scheme);
    expect(p.host).toBeNull();
    expect(uriOrigin(p)).toBeNull();
    expect(p.port).toBeNull();
    expect(p.url.pathname).toBe(path);
  });
});

describe('parseUri: input that does not parse', () => {
  it.each([
    ['', 'uri has no scheme'],
    ['example.com/a', 'uri has no scheme'],
    ['//example.com', 'uri has no scheme'],
    [' https://example.com', 'uri has no scheme'],
    ['1http://example.com', 'uri has no scheme'],
    ['http://', 'does not parse'],
    ['http://256.256.256.256', 'does not parse'],
    ['http://1.2.3.4.5', 'does not parse'],
    ['http://[::1', 'does not parse'],
    ['http://exa mple.com', 'does not parse'],
    ['http://a\u0000b.com', 'raw control character U+0000 at offset 8'],
    ['http://exa\tmple.com/', 'raw control character U+0009 at offset 10'],
    ['https://example.com/a\nb', 'raw control character U+000A'],
    ['guide://a\u0001b/x', 'raw control character U+0001'],
    ['http://foo.bar/baz?qux#foo\bbar', 'raw control character U+0008'],
    ['https://example.com/\u001b]8;;x', 'raw control character U+001B'],
    ['http://f:999999/c', 'does not parse'],
    ['guide://a\\b/', 'does not parse'],
    [`https://example.com/${'a'.repeat(maxUriChars)}`, 'longer than'],
  ])('%j', (uri, message) => {
    const result = parseUri(uri);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });
});

describe('parseUri: parser-confusion forms', () => {
  it.each([
    ['http://127.1.1.1:80\\@127.2.2.2:80/', 'a backslash in the authority'],
    ['https://evil.example.net#@trusted.example.com/', '`?` or `#` before `@` in the authority'],
    ['https://evil.example.net?@trusted.example.com/', '`?` or `#` before `@` in the authority'],
    ['http:example.com', 'a special scheme not followed by exactly `//`'],
    ['http:/example.com', 'a special scheme not followed by exactly `//`'],
    ['http:\\\\example.com', 'a special scheme not followed by exactly `//`'],
    ['http:///example.com', 'a special scheme not followed by exactly `//`'],
    ['http:/\\example.com', 'a special scheme not followed by exactly `//`'],
    ['guide://a\u007fb/x', 'a control character in the authority'],
    ['guide://a#@b/', '`?` or `#` before `@` in the authority'],
  ])('%j', (uri, form) => {
    expect(parsed(uri).confusions).toContain(form);
  });

  it.each([
    'https://medium.com/@user/post-123',
    'https://www.example.com/path{\u007fpath.html?query=1#frag\u007f',
    'https://example.com/a\\b',
    'https://example.com/?next=http://a@b/',
    'guide://manuals/packing',
    'file:///etc/passwd',
    'urn:isbn:0451450523',
  ])('%j has none', (uri) => {
    expect(parsed(uri).confusions).toEqual([]);
  });
});

describe('parseUri: userinfo', () => {
  it.each([
    ['http://user:pw@example.com/', true],
    ['http://@example.com/', true],
    ['http://:@example.com/', true],
    ['http:@example.com', true],
    ['guide://user@manuals/x', true],
    ['https://example.com/@x', false],
    ['https://example.com/?a=@b', false],
    ['guide://manuals/a@b', false],
    // a special authority ends at `\`, `?` or `#`: an `@` after them is not userinfo
    ['HTTPS://a\\@b/', false],
    ['https://a?@b/', false],
    ['https://a#@b/', false],
    ['guide://a?@b/', false],
    // scheme case and the shapes WHATWG reads after any run of slashes
    ['Http://U@example.com', true],
    ['wss://u@x/', true],
    ['ws:\\\\u@x/', true],
    ['http:///user@example.com/', true],
    ['hTtPs://a/b@c', false],
  ])('%s → %s', (uri, userinfo) => {
    expect(parsed(uri).userinfo).toBe(userinfo);
  });

  it.each([
    ['HTTP://a/', 'http'],
    ['hTtPs://a/', 'https'],
    ['WS://a/', 'ws'],
    ['Wss://a/', 'wss'],
    ['httpx://a/', 'httpx'],
    ['htt://a/', 'htt'],
    ['wsx://a/', 'wsx'],
    ['W://a/', 'w'],
    ['H.T-T+P://a/', 'h.t-t+p'],
  ])('scheme of %s is %s', (uri, scheme) => {
    expect(parsed(uri).scheme).toBe(scheme);
  });
});

describe('parseUri: names that end in a digit are names', () => {
  it.each([
    ['https://host1/', 'host1'],
    ['https://a.b-1/', 'a.b-1'],
    ['https://web2.example.com/', 'web2.example.com'],
    ['guide://v1.2/x', 'v1.2'],
  ])('%s', (uri, text) => {
    expect(parsed(uri).host).toEqual({ kind: 'name', text });
  });
});

describe('parseUri: one scan of the raw text', () => {
  // a uri built from pieces that move the host, the port and the userinfo around, with any raw C0 control inserted
  const piece = fc.constantFrom(
    'a',
    'B',
    '0',
    '7',
    '.',
    ':',
    '@',
    '/',
    '\\',
    '?',
    '#',
    '%',
    '[',
    ']',
    '\u007f',
    ' ',
    'ß',
    '%30',
  );
  const uri = fc.tuple(
    fc.constantFrom('http://', 'https://', 'ws:', 'HTTP:///', 'guide://', 'guide:', 'urn:', 'file://'),
    fc.array(piece, { maxLength: 24 }).map((p) => p.join('')),
  );

  it('refuses every raw C0 control, naming the first one, wherever it stands', () => {
    fc.assert(
      fc.property(uri, fc.integer({ min: 0, max: 0x1f }), fc.nat(), ([head, tail], code, at) => {
        const text = `${head}${tail}`;
        const offset = head.length + (at % (tail.length + 1));
        const raw = `${text.slice(0, offset)}${String.fromCharCode(code)}${text.slice(offset)}`;
        const result = parseUri(raw);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.message).toContain(`at offset ${offset}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('a uri without raw controls is never refused for one', () => {
    fc.assert(
      fc.property(uri, ([head, tail]) => {
        const result = parseUri(`${head}${tail}`);
        if (!result.ok) expect(result.message).not.toContain('raw control character');
      }),
      { numRuns: 3000 },
    );
  });

  it('a serialized network uri, read without a pass over its text, gets what the pass would find', () => {
    // WHATWG's own serialization of anything the pieces make: only such text is read without the pass
    fc.assert(
      fc.property(uri, fc.constantFrom('http', 'https', 'ws', 'wss', 'HTTP', 'Ws'), ([, tail], scheme) => {
        const href = URL.parse(`${scheme}://${tail}`)?.href;
        if (href === undefined) return;
        const scan = scanAuthority(href, href.indexOf(':') + 1, true);
        const result = parsed(href);
        expect(scan & scanC0Control).toBe(0);
        expect(result.userinfo).toBe((scan & scanUserinfo) !== 0);
        expect(result.confusions).toEqual(findConfusions(scan, true));
        expect(result.hasAuthority).toBe(true);
        const url = new URL(href);
        expect(result.host?.text ?? '').toBe(url.hostname.replace(/^\[|\]$/g, ''));
        expect(result.explicitPort).toBe(url.port === '' ? null : Number(url.port));
      }),
      { numRuns: 5000 },
    );
  });

  // the decimal reading of a special IPv4 host is taken from its raw text; a pass over the authority skips it only
  // where `decimalReading` would find none
  const part = fc.oneof(
    fc.integer({ min: 0, max: 300 }).map(String),
    fc.integer({ min: 0, max: 0xffff }).map((n) => `0${n.toString(8)}`),
    fc.integer({ min: 0, max: 0xffff }).map((n) => `0x${n.toString(16)}`),
    fc.integer({ min: 0, max: 0xffffffff }).map(String),
    fc.constantFrom('00', '08', '010', '0', '０１０', '%30%31', 'a'),
  );
  const ipv4ish = fc.tuple(
    fc.array(part, { minLength: 1, maxLength: 4 }).map((p) => p.join('.')),
    fc.constantFrom('', '.'),
    fc.constantFrom('', ':80', ':8080', ':'),
    fc.constantFrom('', 'user@', 'u:p@', '010.1.1.1@', '010.1.1.1:80@'),
    fc.constantFrom('//', '/\\', '///', '\\\\'),
    fc.constantFrom('/', '?q', '#f', '', '\\x'),
  );

  it('finds the decimal reading of every zero-padded IPv4 form, however the authority is written', () => {
    fc.assert(
      fc.property(ipv4ish, ([host, dot, port, userinfo, slashes, rest]) => {
        const result = parseUri(`http:${slashes}${userinfo}${host}${dot}${port}${rest}`);
        if (!result.ok || result.host?.kind !== 'ipv4') return;
        expect(result.otherHosts).toEqual(decimalReading(`${host}${dot}`, result.host));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('decimalReading of plain digits and dots, in one pass', () => {
  // the general steps (split, patterns, numbers) as the reference for the one-pass reading
  const reference = (raw: string, hostText: string): readonly { kind: string; text: string }[] => {
    if (!raw.includes('0') || !/(?:^|\.)0\d/.test(raw)) return [];
    const text = raw.endsWith('.') ? raw.slice(0, -1) : raw;
    const parts = text.split('.');
    if (parts.length > 4 || !parts.every((p) => /^\d+$/.test(p)) || !parts.some((p) => /^0\d/.test(p))) return [];
    const numbers = parts.map(Number);
    const last = numbers.pop() ?? 0;
    if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return [];
    let address = 0;
    for (const n of numbers) address = address * 256 + n;
    address = address * 256 ** (4 - numbers.length) + last;
    const dotted = `${Math.floor(address / 16777216)}.${Math.floor(address / 65536) % 256}.${Math.floor(address / 256) % 256}.${address % 256}`;
    return dotted === hostText ? [] : [{ kind: 'ipv4', text: dotted }];
  };

  it('matches the general steps for every text of digits and dots', () => {
    const text = fc
      .array(
        fc.oneof(fc.constantFrom('.', '0', '00', '010', '0177', '255', '256', '4294967295', '99999999999999999999')),
        {
          maxLength: 9,
        },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, fc.constantFrom('8.0.0.1', '127.0.0.1', '10.0.0.1'), (raw, hostText) => {
        expect(decimalReading(raw, { kind: 'ipv4', text: hostText })).toEqual(reference(raw, hostText));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('isCanonicalLdh, in one pass', () => {
  const canonicalLdh = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)*$/;
  it('matches the pattern it replaces for every text of host characters', () => {
    const char = fc.constantFrom('a', 'z', 'q', '0', '9', '-', '.', 'A', '_', '%', 'é', '\u0000');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 12 }), (chars) => {
        const text = chars.join('');
        expect(isCanonicalLdh(text)).toBe(canonicalLdh.test(text));
      }),
      { numRuns: 20000 },
    );
  });
});

describe('a custom host read once for the links that follow on it', () => {
  it('gives the next link on the same host the same reading, frozen, and another host its own', () => {
    const first = parsed('guide://docs/a');
    const second = parsed('guide://docs/b');
    expect(second.host).toEqual({ kind: 'name', text: 'docs' });
    expect(second.host).toBe(first.host);
    // shared by two parses: no caller may change what the next link on that host is given
    expect(Object.isFrozen(second.host)).toBe(true);
    expect(Object.isFrozen(second.otherHosts)).toBe(true);
    expect(parsed('guide://0x7f.1/c').host).toEqual({ kind: 'ipv4', text: '127.0.0.1' });
    expect(parsed('guide://DOCS/d').host).toEqual({ kind: 'name', text: 'docs' });
  });
});

describe('a custom scheme read once for the links that follow with it', () => {
  it('reads each scheme lower-case with its own facts, whatever came before', () => {
    expect(parsed('guide://a/x').scheme).toBe('guide');
    expect(parsed('GUIDE://a/x').scheme).toBe('guide');
    expect(parsed('guide://a/y').scheme).toBe('guide');
    expect(parsed('guidex://a/x').scheme).toBe('guidex');
    expect(parsed('gui://a/x').scheme).toBe('gui');
    const file = parsed('FILE:///etc/passwd');
    expect([file.scheme, file.special, file.schemeFacts.defaultPort]).toEqual(['file', true, null]);
    const guide = parsed('guide://a/z');
    expect([guide.scheme, guide.special, guide.schemeFacts.knownNonCustom]).toEqual(['guide', false, false]);
  });
});
