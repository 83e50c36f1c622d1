import type { McpToolParts } from './host-description.ts';

/**
 * Splits `mcp__<server>__<tool>` (Claude Code's and Codex's MCP tool names) at the first `__` after the prefix; null
 * for other names.
 */
export function splitMcpToolName(name: string): McpToolParts | null {
  const match = /^mcp__(.+?)__(.+)$/s.exec(name);
  return match === null ? null : { server: match[1] as string, tool: match[2] as string };
}
