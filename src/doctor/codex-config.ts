import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { isRecord } from '../decision/json-value.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { codexHookBlocked, codexHookHash, codexHookKey } from './codex-hook-trust.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { hookHandlers } from './hook-groups.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

const phases = { PreToolUse: 'pre', PostToolUse: 'post' } as const;

/** Codex's home folder: `$CODEX_HOME`, else ~/.codex. */
export function codexHome(places: ConfigPlaces): string {
  const own = places.env['CODEX_HOME'];
  return own === undefined || own === '' ? join(places.home, '.codex') : own;
}

/**
 * Codex's MCP servers (`[mcp_servers.NAME]` of $CODEX_HOME/config.toml, `enabled = false` kept as disabled) and its
 * hooks ($CODEX_HOME/hooks.json and `[hooks]` of config.toml), each with the trust Codex recorded for it
 * (`[hooks.state]`) and `[features] hooks = false`.
 */
export async function readCodex(places: ConfigPlaces): Promise<HostInventory> {
  const home = codexHome(places);
  const configFile = join(home, 'config.toml');
  const problems: string[] = [];
  const config = await readConfigFile(configFile, parseToml);
  if (config.kind === 'problem') problems.push(config.message);
  const root = config.kind === 'read' ? config.value : {};

  const servers: ConfiguredServer[] = [];
  const table = root['mcp_servers'];
  if (isRecord(table))
    for (const [name, entry] of Object.entries(table)) {
      if (!isRecord(entry)) continue;
      servers.push(
        serverFromEntry(
          { host: 'codex', name, scope: 'user', file: configFile, enabled: entry['enabled'] !== false },
          entry,
        ),
      );
    }

  const tomlHooks = isRecord(root['hooks']) ? root['hooks'] : {};
  const state = tomlHooks['state'];
  const features = isRecord(root['features']) ? root['features'] : {};
  const featureOff = features['hooks'] === false || features['codex_hooks'] === false;
  const hooksJson = join(home, 'hooks.json');
  const json = await readConfigFile(hooksJson);
  if (json.kind === 'problem') problems.push(json.message);
  const sources: [string, unknown][] = [
    [hooksJson, json.kind === 'read' ? json.value['hooks'] : undefined],
    [configFile, tomlHooks],
  ];
  const hooks: ConfiguredHook[] = [];
  for (const [file, block] of sources)
    for (const h of hookHandlers(block, phases)) {
      const blocked = featureOff
        ? 'hooks are turned off in codex (`[features] hooks = false`)'
        : codexHookBlocked(state, codexHookKey(file, h), codexHookHash(h));
      hooks.push({
        host: 'codex',
        file,
        event: h.event,
        phase: h.phase,
        ...(h.matcher === undefined ? {} : { matcher: h.matcher }),
        command: h.command,
        ...(blocked === undefined ? {} : { blocked }),
        warnings: [],
      });
    }
  return { servers, hooks, problems };
}
