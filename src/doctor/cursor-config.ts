import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { cursor, cursorFolders } from '../hosts/cursor.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

/**
 * Cursor's MCP servers (`mcpServers` of ~/.cursor/mcp.json and the project's .cursor/mcp.json) and its MCP hooks
 * (`beforeMCPExecution`/`afterMCPExecution` of ~/.cursor/hooks.json and .cursor/hooks.json). Cursor's CLI is not on
 * the npm registry, so this reading is from its documentation, not checked against the binary.
 */
export async function readCursor(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const servers: ConfiguredServer[] = [];
  const hooks: ConfiguredHook[] = [];
  for (const { folder, scope } of cursorFolders(places.home, places.cwd)) {
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
    for (const [event, phase] of Object.entries(cursor.events)) {
      const list = block[event];
      if (!Array.isArray(list)) continue;
      for (const handler of list as unknown[])
        if (isRecord(handler) && typeof handler['command'] === 'string')
          hooks.push(
            configuredHook(cursor, hooksFile, {
              event,
              phase,
              ...(typeof handler['matcher'] === 'string' ? { matcher: handler['matcher'] } : {}),
              command: handler['command'],
              handler,
            }),
          );
    }
  }
  return { servers, hooks, problems };
}
