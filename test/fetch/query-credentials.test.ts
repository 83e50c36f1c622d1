import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { gatedFetch } from '../../src/fetch/gated-fetch.ts';
import { findQueryCredentials, queryCredentialNames } from '../../src/fetch/query-credentials.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { fetchPolicy, originOf, tableResolver, type PolicyChanges } from './support/fetch-policy.ts';
import { startServer, type LocalServer } from './support/local-server.ts';

// A token in the first url's query gets the per-hop decision a header gets (`bearer-in-query`): a redirect
// that carries it to another origin loses it, or is refused when it cannot be taken out.
let a: LocalServer;
let b: LocalServer;
const resolve = tableResolver({ 'api.example.com': ['127.0.0.1'], 'other.example.net': ['127.0.0.1'] });
const urlA = (path: string) => `http://api.example.com:${a.port}${path}`;
const urlB = (path: string) => `http://other.example.net:${b.port}${path}`;
const secret = 'tok-SECRET-5c1d9e';

function fetchWith(url: string, changes: Partial<PolicyChanges> = {}) {
  const origins = [originOf('http', 'api.example.com', a.port), originOf('http', 'other.example.net', b.port)];
  return gatedFetch(createGate(fetchPolicy({ origins, ...changes }), { resolve }), { url }, { resolve });
}

