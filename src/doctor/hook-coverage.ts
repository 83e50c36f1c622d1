import type { DoctorHost } from './doctor-report.ts';

/** A host's name for its resource-read tool, and how it names a server's tool (`mcp__srv__tool`). */
const toolNames: Readonly<Record<DoctorHost, { read: string; tool: (server: string) => string }>> = {
  'claude-code': { read: 'ReadMcpResourceTool', tool: (s) => `mcp__${s}__tool` },
  codex: { read: 'read_mcp_resource', tool: (s) => `mcp__${s}__tool` },
  'gemini-cli': { read: 'read_mcp_resource', tool: (s) => `mcp_${s}_tool` },
  // Cursor's MCP hooks run for every MCP call (no tool matcher)
  cursor: { read: 'read', tool: (s) => s },
};

/**
 * True when a handler with `matcher` runs for tool `tool`: no matcher, `""` or `*` runs for all; a list of names
 * (`A|B`) matches exactly; anything else is a regular expression searched in the name, as the hosts do.
 */
export function matcherCovers(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (/^[A-Za-z0-9_|-]+$/.test(matcher)) return matcher.split('|').includes(tool);
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    // a matcher the host cannot compile runs for nothing
    return false;
  }
}

/** The tool name a host's hooks see for the server's resource reads (`pre`) and for its tools (`post`). */
export function coveredTool(host: DoctorHost, phase: 'pre' | 'post', server: string): string {
  const names = toolNames[host];
  // hosts turn characters a tool name cannot hold into `_`
  return phase === 'pre' ? names.read : names.tool(server.replace(/[^A-Za-z0-9_-]/g, '_'));
}
