// OpenAI Agents (`@openai/agents`): its MCP servers (`MCPServerStdio`, `MCPServerStreamableHttp`) take no transport,
// so the gate cannot be slid under them. This is an MCP server object of the same interface (`MCPServer`, with the
// resource methods of `MCPServerWithResources`) over an MCP client connected through `gateTransport`: every tool
// result and every `resources/read`, the agent's and a host read tool's alike, goes through the gate. Written
// structurally, so linkgate builds and installs without the framework.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type GateTransport, gateTransport } from '../sdk/gate-transport.ts';
import type { GateTransportOptions } from '../sdk/transport-session.ts';

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
  readResource(params: { uri: string }): Promise<unknown>;
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

/** A tool call's result as the MCP client returns it. */
interface ToolResult {
  content?: unknown[];
  [key: string]: unknown;
}

/** The `MCPServer` interface of `@openai/agents` (with its resource methods), written structurally. */
export interface GatedAgentsServer {
  readonly name: string;
  cacheToolsList: boolean;
  connect(): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<unknown[]>;
  callTool(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
  ): Promise<unknown[]>;
  callToolResult(
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
  ): Promise<ToolResult>;
  invalidateToolsCache(): Promise<void>;
  listResources(params?: Record<string, unknown>): Promise<unknown>;
  listResourceTemplates(params?: Record<string, unknown>): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
}

/** Most pages of tools one `listTools` reads before it stops (a server that never ends its list). */
export const maxToolPages = 100;

/**
 * An MCP server for an OpenAI Agents agent (`new Agent({ mcpServers: [server] })`) whose every tool result and read
 * goes through `gateTransport`: refused links are never read, withheld bodies never reach the agent, one record per
 * link to `options.sink`. `close()` resolves once every record is written (the transport's `flush`).
 */
export function gatedAgentsServer(options: GatedAgentsServerOptions): GatedAgentsServer {
  const { name, client, transport, cacheToolsList = false, ...gateOptions } = options;
  const gated = gateTransport(transport, { server: name, ...gateOptions });
  let tools: unknown[] | undefined;
  let connected = false;
  const ready = () => {
    if (!connected) throw new Error(`MCP server \`${name}\` is not connected: call connect() first`);
  };
  const callToolResult = async (
    toolName: string,
    args: Record<string, unknown> | null,
    meta?: Record<string, unknown> | null,
  ): Promise<ToolResult> => {
    ready();
    const params = { name: toolName, arguments: args ?? {}, ...(meta == null ? {} : { _meta: meta }) };
    return (await client.callTool(params)) as ToolResult;
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
      const all: unknown[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < maxToolPages; page += 1) {
        const listed = await client.listTools(cursor === undefined ? {} : { cursor });
        all.push(...listed.tools);
        cursor = listed.nextCursor;
        if (cursor === undefined) break;
      }
      tools = all;
      return all;
    },
    async callTool(toolName, args, meta) {
      return (await callToolResult(toolName, args, meta)).content ?? [];
    },
    callToolResult,
    async invalidateToolsCache() {
      tools = undefined;
    },
    async listResources(params) {
      ready();
      return client.listResources(params ?? {});
    },
    async listResourceTemplates(params) {
      ready();
      return client.listResourceTemplates(params ?? {});
    },
    async readResource(uri) {
      ready();
      return client.readResource({ uri });
    },
  };
}
