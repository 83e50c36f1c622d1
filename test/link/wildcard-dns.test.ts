import { describe, expect, it } from 'vitest';
import { wildcardDnsAnswer, wildcardDnsAnswers } from '../../src/link/wildcard-dns.ts';

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

describe('wildcardDnsAnswers', () => {
  it.each([
    ['--1.sslip.io', ['::1']],
    ['fd00-ec2--254.sslip.io', ['fd00:ec2::254']],
    ['app-2a01-4f8-c17-b8f--2.sslip.io', ['2a01:4f8:c17:b8f::2']],
    ['--ffff-7f00-1.nip.io', ['::ffff:7f00:1']],
    // one label, two readings: dashed IPv4 and dashed IPv6
    ['--1-1-1-1.sslip.io', ['1.1.1.1', '::1:1:1:1']],
    ['10-0-0-5.sslip.io', ['10.0.0.5']],
    ['app-x-y.sslip.io', undefined],
    ['--1.example.com', undefined],
    ['lvh.me', 'loopback'],
  ])('%s → %j', (name, answers) => {
    expect(wildcardDnsAnswers(name)).toEqual(answers);
  });
});
