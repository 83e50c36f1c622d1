import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { readCanonicalOpaqueUri } from '../../src/link/canonical-opaque-uri.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { parseUri } from '../../src/link/parse-uri.ts';
import { UriReading } from '../../src/link/reused-url.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { hasShared, repoRoot, sharedPath } from '../helpers/shared-dir.ts';
import { expectSameParse } from './expect-same-parse.ts';

// A reading that says the text is not covered: parseUri, maskUri and the decision then take the WHATWG path, the
// reference the fast path must match
class ParsedReading extends UriReading {
  override get opaque(): number {
    return -1;
  }
}

// The fast path is only sound where WHATWG URL reads the text exactly as written: every uri it takes must be its own
// serialization with the host, path, port, userinfo, query and fragment it claims, and parseUri and maskUri must give
// what their WHATWG path gives for the same text
function expectWhatwgAgrees(raw: string): boolean {
  const end = readCanonicalOpaqueUri(raw);
  if (end !== -1) {
    const url = URL.parse(raw);
    expect(url?.href, raw).toBe(raw);
    if (url === null) return true;
    const colon = raw.indexOf(':');
    expect(url.protocol, raw).toBe(raw.slice(0, colon + 1));
    expect(url.hostname, raw).toBe(raw.slice(colon + 3, end));
    expect(url.host, raw).toBe(raw.slice(colon + 3, end));
    expect(url.pathname, raw).toBe(raw.slice(end));
    expect([url.port, url.username, url.password, url.search, url.hash], raw).toEqual(['', '', '', '', '']);
  }
  expectSameParse(parseUri(raw), parseUri(raw, new ParsedReading(raw)), raw);
  expect(maskUri(raw), raw).toBe(maskUri(raw, new ParsedReading(raw)));
  return end !== -1;
}

describe('readCanonicalOpaqueUri: a custom-scheme uri that is its own WHATWG serialization', () => {
  it.each([
    ['guide://docs/packing/1', 'docs'],
    ['bench://text/1024', 'text'],
    ['vault://Secrets.Team_A~1/k', 'Secrets.Team_A~1'],
    ['guide://h', 'h'],
    ['guide://h/', 'h'],
    ['guide://h//x', 'h'],
    ["x-y.z+1://a-b/c!$&'()*+,;=:@d/...e/.f/g.", 'a-b'],
    ['guide://127.0.0.1/', '127.0.0.1'],
    ['guide://0x7f.1/', '0x7f.1'],
    ['guide://2130706433/a', '2130706433'],
    ['guide://256.0.0.1/', '256.0.0.1'],
    ['guide://xn--fa-hia.de/', 'xn--fa-hia.de'],
    ['guide://LOCALHOST/', 'LOCALHOST'],
    ['javascript://a/b', 'a'],
  ])('%s', (raw, host) => {
    const end = readCanonicalOpaqueUri(raw);
    expect(raw.slice(raw.indexOf(':') + 3, end)).toBe(host);
    expect(expectWhatwgAgrees(raw)).toBe(true);
  });

  it.each([
    'GUIDE://h/', // scheme case
    'guide:h/x', // no authority
    'guide:/h/x',
    'guide:///x', // empty host
    'guide://h:80/', // a port
    'guide://h:/',
    'guide://u@h/', // userinfo
    'guide://@h/',
    'guide://h/a?x', // query
    'guide://h/a#x', // fragment
    'guide://h#x',
    'guide://h/./a', // dot segments
    'guide://h/a/..',
    'guide://h/..',
    'guide://h/.',
    'guide://h/%2e/a', // any `%`
    'guide://h%41/',
    'guide://h/%41',
    'guide://[::1]/', // brackets
    'guide://h\\x/', // backslash
    'guide://h/a\\b',
    'guide://h/a b',
    'guide://h/a\tb',
    'guide://h/é',
    'guide://hé/',
    'guide://h/{x}',
    'guide://h!/',
    'http://h/', // special schemes
    'https://h/',
    'ws://h/',
    'wss://h/',
    'ftp://h/',
    'file://h/',
    'data://h/x,y', // masked by its payload
    ' guide://h/', // leading space
    'guide://h/\n',
    '1guide://h/',
  ])('%s is left to the WHATWG parser', (raw) => {
    expect(readCanonicalOpaqueUri(raw)).toBe(-1);
    expectWhatwgAgrees(raw);
  });

  it('agrees with WHATWG URL, parseUri and maskUri on generated uris near the covered form', () => {
    let taken = 0;
    const tricky = fc.constantFrom(
      ...'aZ09-._~/\\%@:[]?#!$&\'()*+,;= \t\n\r"<>`{}|^'.split(''),
      '.',
      '..',
      '/.',
      '/..',
      '%2e',
      '%2E',
      '%41',
      '%0',
      '%',
      'é',
      'ß',
      '。',
      '\u0000',
      '\u007f',
      'xn--',
      'A',
      'x',
      'docs',
      '127.0.0.1',
      '0x7f',
      '80',
    );
    // plain pieces three times in four, so that covered uris are drawn often beside the tricky ones
    const plain = fc.constantFrom('a', 'Z', '0', '-', '.', '_', '~', '/', 'docs', 'x.y', '1');
    const piece = fc.oneof({ arbitrary: plain, weight: 3 }, { arbitrary: tricky, weight: 1 });
    const scheme = fc.constantFrom(
      'guide://',
      'vault://',
      'bench://',
      'x-a.b+c://',
      'GUIDE://',
      'Vault://',
      'guide:',
      'guide:/',
      'guide:///',
      'data://',
      'file://',
      'ws://',
      'wss1://',
      'javascript://',
    );
    const part = fc.array(piece, { maxLength: 10 }).map((p) => p.join(''));
    fc.assert(
      fc.property(scheme, part, part, (s, host, path) => {
        if (expectWhatwgAgrees(`${s}${host}${path}`)) taken++;
        if (expectWhatwgAgrees(`${s}${host}/${path}`)) taken++;
      }),
      { numRuns: 2_000 },
    );
    // the property is not vacuous: the plain pieces make covered uris often
    expect(taken).toBeGreaterThan(200);
  });
});

