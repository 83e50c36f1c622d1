import { Duplex } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { gatedFetch, type GatedFetchOptions } from '../../src/fetch/gated-fetch.ts';
import type { FetchRequest } from '../../src/fetch/fetch-request.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { fetchPolicy, originOf, tableResolver, type PolicyChanges } from './support/fetch-policy.ts';
import { startServer, type LocalServer } from './support/local-server.ts';

// two loopback "hosts" on two servers; every name resolves to 127.0.0.1 through the test table
let a: LocalServer;
let b: LocalServer;
const resolve = tableResolver({
  'a.example.com': ['127.0.0.1'],
  'b.example.net': ['127.0.0.1'],
  'internal.example.com': ['127.0.0.1'],
  'private.example.com': ['10.0.0.5'],
});
const urlA = (path: string) => `http://a.example.com:${a.port}${path}`;
const urlB = (path: string) => `http://b.example.net:${b.port}${path}`;

function gateWith(changes: Partial<PolicyChanges> = {}) {
  const origins = changes.origins ?? [
    originOf('http', 'a.example.com', a.port),
    originOf('http', 'b.example.net', b.port),
  ];
  return createGate(fetchPolicy({ ...changes, origins }), { resolve });
}

function fetchWith(request: FetchRequest, changes: Partial<PolicyChanges> = {}, options: GatedFetchOptions = {}) {
  return gatedFetch(gateWith(changes), request, { resolve, ...options });
}

/** Serves a redirect for every path in `redirects`, and `ok` text for the rest. */
function route(server: LocalServer, redirects: Record<string, { status: number; location: string }>) {
  server.handle((request, response) => {
    const path = new URL(request.href).pathname;
    const redirect = redirects[path];
    if (redirect === undefined) response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    else response.writeHead(redirect.status, { location: redirect.location }).end('moved');
  });
}

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

