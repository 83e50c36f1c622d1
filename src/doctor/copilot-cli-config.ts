import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import { copilotCli, copilotHome, copilotHooksFolder } from '../hosts/copilot-cli.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

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
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    const hooksFile = join(folder, name);
    const read = await readConfigFile(hooksFile);
    if (read.kind === 'problem') problems.push(read.message);
    const block = read.kind === 'read' && isRecord(read.value['hooks']) ? read.value['hooks'] : {};
    for (const [event, phase] of Object.entries(copilotCli.events)) {
      const list = block[event];
      if (!Array.isArray(list)) continue;
      for (const handler of list as unknown[])
        if (isRecord(handler) && handler['type'] === 'command' && typeof handler['bash'] === 'string')
          hooks.push(configuredHook(copilotCli, hooksFile, { event, phase, command: handler['bash'], handler }));
    }
  }
  return { servers, hooks, problems };
}
