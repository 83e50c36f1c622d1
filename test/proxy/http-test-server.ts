import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { closeSessions, listenOnLoopback, readRequestBody } from '../helpers/loopback-http.ts';

/** Largest request body the test servers read, bytes (the proxy's requests are small). */

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
    const body: unknown = JSON.parse(await readRequestBody(req));
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
  return listen(handle, () => closeSessions(sessions));
}

/** A plain server that answers every request with 200 `secret` and logs it: the "other origin" of the tests. */
export function startOtherServer(): Promise<LoggingServer> {
  return listen(async (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('secret'));
}

async function listen(
  handle: (req: IncomingMessage, res: ServerResponse, entry: LoggedRequest) => Promise<void>,
  beforeClose?: () => Promise<void>,
): Promise<LoggingServer> {
  const log: LoggedRequest[] = [];
  const server = await listenOnLoopback((req, res) => {
    const entry: LoggedRequest = {
      method: req.method ?? '',
      path: new URL(req.url ?? '/', 'http://x').pathname,
      authorization: req.headers.authorization ?? null,
      rpc: [],
    };
    log.push(entry);
    return handle(req, res, entry);
  }, beforeClose);
  return { ...server, log };
}
