import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { makeElf, makePng } from '../../src/demo/demo-bytes.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { cappedFetch } from '../../src/fetch/capped-fetch.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { decisionMetaKey, gateErrorCode, gateTransport } from '../../src/sdk/gate-transport.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { Policy } from '../../src/policy/policy.ts';
import type { LinkRecord, Verdict } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { closeSessions, listenOnLoopback, readRequestBody } from '../helpers/loopback-http.ts';
import { defaultPolicyWith, repoRoot } from '../sdk/fake-gate.ts';
import { leakedResources, resourceCensus } from '../reliability/wire-harness.ts';
import { memoryPeak } from '../helpers/memory-peak.ts';
import { finishedInto } from '../sdk/finished-records.ts';

/** Size of the hostile answer to a read of `floodUri`, bytes, generated while it is sent. */
const floodBytes = 200 * 1024 * 1024;
/** Largest JSON request body the test server reads, bytes (requests are small; this is the test server's own cap). */
/** Growth of heap + array buffers the host may show while refusing the flood, bytes. */
const maxFloodGrowthBytes = 96 * 1024 * 1024;
/** Read deadline in the flood test, milliseconds: an SSE flood is answered by the gate at this deadline. */
const floodDeadlineMs = 2000;
const floodUri = 'http-demo://flood/huge.txt';

interface LinkCase {
  uri: string;
  mimeType?: string;
  /** what `client.readResource` gives the host under `policies/default.yaml` */
  host: 'body' | 'gate-error';
  /** whether the read reaches the server */
  sent: boolean;
  verdict: Verdict;
  code: string | null;
}

// the tool's links in content order; the text item before them makes link content indices start at 1
const linkCases: readonly LinkCase[] = [
  {
    uri: 'http-demo://docs/guide.txt',
    mimeType: 'text/plain',
    host: 'body',
    sent: true,
    verdict: 'body-obtained',
    code: null,
  },
  {
    uri: 'javascript:alert(document.cookie)',
    host: 'gate-error',
    sent: false,
    verdict: 'link-only',
    code: 'uri.scheme-not-allowed',
  },
  {
    uri: 'http://169.254.169.254/latest/meta-data/',
    host: 'gate-error',
    sent: false,
    verdict: 'link-only',
    code: 'uri.non-public-address',
  },
  {
    uri: 'http-demo://images/holiday.png',
    mimeType: 'image/png',
    host: 'gate-error',
    sent: true,
    verdict: 'link-only',
    code: 'content.executable',
  },
];
const guideText = 'fold, then roll; heavy items at the bottom\n';

/** One JSON-RPC request the test server received, as parsed from the HTTP body. */
interface Logged {
  method: string;
  uri: string | null;
}

interface HttpDemo {
  url: URL;
  /** every JSON-RPC message that arrived over HTTP, in order */
  log: Logged[];
  /** bytes of the flood written before the client went away, whether all of it was written, and its response's close */
  flood: Flood;
  close(): Promise<void>;
}

/** The flood's progress: bytes written, whether all were, and a promise settled when its response has closed. */
interface Flood {
  written: number;
  complete: boolean;
  closed: Promise<void>;
}