/** Redirects every request for `path` to `location(request href)`, and answers `ok` otherwise. */
function redirect(server: LocalServer, path: string, location: (href: URL) => string) {
  server.handle((request, response) => {
    const url = new URL(request.href);
    if (url.pathname === path) response.writeHead(302, { location: location(url) }).end();
    else response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
}

const okServer = (server: LocalServer) => redirect(server, '/never', () => '/');
const seenHrefs = (server: LocalServer) => server.seen.map((r) => r.href);

beforeAll(async () => {
  a = await startServer();
  b = await startServer();
});
afterAll(async () => {
  await a.close();
  await b.close();
});
beforeEach(() => {
  a.seen.length = 0;
  b.seen.length = 0;
});

describe('query credentials across real redirects', () => {
  // an open redirect that keeps the query, as `/go?…` → other origin with the same query
  test.each(['access_token', 'token', 'api_key', 'X-Amz-Signature', 'sig', 'Access_Token'])(
    '%s carried to another origin is taken out of the query; other parameters stay',
    async (name) => {
      redirect(a, '/go', (url) => urlB(`/land${url.search}`));
      okServer(b);
      const result = await fetchWith(urlA(`/go?${name}=${secret}&page=2`));
      expect(result.decision.effect).toBe('allow');
      expect(seenHrefs(a)[0]).toContain(secret);
      expect(seenHrefs(b)).toEqual([new URL(urlB('/land?page=2')).href]);
      const query = result.hops[1]?.credentials.find((c) => c.header === `?${name.toLowerCase()}`);
      expect(query).toMatchObject({ kind: 'bearer-in-query', attached: false });
      expect(query?.reasons.map((r) => r.code)).toContain('credential.cross-origin');
      expect(result.hops[0]?.credentials).toContainEqual({
        header: `?${name.toLowerCase()}`,
        kind: 'bearer-in-query',
        attached: true,
        reasons: [],
      });
    },
  );

  test.each([
    ['renamed', (v: string) => `/land?t=${v}`],
    [
      'percent-encoded',
      (v: string) => `/land?access_token=${[...v].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
    ],
  ])('a token moved to a %s parameter is still found and taken out', async (_, place) => {
    redirect(a, '/go', () => urlB(place(secret)));
    okServer(b);
    const result = await fetchWith(urlA(`/go?access_token=${secret}`));
    expect(result.decision.effect).toBe('allow');
    expect(seenHrefs(b).join()).not.toContain(secret);
    expect(b.seen).toHaveLength(1);
  });

  test.each([
    ['path', (v: string) => urlB(`/land/${v}`)],
    ['another parameter text', (v: string) => urlB(`/land?next=${encodeURIComponent(`https://x/?token=${v}`)}`)],
  ])('a token in the %s of another origin cannot be taken out: the hop is refused', async (_, place) => {
    redirect(a, '/go', () => place(secret));
    okServer(b);
    const result = await fetchWith(urlA(`/go?access_token=${secret}`));
    expect(result.decision.effect).toBe('deny');
    expect(result.decision.reasons.map((r) => r.code)).toContain('credential.cross-origin');
    expect(b.seen).toHaveLength(0);
    expect(result.hops[1]).toMatchObject({ status: null, address: null });
    expect(result.hops[1]?.url).not.toContain(secret);
  });

  test('a same-origin redirect keeps the token in the query', async () => {
    redirect(a, '/go', (url) => `/land${url.search}`);
    const result = await fetchWith(urlA(`/go?access_token=${secret}`));
    expect(result.decision.effect).toBe('allow');
    expect(seenHrefs(a)[1]).toBe(new URL(urlA(`/land?access_token=${secret}`)).href);
    expect(result.hops[1]?.credentials).toContainEqual({
      header: '?access_token',
      kind: 'bearer-in-query',
      attached: true,
      reasons: [],
    });
  });

  test('a chain that left the origin never brings the token back (A → B → A)', async () => {
    redirect(a, '/go', (url) => urlB(`/bounce${url.search}`));
    b.handle((request, response) => {
      const url = new URL(request.href);
      response.writeHead(302, { location: urlA(`/back${url.search}?access_token=${secret}`) }).end();
    });
    const result = await fetchWith(urlA(`/go?access_token=${secret}`));
    expect(seenHrefs(b).join()).not.toContain(secret);
    expect(seenHrefs(a).slice(1).join()).not.toContain(secret);
    expect(result.hops.map((h) => h.status)).toEqual([302, 302, 200]);
  });

  test('`credentials.forward: never` takes the token out even on the same origin', async () => {
    redirect(a, '/go', (url) => `/land${url.search}`);
    const result = await fetchWith(urlA(`/go?access_token=${secret}`), { credentials: { forward: 'never' } });
    expect(seenHrefs(a)[1]).toBe(new URL(urlA('/land')).href);
    expect(result.hops[1]?.credentials[0]?.reasons.map((r) => r.code)).toContain('credential.forward-disabled');
  });
});

describe('query credentials are found by a broad rule, not a closed list of names', () => {
  // names built from credential words, separators and spellings: every one is taken out on a cross-origin hop
  const words = ['api_token', 'access_key', 'session_token', 'client_token', 'auth', 'passphrase', 'sig', 'jwt'];
  const spell: [string, (w: string) => string][] = [
    ['as written', (w) => w],
    ['camel case', (w) => w.replace(/_(.)/g, (_, c: string) => c.toUpperCase())],
    ['kebab upper case', (w) => w.replaceAll('_', '-').toUpperCase()],
    ['with an array suffix', (w) => `${w}[]`],
    ['with an index suffix', (w) => `${w}[0]`],
    ['prefixed', (w) => `x_${w}`],
  ];
  test.each(words.flatMap((w) => spell.map(([how, f]) => [f(w), how] as const)))(
    '%s (%s) carried to another origin is taken out; page=2 stays',
    async (name) => {
      redirect(a, '/go', (url) => urlB(`/land${url.search}`));
      okServer(b);
      const result = await fetchWith(urlA(`/go?${encodeURIComponent(name)}=${secret}&page=2`));
      expect(result.decision.effect).toBe('allow');
      expect(seenHrefs(b)).toEqual([new URL(urlB('/land?page=2')).href]);
    },
  );

  test.each(['code', 'sid', 'otp', 'Ticket'])('the short name %s is a credential', (name) => {
    expect(findQueryCredentials(new URL(`https://x/?${name}=abc&page=2`), [])).toEqual([
      { name: name.toLowerCase(), value: 'abc' },
    ]);
  });

  test.each([
    ['a token-shaped value under any name', 'x', 'ghp_16Chars0123456789abcdef'],
    ['a jwt under any name', 'state', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln'],
    ['a uuid', 'ref', '550e8400-e29b-41d4-a716-446655440000'],
  ])('%s is a credential', (_, name, value) => {
    expect(findQueryCredentials(new URL(`https://x/?${name}=${value}`), [])).toEqual([{ name, value }]);
  });

  test.each([
    ['a page number', 'page', '2'],
    ['a search phrase', 'q', 'packing list for 2 weeks'],
    ['a long word', 'sort', 'descendingbydate'],
    ['a short id', 'id', 'a1b2c3'],
  ])('%s is not a credential', (_, name, value) => {
    expect(findQueryCredentials(new URL(`https://x/?${name}=${encodeURIComponent(value)}`), [])).toEqual([]);
  });
});

describe('findQueryCredentials', () => {
  test.each([
    ['https://x/?access_token=abc&page=2', [], [{ name: 'access_token', value: 'abc' }]],
    ['https://x/?Token=abc&token=abc', [], [{ name: 'token', value: 'abc' }]],
    ['https://x/?x-api-key=k1', ['X-Api-Key'], [{ name: 'x-api-key', value: 'k1' }]],
    ['https://x/?access_token=&q=1', [], []],
    ['https://x/?q=access_token', [], []],
  ] as const)('%s', (url, extra, want) => {
    expect(findQueryCredentials(new URL(url), extra)).toEqual(want);
  });

  test('every listed name is lower-case', () => {
    for (const name of queryCredentialNames) expect(name).toBe(name.toLowerCase());
  });
});
