import type { HostDescription } from '../hosts/host-description.ts';

// tool names a server's unknown tools could have, for a matcher judged without the server's own tool list
const sampleTools = ['a', 'Z9', 'search', 'get_resource_links', 'read-file', 'list.items'];

/**
 * The tool names `host`'s hooks see for server `server`: its read tool (`pre`: before a read; `post`: the body read),
 * and for `post` also each of its tools as the host names them (`mcp__<server>__<tool>`). `tools` are the server's
 * own tool names; undefined judges a sample of names, so only a matcher that covers the server's whole namespace counts.
 */
export function coveredTools(
  host: HostDescription,
  phase: 'pre' | 'post',
  server: string,
  tools: readonly string[] | undefined,
): string[] {
  // a host with no read tool (Copilot CLI) has no read to see before it happens
  const read = host.tools.read === undefined ? [] : [host.tools.read];
  if (phase === 'pre') return read;
  return [...read, ...(tools ?? sampleTools).map((t) => host.tools.mcpTool(server, t))];
}
