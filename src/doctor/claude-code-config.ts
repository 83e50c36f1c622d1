import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { claudePluginHooks } from './claude-code-plugins.ts';
import { type HookHandlerEntry, hookHandlers } from './hook-groups.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

/** Where doctor looks: the user's home folder and the project folder. */
export interface ConfigPlaces {
  readonly home: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Claude Code's MCP servers and hooks: user scope (`mcpServers` of ~/.claude.json), local scope (that file's
 * `projects[CWD].mcpServers`), project scope (CWD/.mcp.json); hooks from ~/.claude/settings.json and the project's
 * .claude/settings.json and .claude/settings.local.json, and from the enabled plugins installed (`disableAllHooks`
 * turns them all off).
 */
export async function readClaudeCode(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const servers: ConfiguredServer[] = [];
  const user = join(places.home, '.claude.json');
  const state = await readConfigFile(user);
  if (state.kind === 'problem') problems.push(state.message);
  else if (state.kind === 'read') {
    servers.push(...claudeServers(state.value['mcpServers'], 'user', user));
    const projects = state.value['projects'];
    const project = isRecord(projects) ? projects[places.cwd] : undefined;
    if (isRecord(project)) servers.push(...claudeServers(project['mcpServers'], 'local', user));
  }
  const shared = join(places.cwd, '.mcp.json');
  const mcp = await readConfigFile(shared);
  if (mcp.kind === 'problem') problems.push(mcp.message);
  else if (mcp.kind === 'read') servers.push(...claudeServers(mcp.value['mcpServers'], 'project', shared));

  const hooks: ConfiguredHook[] = [];
  const enabledPlugins = new Map<string, boolean>();
  let disabledBy: string | undefined;
  const add = (file: string, handlers: readonly HookHandlerEntry[]) => {
    for (const h of handlers)
      hooks.push({
        host: 'claude-code',
        file,
        event: h.event,
        phase: h.phase,
        ...(h.matcher === undefined ? {} : { matcher: h.matcher }),
        command: h.command,
        // a handler that fails (crash, timeout) lets the call through unless it says to block
        warnings:
          h.handler['onFailure'] === 'block'
            ? []
            : ['no `"onFailure": "block"`: if the hook fails or times out, claude code lets the call through'],
      });
  };
  for (const file of [
    join(places.home, '.claude', 'settings.json'),
    join(places.cwd, '.claude', 'settings.json'),
    join(places.cwd, '.claude', 'settings.local.json'),
  ]) {
    const settings = await readConfigFile(file);
    if (settings.kind === 'problem') problems.push(settings.message);
    if (settings.kind !== 'read') continue;
    if (settings.value['disableAllHooks'] === true) disabledBy = file;
    const plugins = settings.value['enabledPlugins'];
    if (isRecord(plugins))
      for (const [key, on] of Object.entries(plugins)) if (typeof on === 'boolean') enabledPlugins.set(key, on);
    add(file, hookHandlers(settings.value['hooks'], { PreToolUse: 'pre', PostToolUse: 'post' }));
  }
  for (const plugin of await claudePluginHooks(places.home, places.cwd, enabledPlugins, problems))
    add(plugin.file, plugin.handlers);
  const blocked = disabledBy === undefined ? undefined : `\`disableAllHooks\` is set in \`${disabledBy}\``;
  return { servers, hooks: blocked === undefined ? hooks : hooks.map((h) => ({ ...h, blocked })), problems };
}

function claudeServers(value: unknown, scope: ConfiguredServer['scope'], file: string): ConfiguredServer[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([name, entry]): ConfiguredServer[] => {
    if (!isRecord(entry)) return [];
    return [serverFromEntry({ host: 'claude-code', name, scope, file, enabled: true }, entry)];
  });
}
