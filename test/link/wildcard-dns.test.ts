import { describe, expect, it } from 'vitest';
import { wildcardDnsAnswer } from '../../src/link/wildcard-dns.ts';

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
