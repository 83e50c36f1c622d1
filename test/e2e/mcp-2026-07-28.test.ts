// MCP 2026-07-28 end to end: the real 2.x Client, pinned to the new era, against the real 2.x server package serving
// it (`serveStdio`, `createMcpHandler`), through `linkgate proxy` (stdio and `--url`) and through `gateTransport`.
// Stateless requests (no `initialize`), `server/discover`, `resultType` everywhere, any-JSON `structuredContent`,
// `input_required` carrying a URL-mode elicitation (a server-chosen url the host opens: judged as a link), `-32602`
// for a resource that is not there (recorded as not found), and an MCP Apps `ui://` view (HTML the host renders,
// judged as HTML for the browser). Each front end must hand the host exactly what it hands a 2025-era host.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';
import YAML from 'yaml';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { guideText, modernEraServer, modernLinks, signInUrls } from '../fixtures/servers/modern-era-server.ts';
import { listenOnLoopback } from '../helpers/loopback-http.ts';
import { tsServer } from './run-probe.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { finishedInto } from '../sdk/finished-records.ts';

type Json = Record<string, unknown>;
type Era = 'modern' | 'legacy';
const modern = '2026-07-28';
const policyPath = path.join(repoRoot, 'policies/default.yaml');
const serverFile = 'test/fixtures/servers/modern-era-server.ts';
const proxyCli = (args: readonly string[]) => [
  process.execPath,
  '--import',
  'tsx',
  path.join(repoRoot, 'src/cli/main.ts'),
  'proxy',
  ...args,
];

/** What one host session saw, and what reached the server and the records. */
interface Session {
  version: string | undefined;
  links: Json;
  reads: Map<string, { text?: string; error?: { code: number; message: string } }>;
  signIn: { metadata: Json; public: Json };
  /** urls the host's elicitation handler was asked to open */
  opened: string[];
  records: LinkRecord[];
  /** what the server read from its stdin (stdio front ends) */
  serverSaw: string;
}

const readUris = [
  'era://docs/guide.txt',
  'ui://widget/app.html',
  'file:///etc/passwd',
  'era://docs/missing.txt',
] as const;

function hostClient(era: Era): { client: Client; opened: string[] } {
  const opened: string[] = [];
  const client = new Client(
    { name: 'era-host', version: '1.0.0' },
    {
      versionNegotiation: era === 'modern' ? { mode: { pin: modern } } : { mode: 'legacy' },
      capabilities: { elicitation: { url: {}, form: {} } },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as Json;
    if (typeof params['url'] === 'string') opened.push(params['url']);
    return { action: 'accept' };
  });
  return { client, opened };
}

async function hostSession(era: Era, transport: unknown): Promise<Omit<Session, 'records' | 'serverSaw'>> {
  const { client, opened } = hostClient(era);
  await client.connect(transport as never);
  try {
    const version = client.getNegotiatedProtocolVersion?.();
    const links = (await client.callTool({ name: 'links', arguments: {} })) as Json;
    const reads: Session['reads'] = new Map();
    for (const uri of readUris) {
      try {
        const result = (await client.readResource({ uri })) as { contents: Json[] };
        reads.set(uri, { text: String(result.contents[0]?.['text'] ?? '') });
      } catch (error) {
        const { code, message } = error as { code: number; message: string };
        reads.set(uri, { error: { code, message } });
      }
    }
    const signIn = {
      metadata: (await client.callTool({ name: 'sign-in-metadata', arguments: {} })) as Json,
      public: (await client.callTool({ name: 'sign-in-public', arguments: {} })) as Json,
    };
    return { version, links, reads, signIn, opened };
  } finally {
    await client.close();
  }
}

function tempFile(name: string): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'linkgate-2026-')), name);
}

function recordsIn(file: string): LinkRecord[] {
  // the proxy creates the file when it starts: a missing file fails the test
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Json)
    .filter((r) => typeof r['uri'] === 'string' && r['stages'] !== undefined) as unknown as LinkRecord[];
}

