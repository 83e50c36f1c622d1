import { describe, expect, it } from 'vitest';
import { compileOriginAllowList, originAllowed } from '../../src/link/origin-allow-list.ts';
import { parseUri } from '../../src/link/parse-uri.ts';

const list = compileOriginAllowList([
  'https://docs.example.com',
  'https://*.assets.example.com',
  'HTTPS://API.Example.com:443',
  'http://*.cdn.example.net:8080',
  'https://[2001:db8::1]',
  'not a uri',
]);

function allowed(uri: string): boolean {
  const parsed = parseUri(uri);
  if (!parsed.ok) throw new Error(parsed.message);
  return originAllowed(list, parsed);
}

describe('origin allow-list', () => {
  it.each([
    ['https://docs.example.com/a', true],
    ['https://DOCS.example.com:443/a', true],
    ['https://docs.example.com:8443/a', false],
    ['http://docs.example.com/a', false],
    ['https://docs.example.com./a', false],
    ['https://evil.docs.example.com/a', false],
    ['https://img.assets.example.com/a.png', true],
    ['https://a.b.assets.example.com/a.png', true],
    ['https://assets.example.com/a.png', false],
    ['https://img.assets.example.com:444/a.png', false],
    ['https://api.example.com/v1', true],
    ['http://x.cdn.example.net:8080/', true],
    ['http://x.cdn.example.net/', false],
    ['https://[2001:db8:0::1]/', true],
    ['https://evilassets.example.com/', false],
  ])('%s → %s', (uri, want) => {
    expect(allowed(uri)).toBe(want);
  });

  it('drops entries that do not parse', () => {
    expect(list.exact.size + list.wildcards.length).toBe(5);
  });
});