describe('method and body across real redirects', () => {
  test.each([
    { status: 301, method: 'POST', next: 'GET', body: '', contentType: undefined },
    { status: 302, method: 'POST', next: 'GET', body: '', contentType: undefined },
    { status: 303, method: 'PUT', next: 'GET', body: '', contentType: undefined },
    { status: 307, method: 'POST', next: 'POST', body: 'payload', contentType: 'text/plain' },
    { status: 308, method: 'PUT', next: 'PUT', body: 'payload', contentType: 'text/plain' },
  ])('$status after $method arrives as $next', async ({ status, method, next, body, contentType }) => {
    route(a, { '/start': { status, location: '/target' } });
    const result = await fetchWith({
      url: urlA('/start'),
      method,
      body: 'payload',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(result.decision.effect).toBe('allow');
    expect(result.hops.map((h) => [h.method, h.status])).toEqual([
      [method, status],
      [next, 200],
    ]);
    const target = a.seen[1];
    expect(target?.method).toBe(next);
    expect(target?.body.toString()).toBe(body);
    expect(target?.headers['content-type']).toBe(contentType);
  });

  test('a HEAD request stays HEAD on 303 and reads no body', async () => {
    route(a, { '/start': { status: 303, location: '/target' } });
    const result = await fetchWith({ url: urlA('/start'), method: 'HEAD' });
    expect(a.seen.map((r) => r.method)).toEqual(['HEAD', 'HEAD']);
    expect(result).toMatchObject({ status: 200, bytes: 0 });
    expect(result.decision.effect).toBe('allow');
  });
});

describe('credentials across real redirects', () => {
  const credentials = { Authorization: 'Bearer tok-1', Cookie: 'sid=abc', 'X-Api-Key': 'key-1', 'X-Request-Id': 'r-1' };
  const credentialNames = ['authorization', 'cookie', 'x-api-key'];
  const sent = (server: LocalServer, index: number) =>
    credentialNames.filter((h) => server.seen[index]?.headers[h] !== undefined);

  test('a same-origin redirect keeps every credential', async () => {
    route(a, { '/start': { status: 302, location: '/next' } });
    await fetchWith({ url: urlA('/start'), headers: credentials });
    expect(sent(a, 0)).toEqual(credentialNames);
    expect(sent(a, 1)).toEqual(credentialNames);
    expect(a.seen[1]?.headers.authorization).toBe('Bearer tok-1');
  });

  test('a cross-origin redirect strips every credential and keeps plain headers', async () => {
    route(a, { '/start': { status: 302, location: urlB('/x') } });
    route(b, {});
    const result = await fetchWith({ url: urlA('/start'), headers: credentials });
    expect(sent(a, 0)).toEqual(credentialNames);
    expect(b.seen).toHaveLength(1);
    expect(sent(b, 0)).toEqual([]);
    expect(b.seen[0]?.headers['x-request-id']).toBe('r-1');
    expect(result.hops[1]?.credentials.map((c) => [c.header, c.attached])).toEqual(
      credentialNames.map((h) => [h, false]),
    );
    expect(result.hops[1]?.credentials.every((c) => c.reasons.some((r) => r.code === 'credential.cross-origin'))).toBe(
      true,
    );
  });

  test('a chain that left the origin never brings credentials back (A → B → A)', async () => {
    route(a, { '/start': { status: 302, location: urlB('/bounce') } });
    route(b, { '/bounce': { status: 302, location: urlA('/back') } });
    const result = await fetchWith({ url: urlA('/start'), headers: credentials });
    expect(result.decision.effect).toBe('allow');
    expect(a.seen.map((r) => new URL(r.href).pathname)).toEqual(['/start', '/back']);
    expect(sent(a, 1)).toEqual([]);
    expect(sent(b, 0)).toEqual([]);
  });

  test('another port of the same host is another origin', async () => {
    const otherPort = `http://a.example.com:${b.port}/x`;
    route(a, { '/start': { status: 302, location: otherPort } });
    route(b, {});
    await fetchWith(
      { url: urlA('/start'), headers: credentials },
      { origins: [originOf('http', 'a.example.com', a.port), originOf('http', 'a.example.com', b.port)] },
    );
    expect(b.seen[0]?.headers.host).toBe(`a.example.com:${b.port}`);
    expect(sent(b, 0)).toEqual([]);
  });

  test('the referer header is never sent, so a token in the query stays with its url', async () => {
    route(a, { '/cb': { status: 302, location: '/next' } });
    await fetchWith({ url: urlA('/cb?access_token=SECRET'), headers: { Referer: urlA('/cb?access_token=SECRET') } });
    expect(a.seen[1]?.href).toBe(urlA('/next'));
    expect(JSON.stringify(a.seen[1]?.headers)).not.toContain('SECRET');
  });
});

describe('every hop is a link decision', () => {
  test.each([
    { name: 'a loopback literal', location: () => `http://127.0.0.1:${b.port}/x`, code: 'uri.non-public-address' },
    {
      name: 'a name resolving to loopback',
      location: () => `http://internal.example.com:${b.port}/x`,
      code: 'uri.non-public-address',
    },
    {
      name: 'a name resolving to a private address',
      location: () => `http://private.example.com:${b.port}/x`,
      code: 'uri.non-public-address',
    },
    {
      name: 'the cloud metadata address',
      location: () => 'http://169.254.169.254/latest/meta-data/',
      code: 'uri.non-public-address',
    },
    { name: 'userinfo', location: () => `http://user:pw@b.example.net:${b.port}/x`, code: 'uri.userinfo' },
    { name: 'a file url', location: () => 'file:///etc/passwd', code: 'uri.scheme-not-allowed' },
  ])('a redirect to $name is denied at the hop and nothing reaches it', async ({ location, code }) => {
    route(a, { '/start': { status: 302, location: location() } });
    route(b, {});
    const result = await fetchWith({ url: urlA('/start') });
    expect(result.decision.effect).toBe('deny');
    expect(result.decision.reasons.map((r) => r.code)).toContain(code);
    expect(result.hops).toHaveLength(2);
    expect(result.hops[1]).toMatchObject({ status: null, address: null });
    expect(result.hops[1]?.decision.effect).toBe('deny');
    expect(b.seen).toHaveLength(0);
    expect(result.body).toBeUndefined();
  });

  test('a redirect loop ends at `fetch.maxRedirects`', async () => {
    route(a, { '/loop': { status: 302, location: '/loop' } });
    const result = await fetchWith({ url: urlA('/loop') }, { fetch: { maxRedirects: 3 } });
    expect(result.decision.reasons.map((r) => r.code)).toEqual(['fetch.too-many-redirects']);
    expect(a.seen).toHaveLength(4);
  });

  test.each([
    { maxRedirects: 0, hops: 1, effect: 'deny' },
    { maxRedirects: 1, hops: 2, effect: 'allow' },
  ])('with maxRedirects $maxRedirects one redirect ends $effect', async ({ maxRedirects, hops, effect }) => {
    route(a, { '/start': { status: 301, location: '/next' } });
    const result = await fetchWith({ url: urlA('/start') }, { fetch: { maxRedirects } });
    expect(result.decision.effect).toBe(effect);
    expect(result.hops).toHaveLength(hops);
  });
});

describe('the first request', () => {
  test('a public-looking name that does not resolve fails closed before any connection', async () => {
    const result = await fetchWith({ url: 'http://unknown.example.org/x' });
    expect(result.decision.effect).toBe('deny');
    expect(result.hops[0]?.address).toBeNull();
  });

  test('a policy that does not judge addresses still resolves once and connects to that answer', async () => {
    route(a, {});
    const calls: string[] = [];
    const counting = async (name: string) => {
      calls.push(name);
      return resolve(name);
    };
    const result = await fetchWith(
      { url: urlA('/doc') },
      { origins: [], links: { denyNonPublicAddresses: false } },
      { resolve: counting },
    );
    expect(result.decision.effect).toBe('allow');
    expect(calls).toEqual(['a.example.com']);
    expect(result.hops[0]?.address).toBe('127.0.0.1');
  });

  test('a resolver that never answers fails closed within the connect deadline', async () => {
    const result = await fetchWith(
      { url: urlA('/x') },
      { fetch: { connectTimeoutMs: 200 } },
      { resolve: () => new Promise<string[]>(() => {}) },
    );
    expect(result.decision.effect).toBe('deny');
    expect(a.seen).toHaveLength(0);
  });

  test('a connection that never completes ends at `fetch.connectTimeoutMs`', async () => {
    // a socket that accepts writes and never says it connected: a SYN into the void, without the network
    const blackHole = () => new Duplex({ read() {}, write: (_chunk, _encoding, done) => done() });
    const result = await fetchWith(
      { url: urlA('/x') },
      { fetch: { connectTimeoutMs: 150 } },
      { createConnection: blackHole },
    );
    expect(result.decision.reasons[0]).toMatchObject({ code: 'read.timeout', rule: 'fetch.connectTimeoutMs' });
    expect(result.hops[0]).toMatchObject({ status: null, address: '127.0.0.1' });
  });

  test.each([
    { name: 'direct fetch off', changes: { fetch: null }, code: 'fetch.disabled' },
    {
      name: 'http not among fetch schemes',
      changes: { fetch: { schemes: ['https' as const] } },
      code: 'uri.scheme-not-allowed',
    },
  ])('$name: denied without a connection', async ({ changes, code }) => {
    const result = await fetchWith({ url: urlA('/x') }, changes);
    expect(result.decision.reasons.map((r) => r.code)).toEqual([code]);
    expect(a.seen).toHaveLength(0);
  });

  test.each([
    { name: 'a GET with a body', request: { url: 'http://a.example.com/', body: 'x' }, field: 'body' },
    { name: 'a TRACE', request: { url: 'http://a.example.com/', method: 'TRACE' }, field: 'method' },
    {
      name: 'a header value with a line break',
      request: { url: 'http://a.example.com/', headers: { 'X-A': 'a\r\nb' } },
      field: 'headers.X-A',
    },
  ])('$name is invalid input', async ({ request, field }) => {
    const result = await fetchWith(request);
    expect(result.decision.reasons[0]).toMatchObject({ code: 'input.invalid' });
    expect(result.decision.reasons[0]?.message).toContain(`\`${field}\``);
  });

  test('hop and final urls are masked', async () => {
    route(a, { '/start': { status: 302, location: '/done?sig=SECRET2' } });
    const result = await fetchWith({ url: urlA('/start?token=SECRET1') });
    expect(result.hops.map((h) => h.url)).toEqual([urlA('/start?token='), urlA('/done?sig=')]);
    expect(result.finalUrl).toBe(urlA('/done?sig='));
    expect(JSON.stringify(result)).not.toMatch(/SECRET/);
  });
});

describe('the final response', () => {
  test('an allowed text body is returned with its evidence', async () => {
    route(a, {});
    const result = await fetchWith({ url: urlA('/doc') });
    expect(result).toMatchObject({
      transport: 'https-direct',
      status: 200,
      bytes: 2,
      truncated: false,
      contentType: 'text/plain',
    });
    expect(result.decision.effect).toBe('allow');
    expect(Buffer.from(result.body ?? []).toString()).toBe('ok');
    expect(result.evidence[0]).toMatchObject({ bytes: 2, carrier: 'blob' });
    expect(result.hops[0]?.address).toBe('127.0.0.1');
  });

  test.each([404, 500, 503])('status %i is not a body to deliver', async (status) => {
    a.handle((_request, response) => response.writeHead(status, { 'content-type': 'text/plain' }).end('error page'));
    const result = await fetchWith({ url: urlA('/x') });
    expect(result.decision.effect).toBe('deny');
    expect(result.body).toBeUndefined();
  });

  test('bytes go through the same content checks as resources/read: an executable labelled png is denied', async () => {
    const elf = Buffer.alloc(256);
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(elf);
    a.handle((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(elf));
    const result = await fetchWith({ url: urlA('/logo.png') });
    expect(result.decision.effect).toBe('deny');
    expect(result.decision.reasons.map((r) => r.code)).toContain('content.executable');
    expect(result.body).toBeUndefined();
    expect(result.bytes).toBe(256);
  });

  test('a caller abort ends the fetch as a deny', async () => {
    const controller = new AbortController();
    // the caller gives up while the server holds the request, unanswered
    a.handle(() => controller.abort());
    const result = await fetchWith({ url: urlA('/hang') }, {}, { signal: controller.signal });
    expect(result.decision.reasons[0]).toMatchObject({ code: 'fetch.failed' });
    expect(result.decision.reasons[0]?.message).toMatch(/aborted by the caller/);
  });
});

describe('the ending, said where the fetch ended', () => {
  test('a checked body is complete', async () => {
    route(a, {});
    expect((await fetchWith({ url: urlA('/doc') })).ending).toEqual({ kind: 'complete' });
  });

  test('a redirect loop is refused at the hop after the last one sent (hops numbered from 1)', async () => {
    route(a, { '/loop': { status: 302, location: '/loop' } });
    const result = await fetchWith({ url: urlA('/loop') }, { fetch: { maxRedirects: 3 } });
    expect(result.hops).toHaveLength(4);
    expect(result.ending).toEqual({ kind: 'refused', hop: 5 });
  });

  test('a redirect to an origin the policy does not allow is refused at that hop', async () => {
    route(a, { '/start': { status: 302, location: urlB('/next') } });
    const result = await fetchWith({ url: urlA('/start') }, { origins: [originOf('http', 'a.example.com', a.port)] });
    expect(result.ending).toEqual({ kind: 'refused', hop: 2 });
    expect(b.seen).toHaveLength(0);
  });

  test('a name that does not resolve is refused at the first hop', async () => {
    const result = await fetchWith({ url: 'http://unknown.example.org/x' });
    expect(result.ending).toEqual({ kind: 'refused', hop: 1 });
  });

  test('a connection that never completes times out at `fetch.connectTimeoutMs`', async () => {
    const blackHole = () => new Duplex({ read() {}, write: (_chunk, _encoding, done) => done() });
    const result = await fetchWith(
      { url: urlA('/x') },
      { fetch: { connectTimeoutMs: 150 } },
      { createConnection: blackHole },
    );
    expect(result.ending).toEqual({ kind: 'timeout', deadlineMs: 150 });
  });

  test('a non-2xx final status is an http error', async () => {
    a.handle((_request, response) => response.writeHead(503, { 'content-type': 'text/plain' }).end('down'));
    expect((await fetchWith({ url: urlA('/x') })).ending).toEqual({ kind: 'http-error', status: 503 });
  });

  test('invalid input and a caller abort are failures', async () => {
    const invalid = await fetchWith({ url: 'http://a.example.com/', method: 'TRACE' });
    expect(invalid.ending.kind).toBe('failed');
    const aborted = await fetchWith({ url: urlA('/x') }, {}, { signal: AbortSignal.abort() });
    expect(aborted.ending).toEqual({ kind: 'failed', why: 'the fetch was aborted by the caller' });
  });
});
