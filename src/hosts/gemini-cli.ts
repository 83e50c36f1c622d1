import type { HostDescription } from './host-description.ts';
import { regexSearch } from './matcher-rules.ts';
import { splitMcpToolName } from './mcp-tool-name.ts';

// Gemini CLI 0.61 (read in its bundle: `HookPlanner.matchesToolName`, `HookRegistry`, the settings schema): a matcher
// is trimmed; `""` and `*` match all; otherwise an unanchored regex, and one that does not compile an exact name. A
// hook that exits other than 0 or 2 (or cannot start, or times out) is a warning and the call goes ahead.
// `hooksConfig.enabled: false` turns every hook off (the last layer that sets it wins); `hooksConfig.disabled` lists
// hook names (a handler's `name`, else its `command`), merged across layers as a union.

const maxNameLength = 63;

/** Gemini CLI's name for a server's tool (`generateValidName`): `mcp_<server>_<tool>`, other characters `_`. */
export function geminiCliToolName(server: string, tool: string): string {
  const joined = `${server}_${tool}`;
  let name = (joined.startsWith('mcp_') ? joined : `mcp_${joined}`).replace(/[^a-zA-Z0-9_\-.:]/g, '_');
  if (/^[^a-zA-Z_]/.test(name)) name = `_${name}`;
  if (name.length > maxNameLength) name = `${name.slice(0, 30)}...${name.slice(-30)}`;
  return name;
}

/** The name Gemini CLI knows a command hook by in `hooksConfig.disabled`: its `name`, else its `command`. */
export function geminiCliHookName(handler: Readonly<Record<string, unknown>>): string | undefined {
  const name = handler['name'];
  if (typeof name === 'string' && name !== '') return name;
  return typeof handler['command'] === 'string' ? handler['command'] : undefined;
}

/** One Gemini CLI settings file, with its `hooksConfig` block. */
export interface GeminiSettingsLayer {
  readonly file: string;
  readonly settings: Readonly<Record<string, unknown>>;
}

/**
 * Why Gemini CLI will not run `handler`, from its settings layers (lowest precedence first): hooks switched off by
 * `hooksConfig.enabled: false`, or the handler named in `hooksConfig.disabled`; undefined when it runs.
 */
export function geminiCliHookSwitchedOff(
  layers: readonly GeminiSettingsLayer[],
  handler: Readonly<Record<string, unknown>>,
): string | undefined {
  let enabled: { value: boolean; file: string } | undefined;
  const disabledIn: string[] = [];
  const name = geminiCliHookName(handler);
  for (const { file, settings } of layers) {
    const config = settings['hooksConfig'];
    if (typeof config !== 'object' || config === null || Array.isArray(config)) continue;
    const block = config as Record<string, unknown>;
    if (typeof block['enabled'] === 'boolean') enabled = { value: block['enabled'], file };
    const list = block['disabled'];
    if (Array.isArray(list) && name !== undefined && list.includes(name)) disabledIn.push(file);
  }
  if (enabled?.value === false)
    return `hooks are turned off in gemini cli (\`hooksConfig.enabled: false\` in \`${enabled.file}\`)`;
  if (disabledIn.length > 0)
    return `turned off in gemini cli: \`hooksConfig.disabled\` in \`${disabledIn[0]}\` names this hook`;
  return undefined;
}

/** Gemini CLI's hooks: `BeforeTool`/`AfterTool` of its settings.json files (timeouts in milliseconds). */
export const geminiCli: HostDescription = {
  name: 'gemini-cli',
  label: 'gemini cli',
  events: { BeforeTool: 'pre', AfterTool: 'post' },
  tools: {
    read: 'read_mcp_resource',
    list: 'list_mcp_resources',
    webFetch: 'web_fetch',
    everyMcpTool: 'mcp_.*',
    mcpTool: geminiCliToolName,
    // `mcp_<server>_<tool>` cannot be split (both may hold `_`): its events name both in `mcp_context`; a name in the
    // `mcp__<server>__<tool>` form its hook reference gives is split
    mcpParts: splitMcpToolName,
  },
  matcherCovers(matcher, tool) {
    const m = matcher?.trim();
    if (m === undefined || m === '' || m === '*') return true;
    return regexSearch(m, tool) ?? m === tool;
  },
  handlerNotGating: () => undefined,
  failMode: () => 'open',
  failOpenLine: 'gemini cli lets the call through when the hook cannot start, fails or times out',
  setup: {
    file: "~/.gemini/settings.json (or the project's .gemini/settings.json)",
    // its timeouts are milliseconds
    handler: (command, timeoutSeconds) => ({ type: 'command', command, timeout: timeoutSeconds * 1000 }),
    matcher: (names) => names.join('|'),
    shape: 'groups',
    // the same settings.json as its hooks
    serversKey: 'mcpServers',
    hooksAlone:
      'these hooks alone fail open: gemini-cli lets a call through when its hook cannot start, crashes or hangs',
  },
  renderedLink: 'gemini cli hands its hooks a link as text (`Resource Link: NAME at URI`)',
  // no `hookBlindPaths`: what it does with an MCP tool's `isError: true` result has not been measured on the binary
};