// Every uri of the conformance corpora, and each under custom schemes in place of its own: the fast path's link
// decision, parse and mask are those of the WHATWG path
describe.skipIf(!hasShared('corpus/url/ssrf-cases.jsonl'))('readCanonicalOpaqueUri on the url corpora', () => {
  let gates: Gate[];
  beforeAll(async () => {
    gates = [
      createGate(await loadPolicy(`${repoRoot}/policies/default.yaml`)),
      createGate(await loadPolicy(`${repoRoot}/policies/web-public.yaml`)),
    ];
  });

  function corpusUris(): string[] {
    const uris: string[] = [];
    const lines = (file: string) =>
      readFileSync(sharedPath(`corpus/url/${file}`), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const c of lines('ssrf-cases.jsonl')) uris.push(String(c['input']));
    for (const c of lines('credential-cases.jsonl'))
      for (const key of ['from', 'to']) if (typeof c[key] === 'string') uris.push(c[key]);
    const wpt = JSON.parse(readFileSync(sharedPath('corpus/url/upstream/wpt/urltestdata.json'), 'utf8')) as unknown[];
    for (const t of wpt) if (typeof t === 'object' && t !== null && 'input' in t) uris.push(String(t.input));
    const withSchemes: string[] = [];
    for (const uri of uris) {
      withSchemes.push(uri);
      const colon = uri.indexOf(':');
      const rest = colon === -1 ? `//${uri}` : uri.slice(colon + 1);
      for (const scheme of ['guide:', 'GUIDE:', 'vault:', 'bench:']) withSchemes.push(`${scheme}${rest}`);
    }
    return withSchemes;
  }

  it('gives every decision, parse and mask of the WHATWG path', () => {
    let taken = 0;
    for (const uri of corpusUris()) {
      if (expectWhatwgAgrees(uri)) taken++;
      const link = { type: 'resource_link', uri, name: 'doc', mimeType: 'text/plain' };
      const input = { stage: 'link', server: 'default', readFrom: 'default', link };
      for (const gate of gates)
        expect(gate.decideLink(input, new UriReading(uri)), uri).toEqual(
          gate.decideLink(input, new ParsedReading(uri)),
        );
    }
    expect(taken).toBeGreaterThan(200);
  });
});
