import { isRecord } from '../decision/json-value.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import {
  type GeminiSettingsLayer,
  geminiCli,
  geminiCliHookSwitchedOff,
  geminiCliSettingsFiles,
} from '../hosts/gemini-cli.ts';
import { type HookHandlerEntry, hookHandlers } from '../hosts/hook-groups.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

/**
 * Gemini CLI's MCP servers (`mcpServers` of ~/.gemini/settings.json and the project's .gemini/settings.json, a
 * project entry replacing a user entry of the same name) and its `BeforeTool`/`AfterTool` hooks from both files, each
 * judged against `hooksConfig` of both (`enabled: false`, `disabled` naming it).
 */
export async function readGeminiCli(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const byName = new Map<string, ConfiguredServer>();
  const hooks: ConfiguredHook[] = [];
  const layers: GeminiSettingsLayer[] = [];
  const found: [string, HookHandlerEntry][] = [];
  for (const { file, scope } of geminiCliSettingsFiles(places.home, places.cwd)) {
    const settings = await readConfigFile(file);
    if (settings.kind === 'problem') problems.push(settings.message);
    if (settings.kind !== 'read') continue;
    const entries = settings.value['mcpServers'];
    if (isRecord(entries))
      for (const [name, entry] of Object.entries(entries)) {
        if (!isRecord(entry)) continue;
        // a remote server is `httpUrl` (streamable http) or `url` (sse)
        byName.set(
          name,
          serverFromEntry({ host: 'gemini-cli', name, scope, file, enabled: true }, entry, ['httpUrl', 'url']),
        );
      }
    layers.push({ file, settings: settings.value });
    for (const h of hookHandlers(settings.value['hooks'], geminiCli.events)) found.push([file, h]);
  }
  for (const [file, h] of found)
    hooks.push(configuredHook(geminiCli, file, h, geminiCliHookSwitchedOff(layers, h.handler)));
  return { servers: [...byName.values()], hooks, problems };
}
