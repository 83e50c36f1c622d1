import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gatedFetch } from '../../src/fetch/gated-fetch.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { fetchPolicy, tableResolver } from './support/fetch-policy.ts';
import { startServer, type LocalServer, type SeenRequest } from './support/local-server.ts';
import { hasOpenssl, makeTestCertificate } from './support/test-certificate.ts';
import { hasShared } from '../helpers/shared-dir.ts';

// Replays ../shared/corpus/url/credential-cases.jsonl as real redirect chains: every host of a case
// resolves to 127.0.0.1 (test resolver), every (scheme, port) of the case maps to one local server
// that serves all of its host names (like one machine with virtual hosts), and the test policy
// exempts exactly those loopback origins from the address rules.
const repoRoot = path.resolve(import.meta.dirname, '../..');
const casesFile = path.resolve(repoRoot, '../shared/corpus/url/credential-cases.jsonl');
const haveCorpus = hasShared('corpus/url/credential-cases.jsonl');

interface CredentialCase {
  id: string;
  from: string;
  to: string;
  via?: string[];
  credential: 'authorization' | 'cookie' | 'proxy-authorization' | 'api-key-header' | 'bearer-in-query';
  expect: 'forward' | 'strip';
  proxy?: string;
}

const cases: CredentialCase[] = haveCorpus
  ? readFileSync(casesFile, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as CredentialCase)
  : [];

const secret = 'corpus-SECRET-7f3a';
const credentialHeaders: Record<CredentialCase['credential'], Record<string, string>> = {
  authorization: { Authorization: `Bearer ${secret}` },
  cookie: { Cookie: `sid=${secret}` },
  'proxy-authorization': { 'Proxy-Authorization': `Basic ${secret}` },
  'api-key-header': { 'X-Api-Key': secret },
  'bearer-in-query': {},
};
const headerOf: Record<CredentialCase['credential'], string | null> = {
  authorization: 'authorization',
  cookie: 'cookie',
  'proxy-authorization': 'proxy-authorization',
  'api-key-header': 'x-api-key',
  'bearer-in-query': null,
};

const servers = new Map<string, LocalServer>();
const routes = new Map<string, { status: number; location?: string }>();
const seen: SeenRequest[] = [];
let ca = '';

const defaultPort = (scheme: string) => (scheme === 'https' ? 443 : 80);
const served = (url: URL) => url.protocol === 'https:' || url.protocol === 'http:';

/** The case url with its port (explicit or default) replaced by the local server's, spelling otherwise kept. */
function rewrite(raw: string): string {
  const url = new URL(raw);
  if (!served(url)) return raw;
  const scheme = url.protocol.slice(0, -1);
  const server = servers.get(`${scheme}:${url.port === '' ? defaultPort(scheme) : url.port}`);
  if (server === undefined) throw new Error(`no server for \`${raw}\``);
  // the authority ends at `/`, `?`, `#` or (special schemes) `\`, as WHATWG reads it
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#\\]*)(.*)$/isu.exec(raw);
  if (match === null) throw new Error(`cannot rewrite \`${raw}\``);
  const [, lead = '', authority = '', rest = ''] = match;
  // an ip literal cannot be mapped by the resolver; 127.0.0.1 keeps "name and literal reach one address"
  const host = isIP(url.hostname) === 0 ? authority.replace(/:\d*$/u, '') : '127.0.0.1';
  return `${lead}${host}:${server.port}${rest}`;
}

const hostNames = new Set<string>();
const serverKeys = new Set<string>();
for (const c of cases) {
  for (const raw of [c.from, ...(c.via ?? []), c.to]) {
    const url = new URL(raw);
    if (!served(url)) continue;
    const scheme = url.protocol.slice(0, -1);
    serverKeys.add(`${scheme}:${url.port === '' ? defaultPort(scheme) : url.port}`);
    if (isIP(url.hostname) === 0) hostNames.add(url.hostname.replace(/\.$/u, ''));
  }
}
const resolve = tableResolver(Object.fromEntries([...hostNames].map((name) => [name, ['127.0.0.1']])));

