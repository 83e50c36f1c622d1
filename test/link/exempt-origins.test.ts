import { describe, expect, it } from 'vitest';
import { compileExemptOrigins } from '../../src/link/exempt-origins.ts';

describe('compileExemptOrigins: exact origins only', () => {
  it.each<[entry: string, origin: string | null]>([
    ['http://127.0.0.1:40123', 'http://127.0.0.1:40123'],
    ['http://127.0.0.1:40123/', 'http://127.0.0.1:40123'],
    ['HTTP://127.0.0.1:40123', 'http://127.0.0.1:40123'],
    ['http://0x7f000001:40123', 'http://127.0.0.1:40123'],
    ['http://127.0.0.1:80', 'http://127.0.0.1'],
    ['https://[0:0::1]:8443', 'https://[::1]:8443'],
    ['http://LocalHost:3000', 'http://localhost:3000'],
    ['guide://127.0.0.1:9', 'guide://127.0.0.1:9'],
    // not a bare origin: matches nothing
    ['http://127.0.0.1:40123/admin', null],
    ['http://127.0.0.1:40123?x', null],
    ['http://127.0.0.1:40123?', null],
    ['http://127.0.0.1:40123#', null],
    ['http://user@127.0.0.1:40123', null],
    ['http://*.internal.example:80', null],
    ['http://127.0.0.1:40123\\@evil.example', null],
    ['http:127.0.0.1:40123', null],
    ['file:///etc', null],
    ['urn:isbn:1', null],
    ['127.0.0.1:40123', null],
    ['not a uri', null],
  ])('%s → %s', (entry, origin) => {
    expect([...compileExemptOrigins([entry])]).toEqual(origin === null ? [] : [origin]);
  });

  it('keeps one canonical origin per spelling', () => {
    const origins = compileExemptOrigins([
      'http://127.0.0.1:40123',
      'http://127.0.0.1:40123/',
      'http://127.0.0.1:40124',
    ]);
    expect([...origins].sort()).toEqual(['http://127.0.0.1:40123', 'http://127.0.0.1:40124']);
  });
});
