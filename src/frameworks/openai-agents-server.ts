import type { McpTransport as Transport } from '../sdk/mcp-transport.ts';
// OpenAI Agents (`@openai/agents`): its MCP servers (`MCPServerStdio`, `MCPServerStreamableHttp`) take no transport,
// so the gate cannot be slid under them. This is an MCP server object of the same interface (`MCPServer`, with the
// resource methods of `MCPServerWithResources`) over an MCP client connected through `gateTransport`: every tool
// result and every `resources/read`, the agent's and a host read tool's alike, goes through the gate. Written
// structurally, so linkgate builds and installs without the framework.
import type { GateTransport } from '../sdk/gate-transport.ts';
import type { GateTransportOptions } from '../sdk/transport-session.ts';
import { gatedLinks, type ReadLinkParameters, readLinkParameters } from './gated-links.ts';

/** The MCP client calls the server object makes: what `Client` of `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/client` 2.x both have. */
export interface AgentsMcpClient {
  connect(transport: GateTransport): Promise<void>;
  close(): Promise<void>;
  listTools(params?: { cursor?: string }): Promise<{ tools: unknown[]; nextCursor?: string | undefined }>;
  callTool(params: {
    name: string;
    arguments: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }): Promise<unknown>;
  listResources(params?: Record<string, unknown>): Promise<unknown>;
  listResourceTemplates(params?: Record<string, unknown>): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents?: unknown }>;
}

/** What the server object needs: its name, an unconnected MCP client, the server's transport, and the gate's options. */
export interface GatedAgentsServerOptions extends GateTransportOptions {
  /** the server's name as the agent shows it (and the record's `server`, unless `server` says otherwise) */
  name: string;
  /** an MCP client not yet connected (`new Client({ name, version })`); connected through the gated transport */
  client: AgentsMcpClient;
  /** the server's transport, not yet started (stdio, Streamable HTTP, …); wrapped in `gateTransport` here */
  transport: Transport;
  /** keep the tool list between runs until `invalidateToolsCache` (the framework's option of the same name) */
  cacheToolsList?: boolean;
}

/** One tool as the server listed it, typed as the framework's `MCPTool` (the framework fills a missing `properties` or `required` itself). */
export interface AgentsMcpTool {
  name: string;
  description?: string | undefined;
  inputSchema: {
    type: 'object';
    properties: Record<string, unknown>;
    required: string[];
    additionalProperties: boolean;
  };
}

/** One content item of a tool result (`text`, `image`, `resource_link`, …, or the gate's notice in place of a link). */
export interface AgentsToolContent {
  type: string;
  [key: string]: unknown;
}

