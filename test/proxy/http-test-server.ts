import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** Largest request body the test servers read, bytes (the proxy's requests are small). */
const maxRequestBytes = 1024 * 1024;

/** One HTTP request a test server received. */
export interface LoggedRequest {
  method: string;
  path: string;
  authorization: string | null;
  /** the JSON-RPC methods in a POST body, in order */
  rpc: string[];
}

/** A server on 127.0.0.1 with a port the system chose, logging every request it gets. */
export interface LoggingServer {
  readonly origin: string;
  readonly log: LoggedRequest[];
  close(): Promise<void>;
}

/** The text of `test://doc/ok`. */
export const okText = 'plain words, nothing to run\n';

/**
 * An MCP server (SDK `McpServer` per session, stateful Streamable HTTP) at `/mcp`. `/same` redirects (307) to `/mcp`;
 * `/elsewhere` redirects (307) to `elsewhere()`. Tools: `echo`, `links` (a safe link and `linkTo`), `big` (a text of
 * `bytes`), `embedded` (an embedded shebang script); resources `test://doc/ok` and `test://doc/script`; prompt `greet`.
 */
export async function startMcpHttpServer(
  responses: 'sse' | 'json',
  elsewhere: () => string = () => 'http://127.0.0.1:9/',
): Promise<LoggingServer> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  const mcpServer = () => {
    const server = new McpServer({ name: 'http-test', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text }],
      structuredContent: { text },
      _meta: { 'test/echo': true },
    }));
    server.registerTool('links', { inputSchema: { linkTo: z.string() } }, async ({ linkTo }) => ({
      content: [
        { type: 'resource_link', uri: 'test://doc/ok', name: 'ok', mimeType: 'text/plain' },
        { type: 'resource_link', uri: linkTo, name: 'elsewhere' },
      ],
    }));
    server.registerTool('big', { inputSchema: { bytes: z.number().int() } }, async ({ bytes }) => ({
      content: [{ type: 'text', text: 'b'.repeat(bytes) }],
    }));
    server.registerTool('embedded', {}, async () => ({
      content: [
        { type: 'text', text: 'a script follows' },
        { type: 'resource', resource: { uri: 'test://doc/script', mimeType: 'text/plain', text: '#!/bin/sh\nid\n' } },
      ],
    }));
    server.registerResource('ok', 'test://doc/ok', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: okText }],
    }));
    server.registerResource('script', 'test://doc/script', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: '#!/bin/sh\nid\n' }],
    }));
    server.registerPrompt('greet', { argsSchema: { name: z.string() } }, ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `hello ${name}` } }],
    }));
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, entry: LoggedRequest) => {
    if (entry.path === '/same') return void res.writeHead(307, { location: '/mcp' }).end();
    if (entry.path === '/elsewhere') return void res.writeHead(307, { location: elsewhere() }).end();
    if (entry.path !== '/mcp') return void res.writeHead(404).end();
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method !== 'POST') {
      if (existing === undefined) return void res.writeHead(400).end();
      return existing.transport.handleRequest(req, res);
    }
    const body: unknown = JSON.parse(await readBody(req));
    for (const m of Array.isArray(body) ? body : [body]) {
      const method = (m as { method?: unknown }).method;
      if (typeof method === 'string') entry.rpc.push(method);
    }
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
  return listen(handle, async () => {
    for (const { transport, server } of sessions.values()) {
      await transport.close();
      await server.close();
    }
  });
}

/** A plain server that answers every request with 200 `secret` and logs it: the "other origin" of the tests. */
export function startOtherServer(): Promise<LoggingServer> {
  return listen(async (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('secret'));
}

async function listen(
  handle: (req: IncomingMessage, res: ServerResponse, entry: LoggedRequest) => Promise<void>,
  beforeClose: () => Promise<void> = async () => {},
): Promise<LoggingServer> {
  const log: LoggedRequest[] = [];
  const http: Server = createServer((req, res) => {
    const auth = req.headers.authorization;
    const entry: LoggedRequest = {
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://x').pathname,
      authorization: auth ?? null,
      rpc: [],
    };
    log.push(entry);
    handle(req, res, entry).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    async close() {
      await beforeClose();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxRequestBytes) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
