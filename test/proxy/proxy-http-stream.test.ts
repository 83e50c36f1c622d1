import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parse, stringify } from 'yaml';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { type LoopbackServer, listenOnLoopback, readRequestBody } from '../helpers/loopback-http.ts';
import { shippedPolicy } from './proxy-helpers.ts';
import { initialize, startRawHost } from './raw-host.ts';

type Json = Record<string, unknown>;

const started: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

// a Streamable HTTP server by hand: `tools/call` answers with an event stream that carries a notification and
// ends without the answer (a server that crashed mid-call, a proxy that cut the stream); everything else in JSON
async function vanishingServer(): Promise<LoopbackServer> {
  const server = await listenOnLoopback(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    const body = JSON.parse(await readRequestBody(req)) as Json | Json[];
    const request = (Array.isArray(body) ? body : [body]).find((m) => m['id'] !== undefined && 'method' in m);
    if (request === undefined) {
      res.writeHead(202).end();
      return;
    }
    const { id, method } = request;
    if (method === 'tools/call') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' });
      const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } };
      res.end(`event: message\ndata: ${JSON.stringify(note)}\n\n`);
      return;
    }
    const result =
      method === 'initialize'
        ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'vanish', version: '1' } }
        : {};
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's-1' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
  });
  started.push(server);
  return server;
}

async function policyAllowing(origin: string): Promise<string> {
  const doc = parse(await readFile(shippedPolicy('default'), 'utf8')) as { links: Json };
  doc.links = { ...doc.links, allowNonPublicOrigins: [origin] };
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-proxy-stream-')), 'policy.yaml');
  await writeFile(file, stringify(doc));
  return file;
}

describe('linkgate proxy --url: an event stream that ends before its answer', () => {
  test('fails that request with -32080; the session goes on', async () => {
    const server = await vanishingServer();
    const gate = createGate(await loadPolicy(await policyAllowing(server.origin)));
    const host = startRawHost(gate, { kind: 'url', url: `${server.origin}/mcp`, headers: [] });
    await initialize(host);
    // before the fix the request hung: the raw host gives up after 20 s and the test fails
    const answer = await host.request('tools/call', { name: 'anything', arguments: {} });
    expect((answer['error'] as Json | undefined)?.['code']).toBe(gateErrorCode);
    expect(String((answer['error'] as Json)['message'])).toContain('ended before');
    // the notification the stream did carry reached the host
    await host.waitFor((m) => m['method'] === 'notifications/message');
    expect((await host.request('ping'))['result']).toEqual({});
    host.end();
    expect(await host.exit).toBe(0);
  }, 60_000);
});
