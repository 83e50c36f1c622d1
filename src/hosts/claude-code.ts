import { join } from 'node:path';
import type { HandlerEntry, HostDescription } from './host-description.ts';
import { listOrRegex, matchesAll } from './matcher-rules.ts';
import { splitMcpToolName } from './mcp-tool-name.ts';

// Claude Code 2.1.332 (read in its bundle): a matcher of letters, digits, `_`, `-`, space, `,` and `|` is a list of
// exact names split at `|` or `,`; anything else is an unanchored JavaScript regex. Its hook settings: user, project,
// local (lowest precedence first), each able to set `disableAllHooks`.

/** Claude Code's name for a server's tool, as hooks and matchers see it: `mcp__<server>__<tool>`, other characters `_`. */
export function claudeCodeToolName(server: string, tool: string): string {
  const clean = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `mcp__${clean(server)}__${clean(tool)}`;
}

/**
 * Claude Code's config folder: `$CLAUDE_CONFIG_DIR` when set (it then holds `.claude.json`, `settings.json` and
 * `plugins/`), else ~/.claude (with ~/.claude.json beside it).
 */
export function claudeCodeConfigDir(home: string, env: Readonly<Record<string, string | undefined>> = {}): string {
  const own = env['CLAUDE_CONFIG_DIR'];
  return own !== undefined && own !== '' ? own : join(home, '.claude');
}

// ~/.claude.json, or .claude.json in `$CLAUDE_CONFIG_DIR`
function claudeStateFile(home: string, env: Readonly<Record<string, string | undefined>>): string {
  const own = env['CLAUDE_CONFIG_DIR'];
  return own !== undefined && own !== '' ? join(own, '.claude.json') : join(home, '.claude.json');
}

/** Claude Code's MCP server files: user and local scope in ~/.claude.json (local: `projects[CWD]`), project .mcp.json. */
export function claudeCodeServerFiles(
  home: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = {},
): { user: string; project: string } {
  return { user: claudeStateFile(home, env), project: join(cwd, '.mcp.json') };
}

/** Where Claude Code records installed plugins (their `installPath`, per scope). */
export function claudeCodeInstalledPlugins(
  home: string,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  return join(claudeCodeConfigDir(home, env), 'plugins', 'installed_plugins.json');
}

/** Claude Code's settings files that hold hooks, lowest precedence first: user, project, local. */
export function claudeCodeSettingsFiles(
  home: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = {},
): string[] {
  return [
    join(claudeCodeConfigDir(home, env), 'settings.json'),
    join(cwd, '.claude', 'settings.json'),
    join(cwd, '.claude', 'settings.local.json'),
  ];
}

/**
 * The file whose `disableAllHooks: true` is in force, or undefined: Claude Code merges its settings files, so the
 * value of the file of highest precedence that sets it wins (a local `false` re-enables what the user file turned off).
 */
export function claudeCodeHooksDisabledBy(
  layers: readonly { readonly file: string; readonly settings: Readonly<Record<string, unknown>> }[],
): string | undefined {
  let by: string | undefined;
  for (const { file, settings } of layers) {
    const value = settings['disableAllHooks'];
    if (value === true) by = file;
    else if (value === false) by = undefined;
  }
  return by;
}

/** Claude Code's hook events a gate needs, event name → the part of a call it sees. */
export const claudeCodeEvents = { PreToolUse: 'pre', PostToolUse: 'post', PostToolUseFailure: 'failure' } as const;

const background = (h: HandlerEntry) => h['async'] === true || h['asyncRewake'] === true;

/** Claude Code's hooks: `PreToolUse`, `PostToolUse` and `PostToolUseFailure`, run through `sh -c` (or `args`). */
export const claudeCode: HostDescription = {
  name: 'claude-code',
  label: 'claude code',
  events: claudeCodeEvents,
  tools: {
    read: 'ReadMcpResourceTool',
    list: 'ListMcpResourcesTool',
    listDir: 'ReadMcpResourceDirTool',
    webFetch: 'WebFetch',
    everyMcpTool: 'mcp__.*',
    mcpTool: claudeCodeToolName,
    mcpParts: splitMcpToolName,
  },
  matcherCovers(matcher, tool) {
    if (matchesAll(matcher)) return true;
    return listOrRegex(matcher, tool, /^[a-zA-Z0-9_|, -]+$/, /[|,]/, true);
  },
  handlerNotGating(h) {
    if (background(h)) return 'runs in the background (`async`): claude code lets the call go before it answers';
    if (h['once'] === true) return 'runs once (`once`) and is then removed: later calls are not gated';
    if (h['if'] !== undefined) return 'runs only for calls its `if` rule matches';
    return undefined;
  },
  // `onFailure: "block"` counts a hook that cannot start, crashes or times out as exit 2 (ignored for async hooks)
  failMode: (h) => (h['onFailure'] === 'block' && !background(h) ? 'closed' : 'open'),
  // measured (test/real-host/claude-code-failure.test.ts): a post hook that cannot answer lets the result through
  resultPassesOnFailure: true,
  failOpenLine: 'no `"onFailure": "block"`: if the hook fails or times out, claude code lets the call through',
  setup: {
    file: "~/.claude/settings.json (or the project's .claude/settings.json)",
    // `onFailure: "block"`: without it a PreToolUse hook that cannot start, crashes, hangs past its timeout or answers
    // garbage lets the read go ahead (measured with the real Claude Code; with it, each of those refuses the read)
    handler: (command, timeoutSeconds) => ({ type: 'command', command, timeout: timeoutSeconds, onFailure: 'block' }),
    // only names: an exact list; with `mcp__.*`: a regex
    matcher: (names) => names.join('|'),
    shape: 'groups',
    // `.mcp.json` (or `claude mcp add-json`)
    serversKey: 'mcpServers',
    // measured (test/real-host/claude-code-failure.test.ts): with `onFailure: "block"` a pre hook that cannot start,
    // crashes or hangs blocks the read, but one that answers garbage (exit 0, not JSON) does not
    hooksAlone:
      'these hooks alone fail open: a post hook that cannot run lets its tool result through, and a pre hook that answers garbage lets the read go ahead, even with `onFailure: "block"`',
  },
  renderedLink: 'claude code hands its hooks a link as text (`[Resource link: NAME] URI (DESCRIPTION)`)',
  // measured (test/real-host/claude-code-tool-error.test.ts): an MCP tool answering `isError: true` gets no
  // `PostToolUse` but `PostToolUseFailure`, its `error` the result's text (links as `[Resource link: NAME] URI`), and the
  // model gets that text; the event's answer schema takes only `additionalContext` (`continue: false` beside it still
  // lets the error through)
  hookBlindPaths: [
    {
      what: 'tool results with `isError: true`',
      why: 'claude code hands them to the model through `PostToolUseFailure`, whose answer can only add context: no hook can withhold a refused link or address in them',
      measured: 'test/real-host/claude-code-tool-error.test.ts',
    },
  ],
};
