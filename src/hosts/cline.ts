import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { HostDescription, McpToolParts } from './host-description.ts';

// Cline 3.x (github.com/cline/cline, read at sdk v0.0.78; the npm CLI `cline@3.0.65` runs @cline/core 0.0.86 and was
// run offline here, test/real-host/cline-hook.test.ts). Its hooks are executable files named after the event
// (`PreToolUse`, `PostToolUse`, optionally with an extension) in the folders of `resolveHooksConfigSearchPaths`
// (sdk/packages/shared/src/storage/paths.ts); there are no matchers: a file runs for every tool. The SDK runs them in
// `runBlockingHookCommands` (sdk/packages/core/src/hooks/hook-file-hooks.ts): a hook that times out (120 s), cannot
// start or answers something that is not JSON is logged and skipped, and its exit code is never read, so the call
// goes ahead. (Cline's VS Code extension before its SDK migration, 2026-06, blocked on a failing hook instead.)

/** Cline's folders of hook files, in the order it lists them: Documents, `$CLINE_DIR`, then the workspace's. */
export function clineHookFolders(
  home: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const own = env['CLINE_DIR']?.trim();
  const clineDir = own === undefined || own === '' ? join(home, '.cline') : own;
  return [
    ...new Set([
      join(home, 'Documents', 'Cline', 'Hooks'),
      join(clineDir, 'hooks'),
      join(cwd, '.clinerules', 'hooks'),
      join(cwd, '.cline', 'hooks'),
    ]),
  ];
}

/** Cline's MCP settings file: `$CLINE_MCP_SETTINGS_PATH`, else `settings/cline_mcp_settings.json` of its data folder. */
export function clineMcpSettingsFile(home: string, env: Readonly<Record<string, string | undefined>>): string {
  const explicit = env['CLINE_MCP_SETTINGS_PATH']?.trim();
  if (explicit !== undefined && explicit !== '') return explicit;
  const data = env['CLINE_DATA_DIR']?.trim();
  const own = env['CLINE_DIR']?.trim();
  const dataDir =
    data !== undefined && data !== ''
      ? data
      : join(own === undefined || own === '' ? join(home, '.cline') : own, 'data');
  return join(dataDir, 'settings', 'cline_mcp_settings.json');
}

// sdk/packages/core/src/extensions/mcp/name-transform.ts: 64 characters at most (OpenAI's function-name limit)
const maxToolName = 64;
const hashLength = 8;

/**
 * Cline's name for a server's tool, as the model and its hooks see it: `<server>__<tool>`; a name with other
 * characters than `[A-Za-z0-9_-]` or longer than 64 has them replaced by `_`, is cut to 55 and gets `_` and the first
 * 8 hex digits of the SHA-1 of the raw name (`defaultMcpToolNameTransform`).
 */
export function clineToolName(server: string, tool: string): string {
  const raw = `${server}__${tool}`;
  const clean = raw.replace(/[^a-zA-Z0-9_-]+/g, '_');
  if (clean === raw && raw.length <= maxToolName) return raw;
  const hash = createHash('sha1').update(raw).digest('hex').slice(0, hashLength);
  return `${clean.slice(0, maxToolName - 1 - hashLength) || 'mcp_tool'}_${hash}`;
}

/** The event names Cline's hooks carry in `hookName`: the SDK's (`tool_call`) and the files' own (`PreToolUse`). */
export const clineHookNames: Readonly<Record<string, 'pre' | 'post'>> = {
  // HOOK_CONFIG_FILE_EVENT_MAP (sdk/packages/core/src/hooks/hook-file-config.ts): PreToolUse → tool_call,
  // PostToolUse → tool_result; the VS Code extension's hooks-adapter.ts sends the file names themselves
  tool_call: 'pre',
  tool_result: 'post',
  PreToolUse: 'pre',
  PostToolUse: 'post',
};

/** Splits Cline's `<server>__<tool>` at the first `__` (a name Cline hashed keeps the server's part before it); null else. */
export function splitClineToolName(name: string): McpToolParts | null {
  const match = /^(.+?)__(.+)$/s.exec(name);
  return match === null ? null : { server: match[1] as string, tool: match[2] as string };
}

/**
 * The members of a Cline hook event that hold the call, by phase: the SDK's own (`tool_call {id, name, input}`,
 * `tool_result {…, output}`) and the file-style ones every version sends (`preToolUse {toolName, parameters}`,
 * `postToolUse {…, result, success}`).
 */
export const clineEventMembers = {
  pre: { own: 'tool_call', file: 'preToolUse' },
  post: { own: 'tool_result', file: 'postToolUse' },
} as const;

/** Cline's hooks: `PreToolUse`/`PostToolUse` files run for every tool; they fail open (no setting closes them). */
export const cline: HostDescription = {
  name: 'cline',
  label: 'cline',
  events: { PreToolUse: 'pre', PostToolUse: 'post' },
  // Cline 3.x has no resource read or list tool (MCP tools only); `access_mcp_resource {server_name, uri}` is the read
  // tool of its VS Code extension before the SDK migration (AccessMcpResourceHandler.ts), which the hook still reads
  // (there is no list tool in either)
  tools: {
    read: 'access_mcp_resource',
    // createWebFetchTool (sdk/packages/core/src/extensions/tools/definitions.ts)
    webFetch: 'fetch_web_content',
    everyMcpTool: '.+__.+',
    mcpTool: clineToolName,
    mcpParts: splitClineToolName,
  },
  // hook files have no matcher: each runs for every tool call
  matcherCovers: () => true,
  handlerNotGating: () => undefined,
  failMode: () => 'open',
  failOpenLine:
    'cline lets the call through when the hook cannot start, times out or answers no json, whatever its exit code (no setting closes it)',
  setup: {
    file: "an executable file per event in ~/Documents/Cline/Hooks/, ~/.cline/hooks/ or the project's .clinerules/hooks/",
    handler: (command) => ({ command }),
    matcher: () => undefined,
    shape: 'handlers',
    // cline_mcp_settings.json
    serversKey: 'mcpServers',
    hooksAlone: 'these hooks alone fail open: cline lets a call through when its hook cannot start, crashes or hangs',
    print: (command) => clineHookFiles(command),
  },
  // Cline hands its hooks the server's own items (links with their declared size and type)
  renderedLink: null,
};

/**
 * The hook files that run `command` (a shell command line) for Cline, by event: each goes, executable, into one of its
 * hook folders (`~/Documents/Cline/Hooks/`, `~/.cline/hooks/`, or the project's `.clinerules/hooks/`). Cline runs a
 * file through the interpreter its `#!` line names (`inferHookCommand`, hook-file-hooks.ts).
 */
export function clineHookFiles(command: string): { hookFiles: Record<string, string> } {
  const script = `#!/bin/sh\nexec ${command}\n`;
  return { hookFiles: Object.fromEntries(Object.keys(cline.events).map((event) => [event, script])) };
}
