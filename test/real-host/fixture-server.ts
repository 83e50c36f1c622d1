// The hostile fixture MCP server of the real-host suites (stdio; run with tsx). Tool `links` returns the
// resource_links of fixture-resources.ts, tool `embedded` returns embedded resources, `resources/list` lists them
// all and `resources/read` returns each body. Every request it receives is appended as one JSON line
// `{method, uri}` to the file named by LINKGATE_REQUEST_LOG.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListResourcesRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  fixtureDescribedLinks,
  fixtureEmbedded,
  fixtureLinks,
  fixtureOverCap,
  fixtureRenderings,
  fixtureResources,
  overCapText,
  resourceContents,
} from './fixture-resources.ts';
import { serveLoggingRequests } from './logged-stdio-server.ts';

const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { resources: {}, tools: {} } });
server.registerTool('links', { description: 'returns links to documents and images' }, async () => ({
  content: [
    { type: 'text', text: `${fixtureLinks.length} links follow` },
    ...fixtureLinks.map((r) => ({ type: 'resource_link' as const, uri: r.uri, name: r.name, mimeType: r.mimeType })),
  ],
}));
server.registerTool('embedded', { description: 'returns documents inline' }, async () => ({
  content: fixtureEmbedded.map((r) => ({ type: 'resource' as const, resource: resourceContents(r) })),
}));
server.registerTool('described', { description: 'returns links with descriptions and titles' }, async () => ({
  content: [
    { type: 'text', text: `${fixtureDescribedLinks.length} described links follow` },
    ...fixtureDescribedLinks.map((r) => ({
      type: 'resource_link' as const,
      uri: r.uri,
      name: r.name,
      mimeType: r.mimeType,
      ...(r.title === undefined ? {} : { title: r.title }),
      ...(r.description === undefined ? {} : { description: r.description }),
    })),
  ],
}));
server.registerTool('renderings', { description: 'returns documents inline, of every kind' }, async () => ({
  content: fixtureRenderings.map((r) =>
    r.item === 'audio'
      ? { type: 'audio' as const, data: r.bytes?.toString('base64') ?? '', mimeType: r.mimeType }
      : { type: 'resource' as const, resource: resourceContents(r) },
  ),
}));
// every resource the server reads, listed or not (the described links and embedded renderings are read, not listed)
const readable = new Map([
  ...fixtureResources,
  ...[...fixtureDescribedLinks, ...fixtureRenderings].map((r) => [r.uri, r] as const),
]);
server.server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [...fixtureResources.values()].map((r) => ({ uri: r.uri, name: r.name, mimeType: r.mimeType })),
}));
server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
  const { uri } = request.params;
  if (uri === fixtureOverCap.uri)
    return { contents: [{ uri, mimeType: fixtureOverCap.mimeType, text: overCapText() }] };
  const resource = readable.get(request.params.uri);
  // -32002: resource not found (MCP spec)
  if (resource === undefined) throw new McpError(-32002, `resource not found: ${request.params.uri}`);
  return { contents: [resourceContents(resource)] };
});

await serveLoggingRequests(server);
