import { describe, expect, test } from 'vitest';
import { splitHeaders } from '../../src/fetch/credential-headers.ts';

describe('splitting caller headers', () => {
  test.each([
    { header: 'Authorization', kind: 'authorization' },
    { header: 'authorization', kind: 'authorization' },
    { header: 'Cookie', kind: 'cookie' },
    { header: 'Proxy-Authorization', kind: 'proxy-authorization' },
    { header: 'X-Api-Key', kind: 'api-key-header' },
    { header: 'x-api-key', kind: 'api-key-header' },
    { header: 'Private-Token', kind: 'api-key-header' },
  ])('`$header` is a credential of kind `$kind`', ({ header, kind }) => {
    const split = splitHeaders({ [header]: 'secret' }, ['X-API-Key', 'private-token']);
    expect(split.credentials).toEqual([{ name: header.toLowerCase(), value: 'secret', kind }]);
    expect(split.plain).toEqual([]);
  });

  test.each(['Accept', 'User-Agent', 'Content-Type', 'X-Request-Id'])('`%s` is a plain header', (header) => {
    const split = splitHeaders({ [header]: 'v' }, []);
    expect(split.plain).toEqual([[header.toLowerCase(), 'v']]);
    expect(split.credentials).toEqual([]);
  });

  test.each([
    'Host',
    'Connection',
    'Content-Length',
    'Transfer-Encoding',
    'Accept-Encoding',
    'Referer',
    'TE',
    'Upgrade',
    'Expect',
  ])('`%s` is managed by the fetcher and dropped', (header) => {
    const split = splitHeaders({ [header]: 'v' }, []);
    expect(split.plain).toEqual([]);
    expect(split.credentials).toEqual([]);
  });

  test('an api-key header is only a credential when the policy names it', () => {
    expect(splitHeaders({ 'X-Api-Key': 'k' }, []).credentials).toEqual([]);
  });
});
