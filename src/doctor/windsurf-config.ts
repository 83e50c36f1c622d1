import { isRecord } from '../decision/json-value.ts';
import { windsurf, windsurfHooksFiles, windsurfMcpConfigFile } from '../hosts/windsurf.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { type HandlerCommand, readHooksFile } from './hooks-file.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

// a hook Windsurf runs: `{command, show_output}`
const commandHook: HandlerCommand = (h) => (typeof h['command'] === 'string' ? { command: h['command'] } : undefined);

/**
 * Windsurf's MCP servers (`mcpServers` of ~/.codeium/windsurf/mcp_config.json; a remote one by `serverUrl`) and the
 * hooks of its three hooks.json files (`{hooks: {EVENT: [{command, show_output}]}}`, system, user and workspace, all
 * run), from its docs (docs.windsurf.com/windsurf/cascade/hooks; not on the npm registry, never run here).
 */
export async function readWindsurf(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const servers: ConfiguredServer[] = [];
  const hooks: ConfiguredHook[] = [];
  const file = windsurfMcpConfigFile(places.home);
  const config = await readConfigFile(file);
  if (config.kind === 'problem') problems.push(config.message);
  const entries = config.kind === 'read' ? config.value['mcpServers'] : undefined;
  if (isRecord(entries))
    for (const [name, entry] of Object.entries(entries))
      if (isRecord(entry))
        servers.push(
          serverFromEntry({ host: 'windsurf', name, scope: 'user', file, enabled: entry['disabled'] !== true }, entry, [
            'serverUrl',
            'url',
          ]),
        );
  for (const hooksFile of windsurfHooksFiles(places.home, places.cwd, places.env))
    hooks.push(...(await readHooksFile(windsurf, hooksFile, commandHook, problems)));
  return { servers, hooks, problems };
}
