import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import { copilotCli, copilotHome, copilotHooksFolder } from '../hosts/copilot-cli.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { type HandlerCommand, readHooksFile } from './hooks-file.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

// a command hook Copilot CLI runs: `{type: "command", bash, timeoutSec}`
const commandHook: HandlerCommand = (h) =>
  h['type'] === 'command' && typeof h['bash'] === 'string' ? { command: h['bash'] } : undefined;

/**
 * Copilot CLI's MCP servers (`mcpServers` of ~/.copilot/mcp-config.json, `$COPILOT_HOME` moves it) and the command
 * hooks of the repository's `.github/hooks/*.json` (`{version: 1, hooks: {EVENT: [{type, bash, timeoutSec}]}}`), from its
 * hooks reference and checked with @github/copilot@1.0.102.
 */
export async function readCopilotCli(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const servers: ConfiguredServer[] = [];
  const hooks: ConfiguredHook[] = [];
  const file = join(copilotHome(places.env, places.home), 'mcp-config.json');
  const config = await readConfigFile(file);
  if (config.kind === 'problem') problems.push(config.message);
  const entries = config.kind === 'read' ? config.value['mcpServers'] : undefined;
  if (isRecord(entries))
    for (const [name, entry] of Object.entries(entries))
      if (isRecord(entry))
        servers.push(serverFromEntry({ host: 'copilot-cli', name, scope: 'user', file, enabled: true }, entry));
  const folder = copilotHooksFolder(places.cwd);
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json')).sort())
    hooks.push(...(await readHooksFile(copilotCli, join(folder, name), commandHook, problems)));
  return { servers, hooks, problems };
}
