import { join } from 'node:path';
import { claudeCode } from './claude-code.ts';
import type { HostDescription } from './host-description.ts';
import { matchesAll, regexSearch } from './matcher-rules.ts';

// Cursor (from its documentation: its CLI is not on the npm registry, so this is not checked against the binary):
// `beforeMCPExecution`/`afterMCPExecution` of hooks.json run for every MCP call; `failClosed: true` makes a hook
// that fails refuse the call, else it goes ahead.

/** Cursor's folders holding `mcp.json` and `hooks.json`: ~/.cursor (user), then the project's .cursor. */
export function cursorFolders(home: string, cwd: string): { folder: string; scope: 'user' | 'project' }[] {
  const user = join(home, '.cursor');
  const project = join(cwd, '.cursor');
  return project === user
    ? [{ folder: user, scope: 'user' }]
    : [
        { folder: user, scope: 'user' },
        { folder: project, scope: 'project' },
      ];
}

/** Cursor's hooks: its MCP events, `{command, timeout, failClosed, matcher}` entries. */
export const cursor: HostDescription = {
  name: 'cursor',
  label: 'cursor',
  events: { beforeMCPExecution: 'pre', afterMCPExecution: 'post' },
  // its generic tool events, which carry Claude Code's tool names and `MCP:<server>:<tool>` for MCP tools
  otherEvents: { preToolUse: 'pre', postToolUse: 'post', postToolUseFailure: 'failure' },
  // Cursor's MCP events carry the server's own tool name; its generic events Claude Code's names (the hook reads them
  // as Claude-shaped), its read tool among them
  tools: {
    ...(claudeCode.tools.read === undefined ? {} : { read: claudeCode.tools.read }),
    ...(claudeCode.tools.list === undefined ? {} : { list: claudeCode.tools.list }),
    everyMcpTool: 'MCP:.*',
    mcpTool: (_server, tool) => tool,
    mcpParts(name) {
      const mcp = /^MCP:([^:]+):(.+)$/s.exec(name);
      return mcp === null ? null : { server: mcp[1] as string, tool: mcp[2] as string };
    },
  },
  matcherCovers: (matcher, tool) => matchesAll(matcher) || regexSearch(matcher, tool) === true,
  handlerNotGating: () => undefined,
  failMode: (h) => (h['failClosed'] === true ? 'closed' : 'open'),
  failOpenLine: 'no `"failClosed": true`: if the hook fails, cursor lets the call through',
  setup: {
    file: "~/.cursor/hooks.json (or the project's .cursor/hooks.json)",
    // `failClosed` so a failing hook blocks
    handler: (command, timeoutSeconds) => ({ command, timeout: timeoutSeconds, failClosed: true }),
    matcher: () => undefined,
    shape: 'handlers',
    extra: { version: 1 },
    // `.cursor/mcp.json`
    serversKey: 'mcpServers',
    hooksAlone: 'a hook that cannot run may let its call through',
  },
  renderedLink: null,
};
