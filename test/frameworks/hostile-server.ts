// The hostile MCP server of the framework suites (stdio; run with tsx): tool `links` returns the resource_links of
// hostile-resources.ts, `resources/read` returns every body (the refused ones too, so a read that got through would
// show). Every request it receives is appended as one JSON line `{method, uri}` to the file LINKGATE_REQUEST_LOG names.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { hostileContents, hostileLinks } from './hostile-resources.ts';
import { serveLoggingRequests } from '../real-host/logged-stdio-server.ts';

const server = new McpServer({ name: 'hostile', version: '1.0.0' }, { capabilities: { resources: {}, tools: {} } });
server.registerTool('links', { description: 'returns links to the documents of the trip' }, async () => ({
  content: [
    { type: 'text', text: `${hostileLinks.length} links follow` },
    ...hostileLinks.map((r) => ({ type: 'resource_link' as const, uri: r.uri, name: r.name, mimeType: r.mimeType })),
  ],
}));
server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const resource = hostileLinks.find((r) => r.uri === request.params.uri);
  // -32002: resource not found (MCP spec)
  if (resource === undefined) throw new McpError(-32002, `resource not found: ${request.params.uri}`);
  return { contents: [hostileContents(resource)] };
});

await serveLoggingRequests(server);
