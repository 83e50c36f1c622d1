import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import { claudeCode, claudeCodeServerFiles, claudeCodeSettingsFiles } from '../hosts/claude-code.ts';
import {
  type ClaudeSettingsLayer,
  claudeCodeBareMode,
  claudeCodeHookBlocked,
  claudeCodeManagedDir,
  claudeCodeManagedFiles,
} from '../hosts/claude-code-managed.ts';
import { type HookHandlerEntry, hookHandlers } from '../hosts/hook-groups.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { claudePluginHooks } from './claude-code-plugins.ts';
import { readConfigFile } from './read-config-file.ts';
import {
  type ResidentHandlerEntry,
  type ResidentProbe,
  residentHandlers,
  residentHookProblems,
} from '../resident/resident-doctor.ts';
import { serverFromEntry } from './server-entry.ts';

/** Where doctor looks: the user's home folder and the project folder. */
export interface ConfigPlaces {
  readonly home: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** what the resident hook's checks read from the machine (tests give their own; default: the machine) */
  readonly residentProbe?: ResidentProbe;
}

/**
 * Claude Code's MCP servers and hooks: user scope (`mcpServers` of ~/.claude.json), local scope (that file's
 * `projects[CWD].mcpServers`), project scope (CWD/.mcp.json); hooks from ~/.claude/settings.json and the project's
 * .claude/settings.json and .claude/settings.local.json, from the enabled plugins installed, and from the managed
 * settings (/etc/claude-code, `$LINKGATE_CLAUDE_MANAGED_DIR`), each judged as Claude Code judges it
 * (src/hosts/claude-code-managed.ts: `disableAllHooks`, `allowManagedHooksOnly`).
 */
export async function readClaudeCode(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const servers: ConfiguredServer[] = [];
  const { user, project: shared } = claudeCodeServerFiles(places.home, places.cwd, places.env);
  const state = await readConfigFile(user);
  if (state.kind === 'problem') problems.push(state.message);
  else if (state.kind === 'read') {
    servers.push(...claudeServers(state.value['mcpServers'], 'user', user));
    const projects = state.value['projects'];
    const project = isRecord(projects) ? projects[places.cwd] : undefined;
    if (isRecord(project)) servers.push(...claudeServers(project['mcpServers'], 'local', user));
  }
  const mcp = await readConfigFile(shared);
  if (mcp.kind === 'problem') problems.push(mcp.message);
  else if (mcp.kind === 'read') servers.push(...claudeServers(mcp.value['mcpServers'], 'project', shared));

  const hooks: ConfiguredHook[] = [];
  const enabledPlugins = new Map<string, boolean>();
  const layers: { file: string; settings: Record<string, unknown> }[] = [];
  const found: [string, FoundHandler][] = [];
  // the resident urls an http hook after an mcp tool posts to (the server keeps what tool results return)
  const keepsLinks = new Set<string>();
  const add = (file: string, handlers: readonly HookHandlerEntry[]) => {
    for (const h of handlers) found.push([file, h]);
  };
  for (const file of claudeCodeSettingsFiles(places.home, places.cwd, places.env)) {
    const settings = await readConfigFile(file);
    if (settings.kind === 'problem') problems.push(settings.message);
    if (settings.kind !== 'read') continue;
    layers.push({ file, settings: settings.value });
    const plugins = settings.value['enabledPlugins'];
    if (isRecord(plugins))
      for (const [key, on] of Object.entries(plugins)) if (typeof on === 'boolean') enabledPlugins.set(key, on);
    add(file, hookHandlers(settings.value['hooks'], claudeCode.events));
    addResident(file, settings.value['hooks'], found);
  }
  for (const plugin of await claudePluginHooks(places.home, places.cwd, enabledPlugins, problems, places.env))
    add(plugin.file, plugin.handlers);
  // the administrator's managed settings, above every other layer: their hooks, and their switches over the others
  const managed: ClaudeSettingsLayer[] = [];
  const managedHooks: [string, FoundHandler][] = [];
  const managedDir = claudeCodeManagedDir(places.env);
  // the servers the administrator delivers (managed-mcp.json), whatever the user's files say
  const delivered = join(managedDir, 'managed-mcp.json');
  const managedMcp = await readConfigFile(delivered);
  if (managedMcp.kind === 'problem') problems.push(managedMcp.message);
  else if (managedMcp.kind === 'read')
    servers.push(...claudeServers(managedMcp.value['mcpServers'], 'system', delivered));
  for (const file of claudeCodeManagedFiles(managedDir)) {
    const settings = await readConfigFile(file);
    if (settings.kind === 'problem') problems.push(settings.message);
    if (settings.kind !== 'read') continue;
    managed.push({ file, settings: settings.value });
    for (const h of hookHandlers(settings.value['hooks'], claudeCode.events)) managedHooks.push([file, h]);
    addResident(file, settings.value['hooks'], managedHooks);
  }
  // bare mode turns off every settings hook, the managed ones too
  const bare = claudeCodeBareMode(places.env, [...layers, ...managed]);
  const judged = (file: string, h: FoundHandler, blocked: string | undefined): ConfiguredHook => {
    const hook = configuredHook(claudeCode, file, h, blocked);
    if (!('residentProblems' in h)) return hook;
    // the server learns which server returned a link only from the tool results posted to it after a tool ran
    const learns = keepsLinks.has(h.command);
    const warnings = learns
      ? hook.warnings
      : [
          ...hook.warnings,
          `no http hook after an mcp tool ran posts to \`${h.command}\`: the server never learns which server returned a link, so \`links.requireSameServer\` holds for no link (the printed set-up has one)`,
        ];
    return { ...hook, argv: [], warnings, resident: { problems: h.residentProblems, learns } };
  };
  for (const [file, h] of found) hooks.push(judged(file, h, bare ?? claudeCodeHookBlocked(layers, managed, false)));
  for (const [file, h] of managedHooks)
    hooks.push(judged(file, h, bare ?? claudeCodeHookBlocked(layers, managed, true)));
  // the settings' `env` is set for the whole session: every hook and server it starts inherits it (an entry's own
  // `env` above it), so a project file's NODE_OPTIONS runs code of its own before linkgate
  const env = settingsEnv([...layers, ...managed]);
  if (Object.keys(env).length === 0) return { servers, hooks, problems };
  return {
    servers: servers.map((s) => ({ ...s, env: { ...env, ...s.env } })),
    hooks: hooks.map((h) => ({ ...h, env })),
    problems,
  };

  // a resident hook (http, docs/resident-hook.md): before a read it is a hook of its own, judged by its conditions;
  // after a tool ran it only keeps links (the command hook withholds), so only a condition that does not hold is said
  function addResident(file: string, block: unknown, into: [string, FoundHandler][]): void {
    const probe = places.residentProbe;
    for (const entry of residentHandlers(block, probe)) {
      if (entry.phase === 'pre') into.push([file, residentEntry(entry)]);
      else if (entry.phase === 'post' && claudeCode.matcherCovers(entry.matcher, claudeCode.tools.mcpTool('a', 't')))
        keepsLinks.add(entry.url);
    }
    problems.push(...residentHookProblems(file, block, probe, (entry) => entry.phase !== 'pre'));
  }
}