/** A tool call's result as the MCP client returns it: the framework's `CallToolResult`. */
export interface AgentsToolResult {
  content: AgentsToolContent[];
  _meta?: Record<string, unknown>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A tool result's content with its `_meta`, `structuredContent` and `isError` on the array: the framework's `CallToolResultContent`. */
export type AgentsToolResultContent = AgentsToolContent[] &
  Pick<AgentsToolResult, '_meta' | 'structuredContent' | 'isError'>;

/** One item of a read's `contents` (text or base64 `blob`): the framework's `MCPResourceContent`. */
export type AgentsResourceContent =
  | { uri: string; mimeType?: string; text: string; [key: string]: unknown }
  | { uri: string; mimeType?: string; blob: string; [key: string]: unknown };

/** A read's result: the framework's `MCPReadResourceResult`. */
export interface AgentsReadResult {
  contents: AgentsResourceContent[];
  [key: string]: unknown;
}

/** A page of resources: the framework's `MCPListResourcesResult`. */
export interface AgentsResourceList {
  resources: { uri: string; name?: string; mimeType?: string; [key: string]: unknown }[];
  nextCursor?: string;
  [key: string]: unknown;
}

/** A page of resource templates: the framework's `MCPListResourceTemplatesResult`. */
export interface AgentsResourceTemplateList {
  resourceTemplates: { uriTemplate: string; name?: string; mimeType?: string; [key: string]: unknown }[];
  nextCursor?: string;
  [key: string]: unknown;
}

/** The `MCPServerWithResources` interface of `@openai/agents` (its `MCPServer` with the resource methods), written structurally. */
export interface GatedAgentsServer {
  readonly name: string;
  cacheToolsList: boolean;
  connect(): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<AgentsMcpTool[]>;
  callTool(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
  ): Promise<AgentsToolResultContent>;
  callToolResult(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
  ): Promise<AgentsToolResult>;
  invalidateToolsCache(): Promise<void>;
  listResources(params?: { cursor?: string; [key: string]: unknown }): Promise<AgentsResourceList>;
  listResourceTemplates(params?: { cursor?: string; [key: string]: unknown }): Promise<AgentsResourceTemplateList>;
  readResource(uri: string): Promise<AgentsReadResult>;
  /**
   * The body of a link this server's tool results returned, read through the gate, as text for the model (the
   * `execute` of a host read tool, `readLinkParameters` its parameters). A uri no tool result of this server returned
   * is refused without asking the server; a refused or withheld read answers the gate's reason, never a thrown error
   * (the framework hides a thrown error's text from the model).
   */
  readLink(uri: string): Promise<string>;
}

export { type ReadLinkParameters, readLinkParameters };

/** Most pages of tools one `listTools` reads before it stops (a server that never ends its list). */
export const maxToolPages = 100;

/**
 * An MCP server for an OpenAI Agents agent (`new Agent({ mcpServers: [server] })`) whose every tool result and read
 * goes through `gateTransport`: refused links are never read, withheld bodies never reach the agent, one record per
 * link to `options.sink`. `close()` resolves once every record is written (the transport's `flush`).
 */
export function gatedAgentsServer(options: GatedAgentsServerOptions): GatedAgentsServer {
  const { name, client, transport, cacheToolsList = false, ...gateOptions } = options;
  // the links this server's tool results passed on, and the read tool's reads of them (a refused link reached the agent
  // as a notice, so it is never one of them)
  const links = gatedLinks(gateOptions);
  const gated = links.transport(gateOptions.server ?? name, transport);
  let tools: AgentsMcpTool[] | undefined;
  let connected = false;
  const ready = () => {
    if (!connected) throw new Error(`MCP server \`${name}\` is not connected: call connect() first`);
  };
  const callToolResult = async (
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
  ): Promise<AgentsToolResult> => {
    ready();
    const params = { name: toolName, arguments: args ?? {}, ...(meta == null ? {} : { _meta: meta }) };
    const result = (await client.callTool(params)) as Partial<AgentsToolResult>;
    return { ...result, content: result.content ?? [] };
  };
  return {
    name,
    cacheToolsList,
    async connect() {
      await client.connect(gated);
      connected = true;
    },
    async close() {
      connected = false;
      tools = undefined;
      await client.close();
      // the client closes the transport; a read still in flight then has its record, and flush writes what is left
      await gated.flush();
    },
    async listTools() {
      ready();
      if (cacheToolsList && tools !== undefined) return tools;
      const all: AgentsMcpTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < maxToolPages; page += 1) {
        const listed = await client.listTools(cursor === undefined ? {} : { cursor });
        all.push(...(listed.tools as AgentsMcpTool[]));
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      tools = all;
      return all;
    },
    async callTool(toolName, args, meta) {
      const { content, ...metadata } = await callToolResult(toolName, args, meta);
      return withMetadata(content, metadata);
    },
    callToolResult,
    async invalidateToolsCache() {
      tools = undefined;
    },
    async listResources(params) {
      ready();
      return (await client.listResources(params ?? {})) as AgentsResourceList;
    },
    async listResourceTemplates(params) {
      ready();
      return (await client.listResourceTemplates(params ?? {})) as AgentsResourceTemplateList;
    },
    async readResource(uri) {
      ready();
      return (await client.readResource({ uri })) as AgentsReadResult;
    },
    async readLink(uri) {
      ready();
      return links.read(uri);
    },
  };
}

// the framework's `attachCallToolResultMetadata`: the result's `_meta`, `structuredContent` and `isError` ride on the
// content array as non-enumerable members, so the agent's tool output and a guardrail see them as with its own servers
function withMetadata(
  content: AgentsToolContent[],
  metadata: Pick<AgentsToolResult, '_meta' | 'structuredContent' | 'isError'>,
): AgentsToolResultContent {
  for (const key of ['_meta', 'structuredContent', 'isError'] as const)
    if (metadata[key] !== undefined)
      Object.defineProperty(content, key, { value: metadata[key], enumerable: false, configurable: true });
  return content;
}
