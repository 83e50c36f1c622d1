import { codexHooksConfig } from './codex-host.ts';

/** Tools whose calls the gate must see before they run (Claude Code matcher syntax). */
export const preToolMatcher = 'ReadMcpResourceTool|WebFetch';
/** Tools whose results the gate must see (links returned, resources listed, bodies read). */
export const postToolMatcher = 'ReadMcpResourceTool|ListMcpResourcesTool|ReadMcpResourceDirTool|mcp__.*';

/** Seconds a host waits for one hook event before it gives up (Claude Code then lets the call through). */
export const hookTimeoutSeconds = 30;

/** The command the packaged Claude Code plugin (`hooks/hooks.json`) runs, from the plugin's own folder. */
export const pluginHookCommand =
  'node "${CLAUDE_PLUGIN_ROOT}/dist/bin/linkgate.js" hook claude-code --policy "${CLAUDE_PLUGIN_ROOT}/policies/default.yaml"';

/**
 * The Claude Code `hooks` settings block that runs `command` on every event the gate needs, each entry with
 * `onFailure: "block"`: without it a PreToolUse hook that cannot start, crashes, hangs past its timeout or answers
 * garbage lets the read go ahead (measured with the real Claude Code; with it, each of those refuses the read).
 */
export function claudeCodeSettings(command: string): { hooks: Record<string, unknown[]> } {
  const handler = [{ type: 'command', command, timeout: hookTimeoutSeconds, onFailure: 'block' }];
  return {
    hooks: {
      PreToolUse: [{ matcher: preToolMatcher, hooks: handler }],
      PostToolUse: [{ matcher: postToolMatcher, hooks: handler }],
      PostToolUseFailure: [{ matcher: 'ReadMcpResourceTool', hooks: handler }],
    },
  };
}

/** Gemini CLI tools whose calls the gate must see before they run (`BeforeTool` matcher, a regular expression). */
export const geminiBeforeMatcher = 'read_mcp_resource|web_fetch';
/** Gemini CLI tools whose results the gate must see (`AfterTool` matcher): reads, lists and every MCP tool `mcp_<server>_<tool>`. */
export const geminiAfterMatcher = 'read_mcp_resource|list_mcp_resources|mcp_.*';

/** Gemini CLI `settings.json` hooks that run `command` (its timeouts are milliseconds). */
export function geminiCliSettings(command: string): { hooks: Record<string, unknown[]> } {
  const handler = [{ type: 'command', command, timeout: hookTimeoutSeconds * 1000 }];
  return {
    hooks: {
      BeforeTool: [{ matcher: geminiBeforeMatcher, hooks: handler }],
      AfterTool: [{ matcher: geminiAfterMatcher, hooks: handler }],
    },
  };
}

/** Cursor `hooks.json` that runs `command` on its MCP events, with `failClosed` so a failing hook blocks. */
export function cursorSettings(command: string): { version: number; hooks: Record<string, unknown[]> } {
  const handler = [{ command, timeout: hookTimeoutSeconds, failClosed: true }];
  return { version: 1, hooks: { beforeMCPExecution: handler, afterMCPExecution: handler } };
}

/** The configuration block `linkgate hook HOST --print-config` prints, for each host, around the hook command. */
export const hostSettings = {
  'claude-code': claudeCodeSettings,
  // the Codex block is the Codex mapping's own (codex-host.ts, checked against the real binary)
  codex: (command: string) => codexHooksConfig(command, hookTimeoutSeconds),
  'gemini-cli': geminiCliSettings,
  cursor: cursorSettings,
} as const satisfies Readonly<Record<string, (command: string) => unknown>>;

/** Quotes one argument for a POSIX shell command line (hosts run `command` through `sh -c`). */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