/** An MCP server (SDK `McpServer` per session, stateful Streamable HTTP) on 127.0.0.1, port chosen by the system. */
async function startHttpDemo(responses: 'sse' | 'json'): Promise<HttpDemo> {
  const log: Logged[] = [];
  const flood: Flood = { written: 0, complete: false, closed: Promise.resolve() };
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();

  const mcpServer = () => {
    const server = new McpServer({ name: 'http-demo', version: '1.0.0' });
    server.registerTool('links', { description: 'resource links for the gate' }, async () => ({
      content: [
        { type: 'text', text: 'links follow' },
        ...linkCases.map((c) => ({
          type: 'resource_link' as const,
          uri: c.uri,
          name: c.uri,
          ...(c.mimeType === undefined ? {} : { mimeType: c.mimeType }),
        })),
      ],
    }));
    server.registerResource('guide', 'http-demo://docs/guide.txt', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: guideText }],
    }));
    // an ELF executable labelled as a png: the link looks fine, only the bytes tell
    server.registerResource('holiday', 'http-demo://images/holiday.png', { mimeType: 'image/png' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'image/png', blob: makeElf().toString('base64') }],
    }));
    server.registerResource('pixel', 'http-demo://images/pixel.png', { mimeType: 'image/png' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'image/png', blob: makePng(2, 2).toString('base64') }],
    }));
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (existing === undefined) return void res.writeHead(400).end();
      return existing.transport.handleRequest(req, res);
    }
    const body: unknown = JSON.parse(await readRequestBody(req));
    for (const m of Array.isArray(body) ? body : [body]) {
      const message = m as { method?: unknown; params?: { uri?: unknown } };
      if (typeof message.method === 'string')
        log.push({ method: message.method, uri: typeof message.params?.uri === 'string' ? message.params.uri : null });
    }
    const read = body as { id?: number; method?: string; params?: { uri?: string } };
    if (read.method === 'resources/read' && read.params?.uri === floodUri)
      return sendFlood(res, responses, read.id ?? 0, flood);
    if (existing !== undefined) return existing.transport.handleRequest(req, res, body);
    if (!isInitializeRequest(body)) return void res.writeHead(400).end();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: responses === 'json',
      onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
    });
    const server = mcpServer();
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  };

  const http = await listenOnLoopback(handle, () => closeSessions(sessions));
  return { url: new URL(`${http.origin}/mcp`), log, flood, close: () => http.close() };
}

/** Answers a read with one `floodBytes` message (one SSE event or one JSON body), made while it is written, honouring backpressure. */
async function sendFlood(res: ServerResponse, responses: 'sse' | 'json', id: number, flood: Flood): Promise<void> {
  res.writeHead(200, { 'content-type': responses === 'sse' ? 'text/event-stream' : 'application/json' });
  const head = `${responses === 'sse' ? 'event: message\ndata: ' : ''}{"jsonrpc":"2.0","id":${id},"result":{"contents":[{"uri":"${floodUri}","text":"`;
  const tail = `"}]}}${responses === 'sse' ? '\n\n' : ''}`;
  const filler = Buffer.alloc(64 * 1024, 'a');
  let gone = false;
  let wake: (() => void) | null = null;
  flood.closed = new Promise((closed) => res.once('close', () => closed()));
  res.on('close', () => {
    gone = true;
    wake?.();
  });
  res.on('drain', () => wake?.());
  const write = async (chunk: Buffer | string) => {
    flood.written += Buffer.byteLength(chunk);
    if (!res.write(chunk) && !gone) await new Promise<void>((resolve) => (wake = resolve));
  };
  await write(head);
  while (!gone && flood.written < floodBytes) await write(filler);
  if (gone) return;
  await write(tail);
  flood.complete = true;
  res.end();
}

const permissive = z.looseObject({});