describe.skipIf(!haveCorpus || !hasOpenssl())('credential corpus replayed as real redirects', () => {
  beforeAll(async () => {
    const tls = makeTestCertificate([...hostNames], ['127.0.0.1']);
    ca = tls.cert;
    for (const key of serverKeys) {
      const server = await startServer(key.startsWith('https:') ? tls : undefined);
      server.handle((request, response) => {
        seen.push(request);
        const route = routes.get(request.href);
        if (route === undefined) response.writeHead(404).end();
        else if (route.location === undefined)
          response.writeHead(route.status, { 'content-type': 'text/plain' }).end('ok');
        // servers send UTF-8 bytes in Location; node writes header strings as latin1
        else
          response.writeHead(route.status, { location: Buffer.from(route.location, 'utf8').toString('latin1') }).end();
      });
      servers.set(key, server);
    }
  });
  afterAll(async () => {
    for (const server of servers.values()) await server.close();
  });

  test.each(cases)('$id: $credential $expect ($from → $to)', async (c) => {
    seen.length = 0;
    routes.clear();
    const chain = [c.from, ...(c.via ?? []), c.to].map(rewrite);
    chain.forEach((raw, i) => {
      const url = new URL(raw);
      const next = chain[i + 1];
      if (served(url)) routes.set(url.href, next === undefined ? { status: 200 } : { status: 302, location: next });
    });
    const origins = [
      ...new Set(
        chain
          .map((raw) => new URL(raw))
          .filter(served)
          .map((u) => u.origin),
      ),
    ];
    const gate = createGate(fetchPolicy({ origins }), { resolve });

    // the gate's own answer on the case as written agrees with the label
    const want = c.expect === 'forward' ? 'allow' : 'deny';
    const asWritten = gate.decideCredential({
      stage: 'credential',
      kind: c.credential,
      from: c.from,
      to: c.to,
      ...(c.via === undefined ? {} : { via: c.via }),
    });
    expect(asWritten.effect).toBe(want);

    const result = await gatedFetch(
      gate,
      { url: chain[0] ?? '', headers: credentialHeaders[c.credential] },
      { resolve, ca },
    );
    const header = headerOf[c.credential];
    const first = seen[0];
    expect(first?.href).toBe(new URL(chain[0] ?? '').href);
    if (header !== null) expect(first?.headers[header]).toBe(Object.values(credentialHeaders[c.credential])[0]);

    const toHref = new URL(chain.at(-1) ?? '').href;
    const atTo = seen.filter((r) => r.href === toHref && r !== first);
    const fromOrigin = new URL(chain[0] ?? '').origin;
    const carries = (r: SeenRequest) =>
      header === null ? JSON.stringify(r.headers).includes(secret) : r.headers[header] !== undefined;
    const outcome =
      atTo.length === 0
        ? `hop refused (${result.decision.reasons.map((r) => r.code).join(', ')})`
        : carries(atTo[0] as SeenRequest)
          ? 'sent'
          : 'stripped';
    console.info(`${c.id} ${c.expect}: ${outcome}`);

    if (c.expect === 'forward') {
      expect(result.decision.effect).toBe('allow');
      expect(atTo).toHaveLength(1);
      // the fetcher sends no referer, so a query token is never attached anywhere (over-strips bearer-in-query)
      if (header !== null) expect(atTo[0]?.headers[header]).toBe(first?.headers[header]);
    } else {
      for (const request of seen.slice(1)) {
        if (new URL(request.href).origin !== fromOrigin || request.href === toHref)
          expect(carries(request)).toBe(false);
      }
    }
    // a query token never travels in a header, whatever the case
    for (const request of seen) expect(request.headers.referer).toBeUndefined();
  });
});
