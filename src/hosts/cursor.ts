import { join } from 'node:path';
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
  // Cursor's MCP events carry the server's own tool name; reads go through the same events
  tools: { read: 'read', list: 'list', mcpTool: (_server, tool) => tool },
  matcherCovers: (matcher, tool) => matchesAll(matcher) || regexSearch(matcher, tool) === true,
  handlerNotGating: () => undefined,
  failMode: (h) => (h['failClosed'] === true ? 'closed' : 'open'),
  failOpenLine: 'no `"failClosed": true`: if the hook fails, cursor lets the call through',
};