async function connectHost(demo: HttpDemo, policy: Policy, records: LinkRecord[]) {
  const gate = createGate(policy);
  const http = new StreamableHTTPClientTransport(demo.url, { fetch: cappedFetch(connectionByteCap(policy)) });
  const client = new Client({ name: 'http-host', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(gateTransport(http, { gate, server: 'http-demo', sink: callbackSink(finishedInto(records)) }));
  return { client, gate, errors };
}

const readOutcome = (client: Client, uri: string) =>
  client.readResource({ uri }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({
      result: undefined,
      error: error as McpError & { data?: Record<string, { effect: string; reasons: { code: string }[] }> },
    }),
  );

const defaultPolicy = () => loadPolicy(path.join(repoRoot, 'policies/default.yaml'));

describe.each(['sse', 'json'] as const)('gateTransport over SDK Streamable HTTP (%s responses)', (responses) => {
  test('allowed reads deliver, denied links are answered locally, the executable is replaced by an error', async () => {
    const before = resourceCensus();
    const demo = await startHttpDemo(responses);
    const records: LinkRecord[] = [];
    const { client, errors } = await connectHost(demo, await defaultPolicy(), records);
    try {
      const tool = await client.callTool({ name: 'links' });
      expect(tool.content).toHaveLength(linkCases.length + 1);
      for (const c of linkCases) {
        const { result, error } = await readOutcome(client, c.uri);
        if (c.host === 'body') {
          expect(result?.contents, c.uri).toEqual([{ uri: c.uri, mimeType: 'text/plain', text: guideText }]);
        } else {
          expect(error, c.uri).toBeInstanceOf(McpError);
          expect(error?.code).toBe(gateErrorCode);
          const decision = error?.data?.[decisionMetaKey];
          expect(decision?.effect).toBe('deny');
          expect(decision?.reasons.map((r) => r.code)).toContain(c.code);
        }
      }
    } finally {
      await client.close();
    }
    const reads = demo.log.filter((l) => l.method === 'resources/read').map((l) => l.uri);
    expect(reads).toEqual(linkCases.filter((c) => c.sent).map((c) => c.uri));
    expect(demo.log.map((l) => l.method)).toContain('tools/call');

    expect(records.map((r) => [r.uri, r.verdict])).toEqual(linkCases.map((c) => [c.uri, c.verdict]));
    for (const [i, r] of records.entries()) {
      const c = linkCases[i] as LinkCase;
      expect(recordViolations(r), r.uri).toEqual([]);
      expect(r.stages.discovered).toMatchObject({
        tool: 'links',
        contentIndex: i + 1,
        client: { name: 'http-host' },
        serverInfo: { name: 'http-demo' },
      });
      expect(r.stages.requested === null, r.uri).toBe(!c.sent);
      const codes = [...r.decisions.link.reasons, ...(r.decisions.read?.reasons ?? [])].map((reason) => reason.code);
      if (c.code !== null) expect(codes, r.uri).toContain(c.code);
    }
    const executable = records.find((r) => r.uri === 'http-demo://images/holiday.png');
    expect(executable?.stages.received?.items[0]?.carrier).toBe('blob');
    expect(executable?.stages.delivered).toBeNull();
    expect(errors).toEqual([]);
    await demo.close();
    expect(await leakedResources(before)).toEqual({});
  });

  // the helper alone (plain transport), and the helper over a client whose transport is also gated: there the decorator
  // answers the executable's read with its own -32080 error, which the helper records fail-closed as a failed read
  test.each([
    { client: 'plain', executable: { verdict: 'link-only', code: 'content.executable', errorCode: null } },
    { client: 'gated', executable: { verdict: 'unverifiable', code: 'read.error', errorCode: gateErrorCode } },
  ] as const)(
    'gateToolResult runs the whole flow over the $client HTTP client',
    async ({ client: kind, executable: want }) => {
      const before = resourceCensus();
      const demo = await startHttpDemo(responses);
      const policy = await defaultPolicy();
      const gate = createGate(policy);
      const http = new StreamableHTTPClientTransport(demo.url, { fetch: cappedFetch(connectionByteCap(policy)) });
      const transportRecords: LinkRecord[] = [];
      const client = new Client({ name: 'http-host', version: '1.0.0' });
      await client.connect(
        kind === 'plain'
          ? http
          : gateTransport(http, {
              gate,
              server: 'http-demo',
              sink: callbackSink(finishedInto(transportRecords)),
            }),
      );
      let gated: Awaited<ReturnType<typeof gateToolResult>>;
      try {
        const tool = await client.request({ method: 'tools/call', params: { name: 'links' } }, permissive);
        gated = await gateToolResult(client, tool, { gate, server: 'http-demo', tool: 'links' });
      } finally {
        await client.close();
      }
      // behind a gated client the decorator already replaced the links it refuses (the helper sees no link to judge:
      // the decorator records them); the helper judges the rest
      const expected = linkCases
        .filter((c) => kind === 'plain' || c.sent)
        .map((c) =>
          c.uri === 'http-demo://images/holiday.png' ? { ...c, verdict: want.verdict, code: want.code } : c,
        );
      expect(gated.records.map((r) => [r.uri, r.verdict])).toEqual(expected.map((c) => [c.uri, c.verdict]));
      for (const [i, r] of gated.records.entries()) {
        expect(recordViolations(r), r.uri).toEqual([]);
        const code = (expected[i] as LinkCase).code;
        if (code !== null)
          expect(
            [...r.decisions.link.reasons, ...(r.decisions.read?.reasons ?? [])].map((reason) => reason.code),
            r.uri,
          ).toContain(code);
      }
      expect(gated.records.at(-1)?.stages.received?.error?.code ?? null).toBe(want.errorCode);
      // the guide's body follows its link as an embedded resource; nothing of the executable reaches the content
      expect(gated.content).toContainEqual({
        type: 'resource',
        resource: { uri: 'http-demo://docs/guide.txt', mimeType: 'text/plain', text: guideText },
      });
      expect(gated.content.filter((c) => c['type'] === 'resource')).toHaveLength(1);
      expect(demo.log.filter((l) => l.method === 'resources/read').map((l) => l.uri)).toEqual(
        linkCases.filter((c) => c.sent).map((c) => c.uri),
      );
      if (kind === 'gated') {
        const refused = linkCases.filter((c) => !c.sent).map((c) => c.uri);
        expect(gated.content.filter((c) => refused.includes(String(c['uri'])))).toEqual([]);
        expect(transportRecords.filter((r) => refused.includes(r.uri)).map((r) => r.verdict)).toEqual(
          refused.map(() => 'link-only'),
        );
      }
      if (kind === 'gated')
        expect(
          transportRecords
            .find((r) => r.uri === 'http-demo://images/holiday.png')
            ?.decisions.read?.reasons.map((r) => r.code),
        ).toContain('content.executable');
      await demo.close();
      expect(await leakedResources(before)).toEqual({});
    },
  );

  test(`a ${floodBytes / 2 ** 20} MiB read answer is cut at the byte cap; the host stays up and memory stays bounded`, async () => {
    const before = resourceCensus();
    const policy = await defaultPolicyWith({ readTimeoutMs: floodDeadlineMs });
    const demo = await startHttpDemo(responses);
    const records: LinkRecord[] = [];
    const { client, errors } = await connectHost(demo, policy, records);
    // a JSON body fails the POST itself; an SSE stream only errors, so the gate's read deadline answers the host
    const want =
      responses === 'json' ? { code: 'read.error', host: /byte cap/ } : { code: 'read.timeout', host: /timed out/ };
    const memory = memoryPeak();
    try {
      await client.callTool({ name: 'links' });
      const started = performance.now();
      const { result, error } = await readOutcome(client, floodUri);
      const elapsedMs = performance.now() - started;
      memory.stop();
      expect(result).toBeUndefined();
      expect(error?.message).toMatch(want.host);
      // the host is still connected and reads the next link
      expect((await client.readResource({ uri: 'http-demo://docs/guide.txt' })).contents).toHaveLength(1);
      // once the flood's response has closed nothing more arrives for the failed read: no stray answer, no second
      // record (a turn of the event loop lets what was in hand settle)
      await demo.flood.closed;
      await new Promise((resolve) => setImmediate(resolve));
      expect(records.filter((r) => r.uri === floodUri)).toHaveLength(1);
      console.info(
        `[streamable-http ${responses}] flood refused after ${Math.round(elapsedMs)} ms; server wrote ${(demo.flood.written / 2 ** 20).toFixed(1)} MiB; peak heap+arrayBuffers growth ${(memory.peak() / 2 ** 20).toFixed(1)} MiB`,
      );
    } finally {
      memory.stop();
      await client.close();
    }
    expect(errors.map((e) => e.message).filter((m) => !m.includes('byte cap'))).toEqual([]);
    expect(demo.flood.complete).toBe(false);
    expect(demo.flood.written).toBeLessThan(floodBytes / 4);
    expect(memory.peak()).toBeLessThan(maxFloodGrowthBytes);
    const flooded = records.filter((r) => r.uri === floodUri);
    expect(flooded).toHaveLength(1);
    expect(flooded[0]).toMatchObject({
      verdict: 'unverifiable',
      stages: { requested: { deadlineMs: floodDeadlineMs }, received: null, delivered: null },
    });
    expect(flooded[0]?.decisions.read?.reasons.map((r) => r.code)).toEqual([want.code]);
    if (responses === 'json')
      expect(flooded[0]?.decisions.read?.reasons[0]?.message).toMatch(
        /^the request failed: response from `http:\/\/127\.0\.0\.1:\d+\/mcp` passed the `\d+` byte cap while streaming$/,
      );
    expect(recordViolations(flooded[0] as LinkRecord)).toEqual([]);
    await demo.close();
    expect(await leakedResources(before)).toEqual({});
  });
});
