import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory, HookPhase } from './doctor-report.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

const phases: Readonly<Record<string, HookPhase>> = { beforeMCPExecution: 'pre', afterMCPExecution: 'post' };

/**
 * Cursor's MCP servers (`mcpServers` of ~/.cursor/mcp.json and the project's .cursor/mcp.json) and its MCP hooks
 * (`beforeMCPExecution`/`afterMCPExecution` of ~/.cursor/hooks.json and .cursor/hooks.json). Cursor's CLI is not on
 * the npm registry, so this reading is from its documentation, not checked against the binary.
 */
export async function readCursor(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const servers: ConfiguredServer[] = [];
  const hooks: ConfiguredHook[] = [];
  const folders: [string, ConfiguredServer['scope']][] = [
    [join(places.home, '.cursor'), 'user'],
    [join(places.cwd, '.cursor'), 'project'],
  ];
  for (const [folder, scope] of folders) {
    if (scope === 'project' && folder === folders[0]?.[0]) continue;
    const file = join(folder, 'mcp.json');
    const mcp = await readConfigFile(file);
    if (mcp.kind === 'problem') problems.push(mcp.message);
    const entries = mcp.kind === 'read' ? mcp.value['mcpServers'] : undefined;
    if (isRecord(entries))
      for (const [name, entry] of Object.entries(entries)) {
        if (!isRecord(entry)) continue;
        servers.push(
          serverFromEntry({ host: 'cursor', name, scope, file, enabled: entry['disabled'] !== true }, entry),
        );
      }
    const hooksFile = join(folder, 'hooks.json');
    const config = await readConfigFile(hooksFile);
    if (config.kind === 'problem') problems.push(config.message);
    const block = config.kind === 'read' && isRecord(config.value['hooks']) ? config.value['hooks'] : {};
    for (const [event, phase] of Object.entries(phases)) {
      const list = block[event];
      if (!Array.isArray(list)) continue;
      for (const handler of list as unknown[])
        if (isRecord(handler) && typeof handler['command'] === 'string')
          hooks.push({
            host: 'cursor',
            file: hooksFile,
            event,
            phase,
            ...(typeof handler['matcher'] === 'string' ? { matcher: handler['matcher'] } : {}),
            command: handler['command'],
            warnings:
              handler['failClosed'] === true
                ? []
                : ['no `"failClosed": true`: if the hook fails, cursor lets the call through'],
          });
    }
  }
  return { servers, hooks, problems };
}
