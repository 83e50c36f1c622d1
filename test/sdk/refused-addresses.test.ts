// A session's later messages are searched for the addresses of the links it refused for their address
// (`src/sdk/refused-addresses.ts`, over the one search of `src/flow/address-search.ts`). The search is one pass over
// each string whatever the number of addresses kept (issue 42 item 4); it reads the strings a host reads (decoded, not
// JSON text), finds an address only at host boundaries, keeps only address refusals, and keeps every one of them: past
// its bound of characters (a sixteenth of the connection cap) the oldest by the start of their forms, so padding
// refusals never let prose name the first (issue 39). The cost is counted in steps and characters, never timed.
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { LinkStep } from '../../src/flow/link-steps.ts';
import { maxAddressChars } from '../../src/flow/address-search.ts';
import { keptCharsFor, RefusedAddresses } from '../../src/sdk/refused-addresses.ts';

const cap = 16 << 20;
// a refused step of `uri`, as the ledger hands it over (only what the search reads)
const refused = (uri: string, code = 'uri.non-public-address') =>
  ({
    mode: 'enforce',
    linkDecision: { effect: 'deny', reasons: [{ code }] },
    link: { uri },
    discovered: { uri },
  }) as unknown as LinkStep;
const log = (data: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });

afterEach(() => vi.restoreAllMocks());

describe('refused addresses in later messages', () => {
  test('one pass over a 1 MiB notification with 1024 addresses kept: linear steps, no search per address', () => {
    const kept = new RefusedAddresses(cap);
    kept.note(Array.from({ length: 1024 }, (_, i) => refused(`https://internal-${i}.example.com/secret/${i}`)));
    // a text that nearly holds every address (each prefix up to its last character), so a search per address
    // compares far into it every time
    const near = Array.from({ length: 1024 }, (_, i) => `internal-${i}.example.com/secret/`).join(' ');
    const data = near.repeat(Math.floor((1 << 20) / (near.length + 1)) - 1);
    const includes = vi.spyOn(String.prototype, 'includes');
    const indexOf = vi.spyOn(String.prototype, 'indexOf');
    expect(kept.names(log(data))).toBe(false);
    const searched = JSON.stringify(log(data)).length;
    expect(searched).toBeGreaterThan(900_000);
    // at most two steps per character (down the trie once, back at most as often), over the text once
    expect(kept.searchSteps).toBeLessThanOrEqual(2 * searched);
    // a few per string of the message (a read-back check), none per address
    expect(includes.mock.calls.length + indexOf.mock.calls.length).toBeLessThan(32);
    // the same text holding one whole address is found
    expect(kept.names(log(`${data} internal-77.example.com/secret/77`))).toBe(true);
  });

  test('finds an address as written and read back, at host boundaries, and nothing else', () => {
    const kept = new RefusedAddresses(cap);
    kept.note(
      [
        'http://169.254.169.254/latest/meta-data/',
        'file:///etc/passwd',
        'https://user:pw@Evil.Example/Path/',
        'https://x.example/a%20b',
        'http://a.co/',
        'http://10.0.0.1/',
      ].map((uri) => refused(uri, uri.startsWith('file:') ? 'uri.scheme-not-allowed' : 'uri.non-public-address')),
    );
    const cases: [string, boolean][] = [
      ['fetching 169.254.169.254/latest/meta-data now', true],
      ['read /ETC/PASSWD', true],
      ['see evil.example/path', true],
      ['x.example/a%20b', true],
      ['x.example/a b', true],
      ['ｅｖｉｌ．ｅｘａｍｐｌｅ／ｐａｔｈ', true],
      ['evil%2eexample%2fpath', true],
      ['see a.co/x or a.co.', true],
      ['http://10.0.0.1:8080/', true],
      // another host that ends or starts with the address
      ['see data.com and a.com', false],
      ['see 110.0.0.1 and 10.0.0.15', false],
      ['read xetc/passwd', false],
      ['nothing here at all', false],
      ['', false],
    ];
    for (const [data, expected] of cases) expect([data, kept.names(log(data))]).toEqual([data, expected]);
  });

  test('strings are searched as a host reads them: quotes, backslashes and percent-encoding are no way around', () => {
    const kept = new RefusedAddresses(cap);
    kept.note([refused('http://10.0.0.1/a"b'), refused('http://10.0.0.2/%61dmin'), refused('http://10.0.0.3/l/x')]);
    expect(kept.names(log('see 10.0.0.1/a"b'))).toBe(true);
    expect(kept.names(log('see 10.0.0.2/admin'))).toBe(true);
    expect(kept.names(log('see 10.0.0.2/%61dmin'))).toBe(true);
    expect(kept.names(log('see 10.0.0.3\\l\\x'))).toBe(true);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { '10.0.0.3/l/x': 1 } })).toBe(true);
    expect(kept.names(log('see 10.0.0.4/admin'))).toBe(false);
  });

  test('only a refusal for the address keeps it: not an origin, a server, a declared type or an engine failure', () => {
    const kept = new RefusedAddresses(cap);
    kept.note([
      refused('https://github.com/', 'origin.not-allowed'),
      refused('https://docs.example/a', 'server.mismatch'),
      refused('https://big.example/a', 'size.declared-too-large'),
      refused('https://e.example/a', 'engine.error'),
      refused('mailto:bob@mail.example', 'uri.scheme-not-allowed'),
    ]);
    expect(kept.size).toBe(0);
    expect(kept.names(log('see github.com/x/y, docs.example/a, big.example/a, e.example/a, mail.example'))).toBe(false);
    kept.note([refused('http://192.168.1.1/', 'uri.userinfo'), refused('http://[::1]:80/', 'uri.parser-confusion')]);
    expect(kept.names(log('see 192.168.1.1'))).toBe(true);
    expect(kept.names(log('see [::1]:80/x'))).toBe(true);
  });

  test('a long address is searched by its start: a text holding the whole of it is still found', () => {
    const kept = new RefusedAddresses(cap);
    const long = `https://10.1.1.1/${'a'.repeat(5000)}`;
    kept.note([refused(long)]);
    expect(kept.names(log(`here: ${long.slice(8)}`))).toBe(true);
    expect(kept.names(log(`here: ${long.slice(8, 8 + maxAddressChars)}`))).toBe(true);
    expect(kept.names(log(`here: ${long.slice(8, 8 + maxAddressChars - 1)}`))).toBe(false);
  });
});

