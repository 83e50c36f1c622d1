import { isRecord } from '../decision/json-value.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { type GeminiSettingsLayer, geminiCli, geminiCliHookSwitchedOff } from '../hosts/gemini-cli.ts';
import { geminiCliFolderTrust, geminiCliSettingsLayers } from '../hosts/gemini-cli-settings.ts';
import { systemFileSkipped } from '../hosts/system-file-secure.ts';
import { type HookHandlerEntry, hookHandlers } from '../hosts/hook-groups.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { readConfigFile } from './read-config-file.ts';
import { geminiEnvFileVars } from './gemini-env-file.ts';
import { entryCwd, serverFromEntry } from './server-entry.ts';

/**
 * Gemini CLI's MCP servers and `BeforeTool`/`AfterTool` hooks as it loads them (src/hosts/gemini-cli-settings.ts): the
 * system defaults, user, project and system settings files (a later entry of the same name replacing an earlier one),
 * each hook judged against `hooksConfig` of them all; the project file only in a folder Gemini CLI trusts, and in one
 * it does not trust, no settings hook runs and no configured server starts. The env file it loads (a trusted folder's
 * `.env`) and a hook's own `env` go into the environment doctor checks.
 */
export async function readGeminiCli(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const read: (GeminiSettingsLayer & { scope: ConfiguredServer['scope'] | 'system-defaults' })[] = [];
  for (const { file, scope } of geminiCliSettingsLayers(places.home, places.cwd, places.env)) {
    if (scope === 'system' || scope === 'system-defaults') {
      // gemini cli skips a system file an administrator does not own, with a warning
      const skipped = systemFileSkipped(file);
      if (skipped !== undefined) {
        problems.push(`gemini cli skips its system settings \`${file}\`: ${skipped}`);
        continue;
      }
    }
    const settings = await readConfigFile(file);
    if (settings.kind === 'problem') problems.push(settings.message);
    if (settings.kind === 'read') read.push({ file, settings: settings.value, scope });
  }
  const trust = geminiCliFolderTrust(
    places.cwd,
    places.home,
    places.env,
    read.filter((l) => l.scope !== 'project').map((l) => l.settings),
  );
  const untrusted = trust.trusted
    ? undefined
    : `gemini cli does not trust \`${places.cwd}\` (${trust.why}): it loads no project settings, runs no settings hook and starts no configured server there`;
  const byName = new Map<string, ConfiguredServer>();
  const found: [string, HookHandlerEntry][] = [];
  // an untrusted folder's project settings are not merged (its `hooksConfig` counts for nothing); its servers and hooks
  // are listed, as `gemini mcp list` does, none of them started or run
  const layers = read.filter((l) => trust.trusted || l.scope !== 'project');
  for (const { file, settings, scope } of read) {
    const entries = settings['mcpServers'];
    if (isRecord(entries))
      for (const [name, entry] of Object.entries(entries)) {
        if (!isRecord(entry)) continue;
        const where = {
          host: 'gemini-cli' as const,
          name,
          scope: scope === 'system-defaults' ? ('system' as const) : scope,
          file,
          enabled: untrusted === undefined,
        };
        // a remote server is `httpUrl` (streamable http) or `url` (sse)
        // Gemini CLI 0.61 connects to `httpUrl` or `url` when there is one, before it looks at `command`
        const server = { ...serverFromEntry(where, entry, ['httpUrl', 'url'], true), ...entryCwd(entry, places.cwd) };
        byName.set(name, untrusted === undefined ? server : { ...server, disabledBy: untrusted });
      }
    for (const h of hookHandlers(settings['hooks'], geminiCli.events)) found.push([file, h]);
  }
  // what Gemini CLI's env file sets in its own environment, which its hooks and servers inherit; a hook's own `env`
  // above it (an entry's own may not set these: gemini cli blocks that)
  const ignoreLocalEnv = layers.some(
    (l) => isRecord(l.settings['advanced']) && l.settings['advanced']['ignoreLocalEnv'] === true,
  );
  const envFile = geminiEnvFileVars(places.cwd, places.home, places.env, trust.trusted, ignoreLocalEnv);
  const fileEnv = envFile.vars;
  // an env file that cannot be read: no hook or server it would set variables for is called gated
  const unknown = envFile.problem === undefined ? {} : { envProblem: envFile.problem };
  const hooks: ConfiguredHook[] = found.map(([file, h]) => {
    const hook = configuredHook(geminiCli, file, h, untrusted ?? geminiCliHookSwitchedOff(layers, h.handler));
    const own = h.handler['env'];
    const env = { ...fileEnv, ...(isRecord(own) ? stringValues(own) : {}) };
    return { ...hook, ...(Object.keys(env).length === 0 ? {} : { env }), ...unknown };
  });
  const servers = [...byName.values()].map((s) => ({ ...s, env: { ...s.env, ...fileEnv }, ...unknown }));
  return { servers, hooks, problems };
}

// the string members of a handler's `env`
function stringValues(block: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(block).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
