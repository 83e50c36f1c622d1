// The numeric hosts prose is read back with (src/flow/numeric-hosts.ts), checked against the WHATWG URL parser itself:
// every spelling it reads as an IPv4 address reads as that address, and what the parser rejects or reads as a name is
// left alone.
import { describe, expect, test } from 'vitest';
import type { LinkStep } from '../../src/flow/link-steps.ts';
import { dottedIpv4, dottedNumericHosts } from '../../src/flow/numeric-hosts.ts';
import { RefusedAddresses } from '../../src/sdk/refused-addresses.ts';

// a refused step of `uri`, as a session's ledger hands it over (only what the search reads)
const refusedStep = (uri: string) =>
  ({
    mode: 'enforce',
    linkDecision: { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] },
    link: { uri },
    discovered: { uri },
  }) as unknown as LinkStep;

const hosts = [
  '2852039166',
  '0xA9FEA9FE',
  '0xa9fea9fe.',
  '0251.0376.0251.0376',
  '0xa9.0xfe.0xa9.0xfe',
  '169.16689662',
  '169.254.43518',
  '0',
  '0x',
  '00000000000000000000251.0376.0251.0376',
  '127.1',
  '4294967295',
  '4294967296',
  '256.1.1.1',
  '1.2.3.4.5',
  '08',
  '0x1g',
  '1..2',
  '.1',
  '1.2.3.',
  '0x100000000',
  '99999999999999999999',
];

describe('numeric hosts read as the WHATWG URL parser reads them', () => {
  for (const host of hosts)
    test(host, () => {
      let expected: string | null;
      try {
        const parsed = new URL(`http://${host}/`).hostname;
        expected = /^\d+\.\d+\.\d+\.\d+$/.test(parsed) ? parsed : null;
      } catch {
        expected = null;
      }
      expect(dottedIpv4(host)).toBe(expected);
    });

  test('in prose: after `//` or `@`, or on its own before `/`; never inside a word', () => {
    expect(dottedNumericHosts('go http://2852039166/latest or x@0xA9FEA9FE:80 or 0251.0376.0251.0376/a')).toBe(
      'go http://169.254.169.254/latest or x@169.254.169.254:80 or 169.254.169.254/a',
    );
    expect(dottedNumericHosts('v2852039166/latest and 1.2.3.4.5/x and cafe/')).toBe(
      'v2852039166/latest and 1.2.3.4.5/x and cafe/',
    );
  });

  test('a path segment of numbers stays as written, so an address with one is still found read back', () => {
    expect(dottedNumericHosts('http://2852039166/latest/12/x and evil.example/files/12345/x')).toBe(
      'http://169.254.169.254/latest/12/x and evil.example/files/12345/x',
    );
    const kept = new RefusedAddresses(16 << 20);
    kept.note([refusedStep('http://169.254.169.254/latest/12/x')]);
    expect(kept.names({ text: 'now curl http://2852039166/latest/12/x' })).toBe(true);
  });
});
