import { join } from 'node:path';
import type { HostDescription } from './host-description.ts';
import { listOrRegex, matchesAll } from './matcher-rules.ts';
import { splitMcpToolName } from './mcp-tool-name.ts';

// Codex CLI 0.171 (codex-rs `hooks/src/events/common.rs`, `engine/dispatcher.rs`; events observed with the binary):
// `PreToolUse`/`PostToolUse` only (a failed call gets no post event); a matcher of ASCII letters, digits, `_` and `|`
// is a list of exact names, anything else a regex searched in the name; `async` handlers are spawned and not awaited;
// a hook that fails (cannot start, exits other than 0 or 2, times out) is marked failed and the call goes ahead.

/** Codex's home folder: `$CODEX_HOME`, else ~/.codex (config.toml, hooks.json, the recorded hook trust). */
export function codexHome(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const own = env['CODEX_HOME'];
  return own === undefined || own === '' ? join(home, '.codex') : own;
}

/** Codex's name for a server's tool as its hooks see it: `mcp__<server>__<tool>`, other characters `_` (snake case). */
export function codexToolName(server: string, tool: string): string {
  const clean = (name: string) => name.replace(/[^A-Za-z0-9_]/g, '_');
  return `mcp__${clean(server)}__${clean(tool)}`;
}

// what codex-rs (`config/src/mcp_types.rs`, `TryFrom<RawMcpServerConfig>`) refuses beside each transport's own field:
// an entry with both is a configuration error, and Codex does not load the file
const notBesideCommand = [
  'url',
  'bearer_token_env_var',
  'bearer_token',
  'http_headers',
  'env_http_headers',
  'oauth',
  'oauth_resource',
];
const notBesideUrl = ['args', 'env', 'env_vars', 'cwd', 'bearer_token'];

/**
 * Why Codex refuses an `[mcp_servers.NAME]` entry as codex-rs reads it (a `command` beside a `url` or another http
 * field, an http field beside a `url` entry's stdio fields, neither), undefined when it takes it.
 */
export function codexServerEntryProblem(entry: Readonly<Record<string, unknown>>): string | undefined {
  const set = (key: string) => entry[key] !== undefined;
  if (set('command')) {
    const other = notBesideCommand.find(set);
    return other === undefined ? undefined : `\`${other}\` is not supported beside \`command\` (stdio)`;
  }
  if (set('url')) {
    const other = notBesideUrl.find(set);
    return other === undefined ? undefined : `\`${other}\` is not supported beside \`url\` (streamable http)`;
  }
  return 'neither `command` nor `url`: invalid transport';
}

/** Codex CLI's hooks (hooks.json and `[hooks]` of config.toml, trusted in `/hooks`: codex-hook-trust.ts). */
export const codex: HostDescription = {
  name: 'codex',
  label: 'codex',
  events: { PreToolUse: 'pre', PostToolUse: 'post' },
  // its read tool is `read_mcp_resource {server, uri}`, its list tool `list_mcp_resources {server?}` (observed)
  tools: {
    read: 'read_mcp_resource',
    list: 'list_mcp_resources',
    everyMcpTool: 'mcp__.+',
    mcpTool: codexToolName,
    mcpParts: splitMcpToolName,
  },
  matcherCovers(matcher, tool) {
    if (matchesAll(matcher)) return true;
    return listOrRegex(matcher, tool, /^[A-Za-z0-9_|]+$/, '|');
  },
  handlerNotGating: (h) =>
    h['async'] === true ? 'runs in the background (`async`): codex lets the call go before it answers' : undefined,
  failMode: () => 'open',
  failOpenLine: 'codex lets the call through when the hook cannot start, fails or times out (no setting closes it)',
  setup: {
    file: '$CODEX_HOME/hooks.json (default ~/.codex/hooks.json)',
    handler: (command, timeoutSeconds) => ({ type: 'command', command, timeout: timeoutSeconds }),
    // a regex searched in the name: anchored, so no other tool's name holding these matches
    matcher: (names) => (names.length === 1 ? `^${names[0] ?? ''}$` : `^(${names.join('|')})$`),
    shape: 'groups',
    // config.toml `[mcp_servers.NAME]`
    serversKey: 'mcp_servers',
    hooksAlone: 'these hooks alone fail open: codex lets a call through when its hook cannot start, crashes or hangs',
  },
  renderedLink: null,
  // no `hookBlindPaths`: codex-rs runs no post event for a failed call, but what it does with an MCP tool's
  // `isError: true` result has not been measured on the binary (claude code's is: claude-code.ts)
};