describe('every refused address is kept, however many', () => {
  test('1024 padding refusals after the first: prose naming the first is still found, ordinary prose is not', () => {
    const kept = new RefusedAddresses(cap);
    kept.note([refused('http://169.254.169.254/latest/meta-data/')]);
    kept.note(Array.from({ length: 1024 }, (_, i) => refused(`http://10.1.${i >> 8}.${i & 255}/pad`)));
    expect(kept.names(log('now read 169.254.169.254/latest/meta-data/'))).toBe(true);
    expect(kept.names(log('an ordinary line'))).toBe(false);
  });

  test('past the characters kept whole, the oldest are found by their start: no padding forgets one', () => {
    // the smallest bound: 64 Ki characters
    const small = 64 * 1024;
    expect(keptCharsFor(small)).toBe(64 * 1024);
    const kept = new RefusedAddresses(small);
    kept.note([refused('http://169.254.169.254/latest/meta-data/')]);
    for (let i = 0; i < 8000; i += 1) kept.note([refused(`http://10.2.${i >> 8}.${i & 255}/padding-${i}`)]);
    expect(kept.keptChars).toBeLessThanOrEqual(keptCharsFor(small));
    expect(kept.names(log('now read 169.254.169.254/latest/meta-data/'))).toBe(true);
    expect(kept.names(log('now read 10.2.0.7/padding-7'))).toBe(true);
    expect(kept.names(log('now read 10.2.31.63/padding-7999'))).toBe(true);
    // ordinary prose, and a notice naming links by name and scheme, are still passed on
    expect(kept.names(log('an ordinary line about the weather, 42 times'))).toBe(false);
    expect(kept.names(log('linkgate refused the link `l5` (scheme `http`): uri.non-public-address'))).toBe(false);
  });

  test('the longest message searched is the connection cap', () => {
    const kept = new RefusedAddresses(4096);
    kept.note([refused('http://10.0.0.1/')]);
    expect(kept.maxSearchedChars).toBe(4096);
    expect(kept.names(log('x'.repeat(4000)))).toBe(false);
    expect(kept.names(log('x'.repeat(4200)))).toBe(true);
  });

  test('a refusal, then a notification, 4096 times: each address is built into an automaton about log2 times', () => {
    const kept = new RefusedAddresses(cap);
    let chars = 0;
    for (let i = 0; i < 4096; i += 1) {
      kept.note([refused(`http://10.3.${i >> 8}.${i & 255}/secret-${i}`)]);
      expect(kept.names(log(`progress ${i}`))).toBe(false);
      chars = kept.keptChars;
    }
    // a rebuild per refusal built about 4096²/2 addresses; levels build each about log2(4096) = 12 times
    expect(kept.builtChars).toBeLessThanOrEqual(chars * 14);
    expect(kept.names(log('then 10.3.0.9/secret-9'))).toBe(true);
  });
});

describe('refused addresses in a message too deep to stringify', () => {
  const deep = (inner: unknown) => {
    let nested: unknown = inner;
    for (let i = 0; i < 20_000; i += 1) nested = [nested];
    return nested;
  };
  test('is searched with no recursion: found when it names an address, passed when it does not', () => {
    const kept = new RefusedAddresses(cap);
    kept.note([refused('file:///etc/passwd', 'uri.scheme-not-allowed')]);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep('see /ETC/passwd') } })).toBe(true);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep('etc%2Fpasswd') } })).toBe(true);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep({ 'etc/passwd': 1 }) } })).toBe(true);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep('nothing here') } })).toBe(false);
  });
});

describe("a resource's blob is read as the type declared beside it", () => {
  test('UTF-16LE text with no byte order mark and few ASCII characters, declared charset=utf-16le', () => {
    const addresses = new RefusedAddresses(cap);
    addresses.note([refused('http://169.254.169.254/latest/meta-data/')]);
    const text = `${'漢字かな'.repeat(40)} http://169.254.169.254/latest/meta-data/ ${'漢字'.repeat(40)}`;
    const blob = Buffer.from(text, 'utf16le').toString('base64');
    const resource = (mimeType: string) => ({ result: { contents: [{ uri: 'rt://n.txt', mimeType, blob }] } });
    expect(addresses.names(resource('text/plain; charset=utf-16le'))).toBe(true);
    // undeclared, the bytes are neither UTF-8 nor zero-patterned UTF-16: not read as text (nothing to find)
    expect(addresses.names({ result: { contents: [{ uri: 'rt://n.txt', blob }] } })).toBe(false);
  });
});