// the `env` of Claude Code's settings layers merged, lowest precedence first (user, project, local, managed)
function settingsEnv(layers: readonly { settings: Record<string, unknown> }[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { settings } of layers) {
    const block = settings['env'];
    if (isRecord(block))
      for (const [key, value] of Object.entries(block)) if (typeof value === 'string') env[key] = value;
  }
  return env;
}

// a handler as doctor judges it: a command, or a resident http hook before a read (its url as the command)
type FoundHandler = HookHandlerEntry | (HookHandlerEntry & { residentProblems: readonly string[] });

function residentEntry(entry: ResidentHandlerEntry): FoundHandler {
  const { url, problems, ...rest } = entry;
  // as an exec form (`args`): the url is no shell command line
  return { ...rest, command: url, args: [], residentProblems: problems };
}

function claudeServers(value: unknown, scope: ConfiguredServer['scope'], file: string): ConfiguredServer[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([name, entry]): ConfiguredServer[] => {
    if (!isRecord(entry)) return [];
    // Claude Code picks the transport by `type`: an `http` or `sse` entry reaches its url, a command beside it never runs
    const remote = entry['type'] !== undefined && entry['type'] !== 'stdio';
    const server = serverFromEntry({ host: 'claude-code', name, scope, file, enabled: true }, entry, ['url'], remote);
    const named = expandedNames(entry);
    if (named.length === 0) return [server];
    const list = named.map((v) => `\`\${${v}}\``).join(', ');
    const envProblem = `claude code expands ${list} in its command, args and env from its own environment, which doctor does not see: what it starts is not known to be linkgate as written`;
    return [{ ...server, envProblem }];
  });
}

// `${NAME}` and `${NAME:-default}`: what Claude Code expands in a server's command, args and env (its mcp config)
const expansion = /\$\{([^}:]*)(?::-[^}]*)?\}/g;

// the variables Claude Code expands in a server entry's command, args and env values, in order, each once
function expandedNames(entry: Readonly<Record<string, unknown>>): string[] {
  const env = isRecord(entry['env']) ? Object.values(entry['env']) : [];
  const args: unknown[] = Array.isArray(entry['args']) ? entry['args'] : [];
  const texts = [entry['command'], ...args, ...env].filter((t): t is string => typeof t === 'string');
  return [...new Set(texts.flatMap((t) => [...t.matchAll(expansion)].map((m) => m[1] ?? '')))];
}
