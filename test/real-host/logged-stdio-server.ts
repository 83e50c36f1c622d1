// A test MCP server (the SDK's) served over stdio with its request log: every request it receives is appended as one
// JSON line `{method, uri}` to the file LINKGATE_REQUEST_LOG names (read back by `serverReads`, fixture-process.ts).
import { appendFileSync } from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** Connects `server` to stdio, logging each request to `logFile` (none when it is undefined) before the server sees it. */
export async function serveLoggingRequests(
  server: McpServer,
  logFile: string | undefined = process.env['LINKGATE_REQUEST_LOG'],
): Promise<void> {
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const handle = transport.onmessage;
  transport.onmessage = (message) => {
    const m = message as { method?: string; params?: { uri?: string } };
    if (logFile !== undefined && m.method !== undefined)
      appendFileSync(logFile, `${JSON.stringify({ method: m.method, uri: m.params?.uri ?? null })}\n`);
    handle?.(message);
  };
}
