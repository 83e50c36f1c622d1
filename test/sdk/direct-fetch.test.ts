import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import type { DirectFetchOptions } from '../../src/fetch/direct-fetcher.ts';
import { gateToolResult, type GateToolResultOptions, type RequestingClient } from '../../src/sdk/gate-tool-result.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { makePe, makePng } from '../fixtures/make-bytes.ts';
import { fetchPolicy, originOf, tableResolver, type PolicyChanges } from '../fetch/support/fetch-policy.ts';
import { startServer, type Handler, type LocalServer } from '../fetch/support/local-server.ts';
import { hasOpenssl, makeTestCertificate } from '../fetch/support/test-certificate.ts';

// the Client helper with a policy that enables direct fetch: links are fetched from real loopback servers
// under test names, each name exempted by its exact origin (`links.allowNonPublicOrigins`)
const names = {
  docs: 'docs.example.com',
  cdn: 'cdn.example.net',
  secure: 'secure.example.com',
  private: 'private.example.com',
};
const resolve = tableResolver({
  [names.docs]: ['127.0.0.1'],
  [names.cdn]: ['127.0.0.1'],
  [names.secure]: ['127.0.0.1'],
  [names.private]: ['10.0.0.5'],
});
const secrets = ['Bearer s3cr3t-token-9f2c', 'session=c00kie-v4lue-77', 'k3y-v4lue-31', 'qu3ry-v4lue-08'];

let docs: LocalServer;
let cdn: LocalServer;
const docsUrl = (path: string) => `http://${names.docs}:${docs.port}${path}`;
const cdnUrl = (path: string) => `http://${names.cdn}:${cdn.port}${path}`;

beforeAll(async () => {
  docs = await startServer();
  cdn = await startServer();
});
afterAll(async () => {
  await docs.close();
  await cdn.close();
});
beforeEach(() => {
  docs.seen.length = 0;
  cdn.seen.length = 0;
});

/** A fake MCP client: every `resources/read` it gets is logged and answered with one text item. */
function fakeClient() {
  const reads: string[] = [];
  const client: RequestingClient = {
    async request(request) {
      const uri = String(request.params?.['uri']);
      reads.push(uri);
      return { resultType: 'complete', contents: [{ uri, mimeType: 'text/plain', text: 'read over mcp' }] };
    },
  };
  return { client, reads };
}

function gateWith(changes: Partial<PolicyChanges> = {}) {
  const origins = changes.origins ?? [originOf('http', names.docs, docs.port), originOf('http', names.cdn, cdn.port)];
  return createGate(fetchPolicy({ ...changes, origins }), { resolve });
}

/** Runs the helper over a tool result holding `links`; the fetch uses the test resolver plus `fetch`. */
async function runHelper(
  links: readonly Record<string, unknown>[],
  gate = gateWith(),
  fetch: DirectFetchOptions = {},
  extra: Partial<GateToolResultOptions> = {},
) {
  const { client, reads } = fakeClient();
  const toolResult = { content: [{ type: 'text', text: 'see the links' }, ...links] };
  const result = await gateToolResult(client, toolResult, {
    gate,
    server: 'docs',
    tool: 'find',
    fetch: { resolve, ...fetch },
    ...extra,
  });
  for (const record of result.records) expect(recordViolations(record)).toEqual([]);
  const serialized = JSON.stringify(result.records);
  for (const secret of secrets) expect(serialized).not.toContain(secret);
  return { ...result, reads };
}

const link = (uri: string, extra: Record<string, unknown> = {}) => ({
  type: 'resource_link',
  uri,
  name: 'doc',
  ...extra,
});
const serve = (server: LocalServer, handler: Handler) => server.handle(handler);
const text =
  (body: string | Buffer, type = 'text/plain') =>
  (_request: unknown, response: import('node:http').ServerResponse) => {
    response.writeHead(200, { 'content-type': type }).end(body);
  };

