import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { codex, codexHome as codexHomeOf, codexServerEntryProblem } from '../hosts/codex.ts';
import { codexHookBlocked, codexHookHash, codexHookKey } from '../hosts/codex-hook-trust.ts';
import { hookHandlers } from '../hosts/hook-groups.ts';
import { hooksFeatureOff, readCodexLayers, requiredFeatureOff } from './codex-system.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

/** Codex's home folder for `places`: `$CODEX_HOME`, else ~/.codex. */
export function codexHome(places: ConfigPlaces): string {
  return codexHomeOf(places.env, places.home);
}

/**
 * Codex's MCP servers (`[mcp_servers.NAME]` of its config layers: /etc/codex/config.toml, $CODEX_HOME/config.toml, a
 * trusted project's .codex/config.toml and /etc/codex/managed_config.toml, `enabled = false` kept as disabled) and its
 * hooks (hooks.json and `[hooks]` of every layer, and `[hooks]` of /etc/codex/requirements.toml), a user's or
 * project's each with the trust Codex recorded for it (`[hooks.state]` of the user config), `[features] hooks = false`
 * in any layer or pinned by /etc/codex/requirements.toml, and that file's `allow_managed_hooks_only` (codex-system.ts).
 */
export async function readCodex(places: ConfigPlaces): Promise<HostInventory> {
  const home = codexHome(places);
  const { layers: all, requirements, problems } = await readCodexLayers(places, home);
  const root = all.find((layer) => layer.scope === 'user')?.config ?? {};
  // a later layer's entry of the same name replaces an earlier one
  const byName = new Map<string, ConfiguredServer>();
  // each name's entry as codex merges it: a later layer's table merged into the earlier one key by key (codex-rs
  // `merge_toml_values`), so a project's `[mcp_servers.NAME]` keeps what it does not set (a user's `env`) from below
  const merged = new Map<string, Record<string, unknown>>();
  for (const { file, config: layerConfig, scope } of all) {
    const table = layerConfig['mcp_servers'];
    if (isRecord(table))
      for (const [name, written] of Object.entries(table)) {
        if (!isRecord(written)) continue;
        const below = merged.get(name);
        const entry = below === undefined ? written : mergeToml(below, written);
        merged.set(name, entry);
        // the file's own entry is what codex refuses to load
        const refused = codexServerEntryProblem(written);
        const server = {
          ...serverFromEntry({ host: 'codex', name, scope, file, enabled: entry['enabled'] !== false }, entry),
          ...codexServerInherits(entry, process.platform),
        };
        if (refused === undefined) byName.set(name, server);
        else {
          // codex does not load a file with such an entry: it starts no server (nor itself) with it
          const why = `codex refuses \`[mcp_servers.${name}]\` of \`${file}\`: ${refused}; it does not load the file`;
          problems.push(why);
          byName.set(name, { ...server, enabled: false, disabledBy: why });
        }
      }
  }
  const servers = [...byName.values()];

  const tomlHooks = isRecord(root['hooks']) ? root['hooks'] : {};
  const state = tomlHooks['state'];
  // codex merges its layers (system, user, trusted projects, managed): a `[features]` switch in any of them turns
  // hooks off (a higher layer may turn them on again: doctor counts the hooks off, the side that gates less);
  // requirements.toml pins the switch whatever the layers say, and may run only the administrator's own hooks
  const offIn = hooksFeatureOff(all) ?? requiredFeatureOff(requirements);
  const managedOnly = requirements !== null && requirements.config['allow_managed_hooks_only'] === true;
  // each layer's hooks.json and [hooks] (codex-rs hooks `discover_handlers`: every layer's hooks run, none replaces
  // another's): the user's and the trusted projects' run once trusted (the trust is the user's, recorded in its
  // config.toml) unless `allow_managed_hooks_only`; the system layer's (/etc/codex/hooks.json, `[hooks]` of
  // /etc/codex/config.toml), the managed config's `[hooks]` (it has no hooks.json) and requirements.toml's `[hooks]`
  // are the administrator's: they run untrusted, whatever `allow_managed_hooks_only` says
  const sources: { file: string; block: unknown; managed: boolean }[] = [];
  for (const layer of all) {
    const managed = layer.scope === 'system';
    if (!layer.file.endsWith('managed_config.toml')) {
      const hooksJson = join(layer.folder, 'hooks.json');
      const json = await readConfigFile(hooksJson);
      if (json.kind === 'problem') problems.push(json.message);
      sources.push({ file: hooksJson, block: json.kind === 'read' ? json.value['hooks'] : undefined, managed });
    }
    sources.push({ file: layer.file, block: layer.config['hooks'], managed });
  }
  if (requirements !== null)
    sources.push({ file: requirements.file, block: requirements.config['hooks'], managed: true });
  const hooks: ConfiguredHook[] = [];
  for (const { file, block, managed } of sources)
    for (const h of hookHandlers(block, codex.events)) {
      const blocked =
        offIn !== undefined
          ? `hooks are turned off in codex (\`[features] hooks = false\` in \`${offIn}\`)`
          : managed
            ? undefined
            : managedOnly
              ? `codex runs only the administrator's hooks (\`allow_managed_hooks_only = true\` in \`${requirements?.file}\`)`
              : codexHookBlocked(state, codexHookKey(file, h), codexHookHash(h));
      hooks.push(configuredHook(codex, file, h, blocked));
    }
  return { servers, hooks, problems };
}

// `overlay` merged into `base` as codex-rs `merge_toml_values` does: tables key by key, an empty table clearing what
// it lands on, anything else replaced
function mergeToml(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(overlay).length === 0) return {};
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    const under = out[key];
    out[key] = isRecord(under) && isRecord(value) ? mergeToml(under, value) : value;
  }
  return out;
}

/**
 * The variables of its own environment codex hands a stdio server (codex-rs `create_env_for_mcp_server`: the process
 * starts with a cleared environment, then gets these from codex's, then the entry's `env`): its fixed list on unix,
 * and each name of the entry's `env_vars` (a name, or `{ name, source }`), as `ConfiguredServer.inherits`. None (all,
 * as far as doctor knows) on Windows, whose list doctor has not read.
 */
export function codexServerInherits(
  entry: Readonly<Record<string, unknown>>,
  platform: NodeJS.Platform,
): { inherits?: readonly string[] } {
  if (platform === 'win32') return {};
  const listed = Array.isArray(entry['env_vars']) ? (entry['env_vars'] as unknown[]) : [];
  const named = listed
    .map((v) => (typeof v === 'string' ? v : isRecord(v) && typeof v['name'] === 'string' ? v['name'] : undefined))
    .filter((v): v is string => v !== undefined);
  return { inherits: [...codexServerEnvVars, ...named] };
}

// codex-rs rmcp-client `DEFAULT_ENV_VARS` (unix): what every stdio server gets of codex's own environment
const codexServerEnvVars = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  '__CF_USER_TEXT_ENCODING',
  'LANG',
  'LC_ALL',
  'TERM',
  'TMPDIR',
  'TZ',
] as const;
