import { join } from 'node:path';
import type { HostDescription, McpToolParts } from './host-description.ts';

// Windsurf's Cascade hooks (docs.windsurf.com/windsurf/cascade/hooks, beta; no binary on the npm registry, so written
// from the docs alone and never run here): `{hooks: {EVENT: [{command, show_output, working_directory}]}}` in
// hooks.json at three levels, merged and all run (system → user → workspace). Each hook gets one JSON object on stdin,
// `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info}`; for `pre_mcp_tool_use` `tool_info` is
// `{mcp_server_name, mcp_tool_name, mcp_tool_arguments}`. Exit code 2 blocks a pre hook's action and "the Cascade agent
// will see the error message from stderr"; any other exit code lets it proceed. `post_mcp_tool_use` adds `mcp_result`
// but cannot block or change anything: the action has already occurred. There are no matchers (a hook runs for every
// call of its event) and no timeout option. Cascade uses a server's tools only (docs.windsurf.com/windsurf/cascade/mcp):
// no resource read, no resource list, and its own web reading has no hook event.

/** Windsurf's hooks.json files, in the order it runs them: system, user, then the workspace's. */
export function windsurfHooksFiles(
  home: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  // the system folder is /etc/windsurf on Linux; `$LINKGATE_WINDSURF_SYSTEM_DIR` moves it (doctor's tests)
  const system = env['LINKGATE_WINDSURF_SYSTEM_DIR']?.trim() || '/etc/windsurf';
  return [
    join(system, 'hooks.json'),
    join(home, '.codeium', 'windsurf', 'hooks.json'),
    join(cwd, '.windsurf', 'hooks.json'),
  ];
}

/** Windsurf's MCP servers file (`mcpServers`, the Claude Desktop shape). */
export function windsurfMcpConfigFile(home: string): string {
  return join(home, '.codeium', 'windsurf', 'mcp_config.json');
}

/** The members of a `pre_mcp_tool_use` event's `tool_info` that name the call. */
export const windsurfToolInfo = {
  server: 'mcp_server_name',
  tool: 'mcp_tool_name',
  args: 'mcp_tool_arguments',
} as const;

/**
 * The top-level argument names of an MCP tool call whose values are urls the tool would fetch or read (`fetch {url}`,
 * `browser_navigate {url}`, `read_resource {uri}`): a string or an array of strings. Cascade has no read tool of its
 * own, so a server's tool given a url is how a link it was handed gets read.
 */
export const fetchedUrlArguments: readonly string[] = ['url', 'uri', 'urls', 'uris'];

// the hooks name the server and the tool apart; linkgate writes the pair `server/tool` (a label, no name the host builds)
const splitLabel = (name: string): McpToolParts | null => {
  const at = name.indexOf('/');
  return at <= 0 || at === name.length - 1 ? null : { server: name.slice(0, at), tool: name.slice(at + 1) };
};

/** Windsurf's Cascade hooks: `pre_mcp_tool_use` only (a post hook cannot change a result); any exit but 2 proceeds. */
export const windsurf: HostDescription = {
  name: 'windsurf',
  label: 'windsurf',
  events: { pre_mcp_tool_use: 'pre' },
  tools: {
    everyMcpTool: '.+/.+',
    mcpTool: (server, tool) => `${server}/${tool}`,
    mcpParts: splitLabel,
  },
  // hooks.json has no matchers: each hook runs for every call of its event
  matcherCovers: () => true,
  handlerNotGating: () => undefined,
  failMode: () => 'open',
  failOpenLine:
    'windsurf lets the call through when the hook exits with any code but 2 (no setting closes it; a hook that hangs is not documented)',
  setup: {
    file: "~/.codeium/windsurf/hooks.json, the project's .windsurf/hooks.json or /etc/windsurf/hooks.json",
    // no timeout option; `show_output` shows the user the reason a call was blocked
    handler: (command) => ({ command, show_output: true }),
    matcher: () => undefined,
    shape: 'handlers',
    // ~/.codeium/windsurf/mcp_config.json
    serversKey: 'mcpServers',
    hooksAlone:
      'this hook alone judges only the urls an mcp tool call is given and fails open: windsurf cannot withhold a tool result from a hook, and lets a call through when its hook fails',
  },
  // the hook never sees a tool result
  renderedLink: null,
};