describe('a link the policy has the host fetch directly', () => {
  test('an allowed text body is fetched, not read over mcp: body-obtained, delivered as text', async () => {
    serve(docs, text('guide text\n'));
    const { records, content, reads } = await runHelper([link(docsUrl('/guide.txt?token=qu3ry-v4lue-08'))]);
    const [record] = records as [LinkRecord];
    expect(reads).toEqual([]);
    expect(docs.seen.map((r) => r.method)).toEqual(['GET']);
    expect(record.verdict).toBe('body-obtained');
    expect(record.stages.requested).toMatchObject({
      transport: 'https-direct',
      requestId: null,
      server: 'docs',
      hops: [
        {
          url: `http://${names.docs}:${docs.port}/guide.txt?token=`,
          method: 'GET',
          status: 200,
          effect: 'allow',
          codes: [],
          address: '127.0.0.1',
          // the query token went to its own origin: named, never its value
          credentials: [{ header: '?token', kind: 'bearer-in-query', attached: true, codes: [] }],
        },
      ],
    });
    expect(record.stages.received).toMatchObject({
      resultType: 'complete',
      finalUrl: `http://${names.docs}:${docs.port}/guide.txt?token=`,
      httpStatus: 200,
      bytes: 11,
      truncated: false,
      itemCount: 1,
      items: [{ index: 0, bytes: 11, kind: 'text', sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }],
    });
    expect(record.stages.delivered).toMatchObject({ items: [0], bytes: 11, characters: 11, dropped: [] });
    expect(content).toEqual([
      { type: 'text', text: 'see the links' },
      link(docsUrl('/guide.txt?token=qu3ry-v4lue-08')),
      {
        type: 'resource',
        resource: { uri: docsUrl('/guide.txt?token=qu3ry-v4lue-08'), mimeType: 'text/plain', text: 'guide text\n' },
      },
    ]);
    expect(JSON.stringify(record)).not.toContain('guide text');
  });

  test('an image body is delivered as a blob with its bytes', async () => {
    const png = makePng({ width: 4, height: 3 });
    serve(docs, text(png, 'image/png'));
    const { records, content } = await runHelper([link(docsUrl('/logo.png'), { mimeType: 'image/png' })]);
    expect(records[0]?.verdict).toBe('body-obtained');
    expect(records[0]?.next?.boundary).toBe('mime-decoding');
    expect(content[2]).toEqual({
      type: 'resource',
      resource: { uri: docsUrl('/logo.png'), mimeType: 'image/png', blob: png.toString('base64') },
    });
  });

  test.each([
    {
      name: 'an executable served as an image',
      body: () => makePe(),
      type: 'image/png',
      code: 'content.mime-mismatch',
    },
    {
      name: 'a shebang script served as text',
      body: () => Buffer.from('#!/bin/sh\nrm -rf ~\n'),
      type: 'text/plain',
      code: 'content.executable',
    },
  ])('$name is received and denied whole: link-only, nothing delivered', async ({ body, type, code }) => {
    serve(docs, text(body(), type));
    const { records, content } = await runHelper([link(docsUrl('/file'))]);
    const record = records[0] as LinkRecord;
    expect(record.verdict).toBe('link-only');
    expect(record.decisions.read?.effect).toBe('deny');
    expect(record.decisions.read?.reasons.map((r) => r.code)).toContain(code);
    expect(record.stages.received).toMatchObject({ httpStatus: 200, resultType: 'complete' });
    expect(record.stages.delivered).toBeNull();
    expect(content.filter((c) => c['type'] === 'resource')).toEqual([]);
  });

  test.each([
    { name: 'a loopback literal', location: () => 'http://127.0.0.1:1/admin', code: 'uri.non-public-address' },
    {
      name: 'a cloud metadata address',
      location: () => 'http://169.254.169.254/latest/meta-data/',
      code: 'uri.non-public-address',
    },
    {
      name: 'a name that resolves to a private address',
      location: () => `http://${names.private}/`,
      code: 'uri.non-public-address',
    },
    { name: 'a file url', location: () => 'file:///etc/passwd', code: 'uri.scheme-not-allowed' },
  ])(
    'a redirect to $name is denied at the hop before any body: link-only naming the rule',
    async ({ location, code }) => {
      serve(docs, (_request, response) => response.writeHead(302, { location: location() }).end());
      const { records, content, reads } = await runHelper([link(docsUrl('/start'))]);
      const record = records[0] as LinkRecord;
      expect(reads).toEqual([]);
      expect(docs.seen).toHaveLength(1);
      expect(record.verdict).toBe('link-only');
      expect(record.decisions.link.effect).toBe('allow');
      expect(record.decisions.read?.effect).toBe('deny');
      expect(record.stages.requested?.hops?.map((h) => [h.status, h.effect, h.codes.includes(code)])).toEqual([
        [302, 'allow', false],
        [null, 'deny', true],
      ]);
      expect(record.stages.requested?.hops?.[1]?.address).toBeNull();
      expect(record.stages.received).toBeNull();
      expect(record.next?.boundary).toBe('policy');
      expect(record.next?.hint).toMatch(/^redirect hop 2 was refused by `[a-zA-Z.]+` \(/);
      expect(record.next?.hint).toContain(code);
      expect(content.filter((c) => c['type'] === 'resource')).toEqual([]);
    },
  );

  test('more redirects than `fetch.maxRedirects` stop the chain: link-only naming the limit', async () => {
    serve(docs, (request, response) =>
      response.writeHead(302, { location: `${new URL(request.href).pathname}x` }).end(),
    );
    const { records } = await runHelper([link(docsUrl('/r'))], gateWith({ fetch: { maxRedirects: 2 } }));
    const record = records[0] as LinkRecord;
    expect(docs.seen).toHaveLength(3);
    expect(record).toMatchObject({ verdict: 'link-only', next: { boundary: 'policy' } });
    expect(record.next?.hint).toContain('`fetch.maxRedirects` (fetch.too-many-redirects)');
  });

  test.each([
    { name: 'ascii', unit: 'a', capBytes: 4096, keptBytes: 4096 },
    { name: 'two-byte characters cut inside one', unit: 'é', capBytes: 4097, keptBytes: 4096 },
  ])(
    'a body over the cap with `overCap: partial` is cut and delivered in part ($name): partially-interpreted',
    async ({ unit, capBytes, keptBytes }) => {
      serve(docs, text(unit.repeat(64 * 1024)));
      const gate = gateWith({ read: { maxBytes: capBytes }, fetch: { overCap: 'partial' } });
      const { records, content } = await runHelper([link(docsUrl('/big.txt'))], gate);
      const record = records[0] as LinkRecord;
      expect(record.verdict).toBe('partially-interpreted');
      expect(record.decisions.read?.effect).toBe('partial');
      expect(record.decisions.read?.reasons).toContainEqual(
        expect.objectContaining({ code: 'content.too-large', rule: 'fetch.overCap' }),
      );
      expect(record.stages.received).toMatchObject({ truncated: true, bytes: keptBytes, httpStatus: 200 });
      expect(record.stages.delivered).toMatchObject({ items: [0], bytes: keptBytes, dropped: [] });
      expect(record.next?.boundary).toBe('context-assembly');
      const delivered = content[2] as { resource: { text?: string } };
      expect(delivered.resource.text).toBe(unit.repeat(keptBytes / Buffer.byteLength(unit)));
    },
  );

  test('a body over the cap with `overCap: deny` is refused whole: link-only, nothing delivered', async () => {
    serve(docs, text('a'.repeat(64 * 1024)));
    const { records, content } = await runHelper(
      [link(docsUrl('/big.txt'))],
      gateWith({ read: { maxBytes: 4096 }, fetch: { overCap: 'deny' } }),
    );
    expect(records[0]).toMatchObject({
      verdict: 'link-only',
      stages: { delivered: null },
      decisions: { read: { effect: 'deny' } },
    });
    expect(records[0]?.decisions.read?.reasons.map((r) => r.code)).toEqual(['content.too-large']);
    expect(content).toHaveLength(2);
  });

  // the assertions give both rows one handler type, so test.each infers a single row shape
  /* eslint-disable @typescript-eslint/no-unnecessary-type-assertion */
  test.each([
    { name: 'before the response head', handler: (() => {}) as Handler, httpStatus: null },
    {
      name: 'mid-body',
      handler: ((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10000' });
        response.write('a'.repeat(1000));
      }) as Handler,
      httpStatus: 200,
    },
  ])(
    'a server that stalls $name ends at the deadline: unverifiable `read.timeout`',
    async ({ handler, httpStatus }) => {
      const readTimeoutMs = 300;
      serve(docs, handler);
      const started = performance.now();
      const { records, content } = await runHelper([link(docsUrl('/slow'))], gateWith({ read: { readTimeoutMs } }));
      const elapsed = performance.now() - started;
      const record = records[0] as LinkRecord;
      expect(record.verdict).toBe('unverifiable');
      expect(record.decisions.read?.reasons[0]).toMatchObject({ code: 'read.timeout', rule: 'read.readTimeoutMs' });
      expect(record.next).toMatchObject({
        boundary: 'origin-server',
        hint: expect.stringContaining(`\`${readTimeoutMs}\` ms`),
      });
      expect(record.stages.received?.httpStatus ?? null).toBe(httpStatus);
      expect(record.stages.delivered).toBeNull();
      expect(elapsed).toBeGreaterThanOrEqual(readTimeoutMs - 20);
      expect(content).toHaveLength(2);
    },
  );

  test.each([404, 500])('a final http status %i is unverifiable at the origin server', async (status) => {
    serve(docs, (_request, response) =>
      response.writeHead(status, { 'content-type': 'text/plain' }).end('no such page'),
    );
    const { records } = await runHelper([link(docsUrl('/gone'))]);
    expect(records[0]).toMatchObject({
      verdict: 'unverifiable',
      next: { boundary: 'origin-server' },
      stages: { received: { httpStatus: status, resultType: null }, delivered: null },
    });
    expect(records[0]?.next?.hint).toContain(`http status \`${status}\``);
  });

  test('a refused connection is unverifiable, not a deny of the link', async () => {
    const closed = await startServer();
    const port = closed.port;
    await closed.close();
    const origin = originOf('http', names.docs, port);
    const { records } = await runHelper([link(`http://${names.docs}:${port}/x`)], gateWith({ origins: [origin] }));
    expect(records[0]).toMatchObject({
      verdict: 'unverifiable',
      next: { boundary: 'origin-server' },
      stages: { received: null, delivered: null },
    });
    expect(records[0]?.decisions.read?.reasons[0]?.code).toBe('fetch.failed');
  });
});

describe('credentials for direct fetch', () => {
  const hostHeaders = () => ({
    Authorization: secrets[0] as string,
    Cookie: secrets[1] as string,
    'X-Api-Key': secrets[2] as string,
    Accept: 'text/plain',
  });

  test('come only from the host option, go to the link origin and are stripped after a cross-origin redirect; records name headers only', async () => {
    serve(docs, (_request, response) => response.writeHead(302, { location: cdnUrl('/file.txt') }).end());
    serve(cdn, text('from the cdn'));
    const asked: string[] = [];
    const { records } = await runHelper([link(docsUrl('/start'))], gateWith(), {
      headers: (uri) => {
        asked.push(uri);
        return hostHeaders();
      },
    });
    expect(asked).toEqual([docsUrl('/start')]);
    expect(docs.seen[0]?.headers).toMatchObject({
      authorization: secrets[0],
      cookie: secrets[1],
      'x-api-key': secrets[2],
      accept: 'text/plain',
    });
    const atCdn = cdn.seen[0]?.headers ?? {};
    expect([atCdn.authorization, atCdn.cookie, atCdn['x-api-key'], atCdn.accept]).toEqual([
      undefined,
      undefined,
      undefined,
      'text/plain',
    ]);
    const record = records[0] as LinkRecord;
    expect(record.verdict).toBe('body-obtained');
    const hops = record.stages.requested?.hops ?? [];
    expect(hops[0]?.credentials.map((c) => [c.header, c.attached])).toEqual([
      ['authorization', true],
      ['cookie', true],
      ['x-api-key', true],
    ]);
    expect(hops[1]?.credentials.map((c) => [c.header, c.kind, c.attached, c.codes.length > 0])).toEqual([
      ['authorization', 'authorization', false, true],
      ['cookie', 'cookie', false, true],
      ['x-api-key', 'api-key-header', false, true],
    ]);
  });

  test('without the host option nothing credential-like is sent', async () => {
    serve(docs, text('public'));
    await runHelper([link(docsUrl('/public.txt'))]);
    const headers = docs.seen[0]?.headers ?? {};
    expect([headers.authorization, headers.cookie, headers['proxy-authorization']]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('a failing headers callback sends nothing and records no error text', async () => {
    serve(docs, text('never fetched'));
    const { records } = await runHelper([link(docsUrl('/x'))], gateWith(), {
      headers: () => {
        throw new Error(`cannot mint ${secrets[0]}`);
      },
    });
    expect(docs.seen).toEqual([]);
    expect(records[0]).toMatchObject({
      verdict: 'unverifiable',
      stages: { requested: { transport: 'https-direct', hops: [] }, received: null },
    });
  });
});

describe('links the policy does not have the host fetch', () => {
  test.each([
    { name: 'no fetch section', changes: { fetch: null } },
    { name: '`fetch.enabled: false`', changes: { fetch: { enabled: false } } },
    { name: 'http not among `fetch.schemes`', changes: { fetch: { schemes: ['https' as const] } } },
  ])('$name: the link goes through resources/read as before', async ({ changes }) => {
    serve(docs, text('over http'));
    const uri = docsUrl('/guide.txt');
    const { records, content, reads } = await runHelper([link(uri)], gateWith(changes));
    expect(reads).toEqual([uri]);
    expect(docs.seen).toEqual([]);
    const record = records[0] as LinkRecord;
    expect(record.verdict).toBe('body-obtained');
    expect(record.stages.requested?.transport).toBe('resources/read');
    expect(record.stages.requested?.hops).toBeUndefined();
    expect(record.stages.received?.httpStatus).toBeUndefined();
    expect(content[2]).toEqual({ type: 'resource', resource: { uri, mimeType: 'text/plain', text: 'read over mcp' } });
  });

  test('a custom-scheme link in the same tool result is still read over mcp while http links are fetched', async () => {
    serve(docs, text('fetched'));
    const { records, reads } = await runHelper([link('guide://manuals/packing'), link(docsUrl('/a.txt'))]);
    expect(reads).toEqual(['guide://manuals/packing']);
    expect(records.map((r) => r.stages.requested?.transport)).toEqual(['resources/read', 'https-direct']);
    expect(records.map((r) => r.verdict)).toEqual(['body-obtained', 'body-obtained']);
  });

  test('a link denied by the link decision is neither fetched nor read', async () => {
    const { records, reads } = await runHelper([link('http://127.0.0.1:9/admin')]);
    expect(reads).toEqual([]);
    expect(records[0]).toMatchObject({
      verdict: 'link-only',
      stages: { requested: null },
      decisions: { link: { effect: 'deny' }, read: null },
    });
  });
});

describe('with the real SDK Client and an in-process MCP server', () => {
  test('the http link is fetched directly and never reaches the server as resources/read; the custom-scheme link does', async () => {
    serve(docs, text('fetched by the host'));
    const serverReads: string[] = [];
    const server = new McpServer({ name: 'links', version: '1.0.0' }, { capabilities: { resources: {}, tools: {} } });
    server.registerTool('find', { description: 'returns two links' }, async () => ({
      content: [
        { type: 'resource_link' as const, uri: docsUrl('/guide.txt'), name: 'web guide', mimeType: 'text/plain' },
        { type: 'resource_link' as const, uri: 'guide://manuals/packing', name: 'packing', mimeType: 'text/plain' },
      ],
    }));
    server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      // the server logs every read it receives
      serverReads.push(request.params.uri);
      return { contents: [{ uri: request.params.uri, mimeType: 'text/plain', text: 'read over mcp' }] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'host', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    try {
      const toolResult = await client.callTool({ name: 'find', arguments: {} });
      const { records, content } = await gateToolResult(client, toolResult, {
        gate: gateWith(),
        server: 'links',
        tool: 'find',
        fetch: { resolve },
      });
      expect(serverReads).toEqual(['guide://manuals/packing']);
      expect(docs.seen.map((r) => new URL(r.href).pathname)).toEqual(['/guide.txt']);
      expect(records.map((r) => [r.stages.requested?.transport, r.verdict])).toEqual([
        ['https-direct', 'body-obtained'],
        ['resources/read', 'body-obtained'],
      ]);
      expect(records[0]?.stages.discovered).toMatchObject({
        tool: 'find',
        contentIndex: 0,
        server: 'links',
        serverInfo: { name: 'links', version: '1.0.0' },
      });
      for (const record of records) expect(recordViolations(record)).toEqual([]);
      expect(
        content.filter((c) => c['type'] === 'resource').map((c) => (c['resource'] as { text: string }).text),
      ).toEqual(['fetched by the host', 'read over mcp']);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('observe mode with direct fetch', () => {
  test('records `wouldDeny` but never connects where the policy denies: the fetcher keeps its network rules', async () => {
    const literal = await startServer();
    try {
      serve(literal, text('must not be fetched'));
      const { records, reads } = await runHelper(
        [link(`http://127.0.0.1:${literal.port}/admin`)],
        gateWith(),
        {},
        { mode: 'observe' },
      );
      expect(literal.connections()).toBe(0);
      expect(reads).toEqual([]);
      expect(records[0]).toMatchObject({
        mode: 'observe',
        wouldDeny: true,
        verdict: 'link-only',
        decisions: { link: { effect: 'deny' }, read: { effect: 'deny' } },
      });
      expect(records[0]?.stages.requested?.hops).toEqual([
        expect.objectContaining({ status: null, effect: 'deny', address: null }),
      ]);
    } finally {
      await literal.close();
    }
  });

  test('a body the content checks deny is not released to the model even in observe mode', async () => {
    serve(docs, text(makePe(), 'image/png'));
    const { records, content } = await runHelper([link(docsUrl('/x.png'))], gateWith(), {}, { mode: 'observe' });
    expect(records[0]).toMatchObject({
      mode: 'observe',
      wouldDeny: true,
      verdict: 'link-only',
      stages: { delivered: null },
    });
    expect(content.filter((c) => c['type'] === 'resource')).toEqual([]);
  });

  test('an allowed body is delivered as in enforce mode', async () => {
    serve(docs, text('fine'));
    const { records, content } = await runHelper([link(docsUrl('/ok.txt'))], gateWith(), {}, { mode: 'observe' });
    expect(records[0]).toMatchObject({ mode: 'observe', wouldDeny: false, verdict: 'body-obtained' });
    expect(content[2]).toMatchObject({ resource: { text: 'fine' } });
  });
});

describe.skipIf(!hasOpenssl())('an https link', () => {
  let secure: LocalServer;
  let tls: { key: string; cert: string };
  beforeAll(async () => {
    tls = makeTestCertificate([names.secure], []);
    secure = await startServer(tls);
  });
  afterAll(() => secure.close());

  test('is fetched over tls with the host-supplied trust anchor: body-obtained', async () => {
    serve(secure, text('over tls'));
    const uri = `https://${names.secure}:${secure.port}/doc.txt`;
    const gate = gateWith({ origins: [originOf('https', names.secure, secure.port)] });
    const { records, content } = await runHelper([link(uri)], gate, { ca: tls.cert });
    expect(records[0]).toMatchObject({
      verdict: 'body-obtained',
      stages: { requested: { transport: 'https-direct', hops: [{ status: 200 }] }, received: { httpStatus: 200 } },
    });
    expect(content[2]).toEqual({ type: 'resource', resource: { uri, mimeType: 'text/plain', text: 'over tls' } });
  });

  test('without the trust anchor the handshake fails: unverifiable, nothing delivered', async () => {
    serve(secure, text('over tls'));
    const gate = gateWith({ origins: [originOf('https', names.secure, secure.port)] });
    const { records } = await runHelper([link(`https://${names.secure}:${secure.port}/doc.txt`)], gate);
    expect(records[0]).toMatchObject({ verdict: 'unverifiable', stages: { delivered: null } });
    expect(records[0]?.decisions.read?.reasons[0]?.code).toBe('fetch.failed');
  });
});
