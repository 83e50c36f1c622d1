import { expect } from 'vitest';
import type { UriParse } from '../../src/link/parse-uri.ts';

/** Expects a fast path's `parseUri` reading to equal the WHATWG path's reading of the same uri, member by member. */
export function expectSameParse(fast: UriParse, slow: UriParse, raw: string): void {
  expect(fast.ok, raw).toBe(slow.ok);
  if (!fast.ok || !slow.ok) {
    expect(fast, raw).toEqual(slow);
    return;
  }
  const keys = ['scheme', 'special', 'hasAuthority', 'host', 'port', 'explicitPort', 'userinfo'] as const;
  for (const key of keys) expect(fast[key], `${raw} ${key}`).toEqual(slow[key]);
  expect(fast.confusions, raw).toEqual(slow.confusions);
  expect(fast.otherHosts, raw).toEqual(slow.otherHosts);
  expect(fast.schemeFacts, raw).toBe(slow.schemeFacts);
  expect(fast.url.href, raw).toBe(slow.url.href);
  expect(fast.url.pathname, raw).toBe(slow.url.pathname);
}
