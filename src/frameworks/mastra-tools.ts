// Mastra in process: `@mastra/mcp`'s MCPClient takes server definitions and makes its own transports, so the gate
// cannot be slid under it (`linkgate proxy` as the server's command is the out-of-process way). A Mastra agent takes
// plain tool objects (`id`, `description`, a JSON schema as `inputSchema`, `execute`) as `createTool` makes them, so
// these are the server's tools over an MCP SDK client connected through `gatedLinks(…).transport(…)`, named as
// MCPClient names them (`server_tool`), and the read tool over the same connections. Written structurally, so linkgate
// builds and installs without the framework.
import { type GatedLinks, readLinkDescription, readLinkParameters } from './gated-links.ts';

export { type GatedLinks, type GatedLinksOptions, gatedLinks } from './gated-links.ts';

/** The MCP client calls the tools make: what `Client` of `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/client` 2.x both have. */
export interface MastraMcpClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: unknown[]; nextCursor?: string | undefined }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/** A Mastra tool as `createTool` makes it (`ToolAction`), written structurally; an agent takes it in `tools`. */
export interface MastraTool {
  id: string;
  description: string;
  /** the tool's JSON schema (Mastra takes JSON Schema 7 as well as zod) */
  inputSchema: MastraJsonSchema;
  execute: (input: Record<string, unknown>) => Promise<unknown>;
}

/** A JSON schema of an object, as an MCP tool lists its `inputSchema`. */
export interface MastraJsonSchema {
  type: 'object';
  properties?: { [name: string]: object };
  required?: string[];
  [key: string]: unknown;
}

/** Most pages of tools `gatedMastraTools` reads before it stops (a server that never ends its list). */
export const maxMastraToolPages = 100;

/**
 * The tools of MCP server `server` for a Mastra agent (`new Agent({ tools: { ...(await gatedMastraTools('docs', client)) } })`),
 * each calling the tool over `client`, which must be connected through `gatedLinks(…).transport(server, …)` (or
 * `gateTransport`): every tool result passes the gate, refused links reach the agent as notices. Keyed and named
 * `server_tool`, as `@mastra/mcp`'s MCPClient names them.
 */
export async function gatedMastraTools(server: string, client: MastraMcpClient): Promise<Record<string, MastraTool>> {
  const tools: Record<string, MastraTool> = {};
  let cursor: string | undefined;
  for (let page = 0; page < maxMastraToolPages; page += 1) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const listedTool of listed.tools) {
      const { name, description, inputSchema } = listedTool as {
        name?: unknown;
        description?: unknown;
        inputSchema?: MastraJsonSchema;
      };
      // a tool with no name cannot be called (MCPClient leaves it out too)
      if (typeof name !== 'string' || name === '') continue;
      const id = `${server}_${name}`;
      tools[id] = {
        id,
        description: typeof description === 'string' ? description : '',
        inputSchema: inputSchema ?? { type: 'object', properties: {} },
        execute: (input) => client.callTool({ name, arguments: input ?? {} }),
      };
    }
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/**
 * The model's way to read a link it was given, for a Mastra agent (`tools: { read_link: mastraReadLinkTool(links) }`):
 * reads only a uri a tool result of `links`' connections passed on, through the gate, answering the body or the notice.
 */
export function mastraReadLinkTool(links: GatedLinks, id = 'read_link'): MastraTool {
  return {
    id,
    description: readLinkDescription,
    inputSchema: { ...readLinkParameters },
    execute: async (input) => links.read(typeof input['uri'] === 'string' ? input['uri'] : ''),
  };
}
