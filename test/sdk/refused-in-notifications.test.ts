// A session's log and progress notifications are searched for the addresses of its refused links
// (`src/sdk/refused-in-notifications.ts`). The search is one pass over the text whatever the number of addresses kept
// (issue 42 item 4): before, each notification (up to 1 MiB of JSON) was searched once per address (up to 1024), up
// to about 2 G character compares. The cost is counted in steps and calls, never timed.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { readBack } from '../../src/flow/gate-notice.ts';
import type { LinkStep } from '../../src/flow/link-steps.ts';
import { AddressMatcher, maxAddressChars, RefusedAddresses } from '../../src/sdk/refused-in-notifications.ts';

// a refused step of `uri`, as the ledger hands it over (only what the search reads)
const refused = (uri: string) =>
  ({
    mode: 'enforce',
    linkDecision: { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] },
    link: { uri },
    discovered: { uri },
  }) as unknown as LinkStep;
const log = (data: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });

afterEach(() => vi.restoreAllMocks());

describe('refused addresses in notifications', () => {
  test('one pass over a 1 MiB notification with 1024 addresses kept: linear steps, no search per address', () => {
    const kept = new RefusedAddresses();
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
    expect(includes.mock.calls.length + indexOf.mock.calls.length).toBeLessThan(8);
    // the same text holding one whole address is found
    expect(kept.names(log(`${data} internal-77.example.com/secret/77`))).toBe(true);
  });

  test('finds what a search per address found, as written and read back, and nothing else', () => {
    const uris = [
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
      'https://user:pw@Evil.Example/Path/',
      'https://abc.example/abcabd',
      'https://abc.example/bcab',
      'https://x.example/a%20b',
    ];
    const kept = new RefusedAddresses();
    kept.note(uris.map(refused));
    const texts = [
      'fetching 169.254.169.254/latest/meta-data now',
      'read ETC/PASSWD',
      'see evil.example/path',
      'abc.example/abcab abc.example/bcaX',
      'abc.example/abcabcabd',
      'x.example/a%20b',
      'ｅｖｉｌ．ｅｘａｍｐｌｅ／ｐａｔｈ',
      'evil%2eexample%2fpath',
      'abc.example/bca',
      'nothing here at all',
      '',
    ];
    const addresses = [
      '169.254.169.254/latest/meta-data',
      'etc/passwd',
      'evil.example/path',
      'abc.example/abcabd',
      'abc.example/bcab',
      'x.example/a%20b',
    ];
    for (const data of texts) {
      const text = JSON.stringify(log(data));
      const lower = text.toLowerCase();
      const back = readBack(text).toLowerCase();
      const expected = addresses.some((a) => lower.includes(a) || back.includes(a));
      expect([data, kept.names(log(data))]).toEqual([data, expected]);
    }
  });

  test('overlapping patterns: every suffix state is checked', () => {
    const matcher = new AddressMatcher(['he', 'she', 'his', 'hers', 'aab']);
    expect(matcher.foundIn('ushers')).toBe(true);
    expect(matcher.foundIn('xsh')).toBe(false);
    expect(matcher.foundIn('aaab')).toBe(true);
    expect(matcher.foundIn('abab')).toBe(false);
    expect(new AddressMatcher(['bcd', 'abcx']).foundIn('abcd')).toBe(true);
  });

  test('a long address is searched by its start: a text holding the whole of it is still found', () => {
    const kept = new RefusedAddresses();
    const long = `https://evil.example/${'a'.repeat(5000)}`;
    kept.note([refused(long)]);
    expect(kept.names(log(`here: ${long.slice(8)}`))).toBe(true);
    expect(kept.names(log(`here: ${long.slice(8, 8 + maxAddressChars)}`))).toBe(true);
    expect(kept.names(log(`here: ${long.slice(8, 8 + maxAddressChars - 1)}`))).toBe(false);
  });
});

describe('refused addresses in a message too deep to stringify', () => {
  const deep = (inner: unknown) => {
    let nested: unknown = inner;
    for (let i = 0; i < 20_000; i += 1) nested = [nested];
    return nested;
  };
  test('is searched with no recursion: found when it names an address, passed when it does not', () => {
    const kept = new RefusedAddresses();
    kept.note([refused('file:///etc/passwd')]);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep('see /ETC/passwd') } })).toBe(true);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep('etc%2Fpasswd') } })).toBe(true);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep({ 'etc/passwd': 1 }) } })).toBe(true);
    expect(kept.names({ jsonrpc: '2.0', id: 1, result: { d: deep('nothing here') } })).toBe(false);
  });
});
