import { describe, expect, it } from 'vitest';
import { credentialOrigin } from '../../src/link/canonical-origin.ts';
import { parseUri } from '../../src/link/parse-uri.ts';

describe('credentialOrigin', () => {
  it.each([
    ['https://API.example.com:443/a', 'https://api.example.com'],
    ['https://ｅｘａｍｐｌｅ.com/b', 'https://example.com'],
    ['https://%65xample.com/', 'https://example.com'],
    ['https://example.com./', 'https://example.com.'],
    ['https://pаypal.com/', 'https://xn--pypal-4ve.com'],
    ['http://[0:0:0:0:0:0:0:1]:8080/', 'http://[::1]:8080'],
    ['wss://example.com:443/', 'wss://example.com'],
    ['ftp://example.com/', 'ftp://example.com'],
    ['guide://manuals/packing', null],
    ['file:///etc/passwd', null],
    ['data:text/plain,hi', null],
  ])('%s → %s', (uri, origin) => {
    const parsed = parseUri(uri);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(credentialOrigin(parsed)).toBe(origin);
  });
});