async function viaProxy(era: Era): Promise<Session> {
  const serverLog = tempFile('server.log');
  writeFileSync(serverLog, '');
  const records = tempFile('records.jsonl');
  const [command, ...args] = proxyCli([
    '--policy',
    policyPath,
    '--records',
    records,
    '--',
    ...tsServer(serverFile, serverLog),
  ]);
  const transport = new StdioClientTransport({
    command: command as string,
    args,
    cwd: repoRoot,
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  const seen = await hostSession(era, transport);
  return { ...seen, records: recordsIn(records), serverSaw: readFileSync(serverLog, 'utf8') };
}

async function viaDecorator(era: Era): Promise<Session> {
  const serverLog = tempFile('server.log');
  writeFileSync(serverLog, '');
  const records: LinkRecord[] = [];
  const gate = createGate(await loadPolicy(policyPath));
  const [command, ...args] = tsServer(serverFile, serverLog);
  const stdio = new StdioClientTransport({ command: command as string, args, cwd: repoRoot, stderr: 'pipe' });
  const transport = gateTransport(stdio, { gate, server: 'default', sink: callbackSink(finishedInto(records)) });
  const seen = await hostSession(era, transport);
  await transport.flush();
  return { ...seen, records, serverSaw: readFileSync(serverLog, 'utf8') };
}

const texts = (result: Json): string[] =>
  ((result['content'] as Json[] | undefined) ?? []).map((item) => JSON.stringify(item));

/** The checks every front end must pass in both eras. */
function expectGated(s: Session, era: Era): void {
  expect(s.version).toBe(era === 'modern' ? modern : '2025-11-25');
  // the new era is stateless: no initialize ever reaches the server
  if (era === 'modern') {
    expect(s.serverSaw).toContain('"server/discover"');
    expect(s.serverSaw).not.toContain('"initialize"');
  } else expect(s.serverSaw).toContain('"initialize"');

  // links: the refused ones are notices naming no uri, in content and in the structured content alike
  const content = texts(s.links);
  const handedOn = JSON.stringify([s.links['content'], s.links['structuredContent']]);
  for (const link of modernLinks) {
    const present = content.some((item) => item.includes(`"uri":${JSON.stringify(link.uri)}`));
    expect(present, link.uri).toBe(!link.refused);
    if (link.refused) expect(handedOn, link.uri).not.toContain(link.uri.slice(link.uri.indexOf(':') + 1));
  }
  const notices = ((s.links['content'] as Json[] | undefined) ?? []).filter(
    (item) => typeof item['text'] === 'string' && item['text'].startsWith('linkgate refused the link'),
  );
  expect(notices).toHaveLength(modernLinks.filter((l) => l.refused).length);

  // reads: the plain text passes, the MCP Apps view (HTML with a script) is withheld, the refused uri never sent
  expect(s.reads.get('era://docs/guide.txt')).toEqual({ text: guideText });
  expect(s.reads.get('ui://widget/app.html')?.error?.message).toMatch(/content\.executable/);
  expect(s.reads.get('file:///etc/passwd')?.error?.message).toMatch(/uri\.scheme-not-allowed/);
  expect(s.serverSaw).not.toContain('file:///etc/passwd"');
  expect(s.reads.get('era://docs/missing.txt')?.error?.code).toBe(-32602);

  // url elicitation: the metadata url never reaches the host, the public one does (and the call then completes)
  expect(s.opened).toEqual([signInUrls.public]);
  expect(s.signIn.metadata['isError']).toBe(true);
  // 2026: the gate answers the call; 2025: the server's own elicitation request is declined for the host
  expect(texts(s.signIn.metadata).join('')).toMatch(
    era === 'modern' ? /linkgate refused the url the server asked the host to open/ : /sign-in declined/,
  );
  const metadataText = ((s.signIn.metadata['content'] as Json[] | undefined) ?? []).map((i) => i['text']).join('');
  expect(metadataText).not.toContain('169.254.169.254');
  expect(texts(s.signIn.public).join('')).toContain('signed in');

  // records: a resource that is not there is recorded as not found, the view as withheld for its script
  const missing = s.records.find((r) => r.uri === 'era://docs/missing.txt' && r.stages.received !== null);
  expect(missing?.next?.hint).toMatch(/no resource at this uri .*not found/);
  expect(missing?.decisions.read?.reasons.map((r) => r.message).join(' ')).toMatch(/resource not found/);
  const widget = s.records.find((r) => r.uri === 'ui://widget/app.html' && r.stages.received !== null);
  expect(widget?.decisions.read?.reasons.map((r) => r.code)).toContain('content.executable');
  expect(widget?.verdict).toBe('link-only');
}

describe('MCP 2026-07-28 end to end (the real 2.x client and server)', () => {
  test.each(['modern', 'legacy'] as const)('linkgate proxy over stdio, %s era', async (era) => {
    expectGated(await viaProxy(era), era);
  });

  test.each(['modern', 'legacy'] as const)('gateTransport under the 2.x Client, %s era', async (era) => {
    expectGated(await viaDecorator(era), era);
  });

  test('linkgate proxy --url: each request carries the 2026-07-28 headers, Mcp-Name from the body it judged', async () => {
    const handler = createMcpHandler(modernEraServer);
    const seen: { method: string; name: string | undefined; body: Json }[] = [];
    const http = await listenOnLoopback(async (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && body.length > 0) {
        const message = JSON.parse(body.toString('utf8')) as Json;
        seen.push({
          method: String(req.headers['mcp-method']),
          name: req.headers['mcp-name'] as string | undefined,
          body: message,
        });
      }
      const headers = Object.entries(req.headers).flatMap(([k, v]) =>
        typeof v === 'string' ? [[k, v] as [string, string]] : [],
      );
      const response = await handler.fetch(
        new Request(`http://127.0.0.1${req.url}`, {
          method: req.method ?? 'GET',
          headers,
          ...(req.method === 'POST' ? { body } : {}),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
      res.end();
    });
    try {
      const policy = tempFile('policy.yaml');
      const doc = YAML.parse(readFileSync(policyPath, 'utf8')) as Json;
      doc['links'] = { ...(doc['links'] as Json), allowNonPublicOrigins: [http.origin] };
      writeFileSync(policy, YAML.stringify(doc));
      const records = tempFile('records.jsonl');
      const [command, ...args] = proxyCli(['--policy', policy, '--records', records, '--url', `${http.origin}/mcp`]);
      const transport = new StdioClientTransport({
        command: command as string,
        args,
        cwd: repoRoot,
        env: process.env as Record<string, string>,
        stderr: 'pipe',
      });
      const s = await hostSession('modern', transport);
      expect(s.version).toBe(modern);
      expect(s.reads.get('era://docs/guide.txt')).toEqual({ text: guideText });
      expect(s.reads.get('ui://widget/app.html')?.error?.message).toMatch(/content\.executable/);
      expect(s.opened, JSON.stringify(s.signIn)).toEqual([signInUrls.public]);
      const requests = seen.filter((r) => typeof r.body['id'] !== 'undefined' && typeof r.body['method'] === 'string');
      expect(requests.length).toBeGreaterThan(0);
      for (const r of requests) {
        const params = r.body['params'] as Json;
        expect(r.method).toBe(r.body['method']);
        const mirrored = r.body['method'] === 'resources/read' ? params['uri'] : params['name'];
        if (r.body['method'] === 'resources/read' || r.body['method'] === 'tools/call') expect(r.name).toBe(mirrored);
      }
      // the refused read never went out, under any header
      expect(
        seen.some((r) => JSON.stringify(r).includes('/etc/passwd"') && r.body['method'] === 'resources/read'),
      ).toBe(false);
      const missing = recordsIn(records).find((r) => r.uri === 'era://docs/missing.txt' && r.stages.received !== null);
      expect(missing?.next?.hint, JSON.stringify(missing)).toMatch(/not found/);
    } finally {
      await http.close();
    }
  });
});
