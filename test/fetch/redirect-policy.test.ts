import { describe, expect, test } from 'vitest';
import { decodeLocation, isDowngrade, isRedirectStatus, nextRedirect } from '../../src/fetch/redirect-policy.ts';

const here = new URL('https://api.example.com/a/b?x=1');

describe('method and body across redirects (Fetch standard, HTTP-redirect fetch step 12)', () => {
  test.each([
    { status: 301, method: 'POST', next: 'GET', keepsBody: false },
    { status: 302, method: 'POST', next: 'GET', keepsBody: false },
    { status: 301, method: 'PUT', next: 'PUT', keepsBody: true },
    { status: 302, method: 'DELETE', next: 'DELETE', keepsBody: true },
    { status: 301, method: 'GET', next: 'GET', keepsBody: true },
    { status: 303, method: 'POST', next: 'GET', keepsBody: false },
    { status: 303, method: 'PUT', next: 'GET', keepsBody: false },
    { status: 303, method: 'HEAD', next: 'HEAD', keepsBody: true },
    { status: 303, method: 'GET', next: 'GET', keepsBody: true },
    { status: 307, method: 'POST', next: 'POST', keepsBody: true },
    { status: 308, method: 'POST', next: 'POST', keepsBody: true },
    { status: 308, method: 'PATCH', next: 'PATCH', keepsBody: true },
  ])('$status after $method → $next (body kept: $keepsBody)', ({ status, method, next, keepsBody }) => {
    const step = nextRedirect(here, status, method, '/next');
    expect(step).toMatchObject({ kind: 'redirect', hop: { method: next, keepsBody } });
  });
});

describe('which responses are redirects', () => {
  test.each([
    { status: 200, redirect: false },
    { status: 300, redirect: false },
    { status: 304, redirect: false },
    { status: 305, redirect: false },
    { status: 301, redirect: true },
    { status: 308, redirect: true },
  ])('status $status is a redirect: $redirect', ({ status, redirect }) => {
    expect(isRedirectStatus(status)).toBe(redirect);
    expect(nextRedirect(here, status, 'GET', '/x').kind).toBe(redirect ? 'redirect' : 'final');
  });
});

describe('location targets', () => {
  test.each([
    { location: '/next', target: 'https://api.example.com/next' },
    { location: 'next', target: 'https://api.example.com/a/next' },
    { location: '//cdn.example.net/x', target: 'https://cdn.example.net/x' },
    { location: '?y=2', target: 'https://api.example.com/a/b?y=2' },
    // an absolute location is judged as the server wrote it, so the gate sees parser-confusion forms
    {
      location: 'https://evil.example.net\\@api.example.com/x',
      target: 'https://evil.example.net\\@api.example.com/x',
    },
    { location: '  https://b.example.net/  ', target: 'https://b.example.net/' },
  ])('`$location` → `$target`', ({ location, target }) => {
    const step = nextRedirect(here, 302, 'GET', location);
    expect(step.kind).toBe('redirect');
    if (step.kind === 'redirect') expect(step.hop.target).toBe(target);
  });

  test.each([
    { location: undefined, message: /without a `location`/ },
    { location: '   ', message: /without a `location`/ },
    { location: 'http://[::1', message: /does not parse/ },
  ])('`$location` cannot be followed', ({ location, message }) => {
    const step = nextRedirect(here, 302, 'GET', location);
    expect(step.kind).toBe('invalid');
    if (step.kind === 'invalid') expect(step.message).toMatch(message);
  });
});

describe('location bytes', () => {
  const latin1OfUtf8 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
  test.each([
    { wire: latin1OfUtf8('https://ｅｘａｍｐｌｅ.com/b'), decoded: 'https://ｅｘａｍｐｌｅ.com/b' },
    { wire: 'https://example.com/caf\u00e9', decoded: 'https://example.com/caf\u00e9' },
    { wire: 'https://example.com/plain', decoded: 'https://example.com/plain' },
  ])('`$wire` reads as `$decoded`', ({ wire, decoded }) => {
    expect(decodeLocation(wire)).toBe(decoded);
  });
});

describe('downgrade', () => {
  test.each([
    { from: 'https://a.example.com/', to: 'http://a.example.com/', downgrade: true },
    { from: 'https://a.example.com/', to: 'http://b.example.net/', downgrade: true },
    { from: 'http://a.example.com/', to: 'https://a.example.com/', downgrade: false },
    { from: 'https://a.example.com/', to: 'https://b.example.net/', downgrade: false },
    { from: 'http://a.example.com/', to: 'http://b.example.net/', downgrade: false },
  ])('$from → $to is a downgrade: $downgrade', ({ from, to, downgrade }) => {
    expect(isDowngrade(new URL(from), new URL(to))).toBe(downgrade);
  });
});
