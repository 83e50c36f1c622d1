/** Tools whose calls the gate must see before they run (Claude Code matcher syntax). */
export const preToolMatcher = 'ReadMcpResourceTool|WebFetch';
/** Tools whose results the gate must see (links returned, resources listed, bodies read). */
export const postToolMatcher = 'ReadMcpResourceTool|ListMcpResourcesTool|ReadMcpResourceDirTool|mcp__.*';

/** Seconds a host waits for one hook event before it gives up (Claude Code then lets the call through). */
export const hookTimeoutSeconds = 30;

/** The command the packaged Claude Code plugin (`hooks/hooks.json`) runs, from the plugin's own folder. */
export const pluginHookCommand =
  'node "${CLAUDE_PLUGIN_ROOT}/dist/bin/linkgate.js" hook claude-code --policy "${CLAUDE_PLUGIN_ROOT}/policies/default.yaml"';

/** The Claude Code `hooks` settings block that runs `command` on every event the gate needs. */
export function claudeCodeSettings(command: string): { hooks: Record<string, unknown[]> } {
  const handler = [{ type: 'command', command, timeout: hookTimeoutSeconds }];
  return {
    hooks: {
      PreToolUse: [{ matcher: preToolMatcher, hooks: handler }],
      PostToolUse: [{ matcher: postToolMatcher, hooks: handler }],
      PostToolUseFailure: [{ matcher: 'ReadMcpResourceTool', hooks: handler }],
    },
  };
}

/** Quotes one argument for a POSIX shell command line (hosts run `command` through `sh -c`). */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
