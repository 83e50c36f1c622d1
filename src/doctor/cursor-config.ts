import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { cursor, cursorFolders } from '../hosts/cursor.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { type HandlerCommand, readHooksFile } from './hooks-file.ts';
import { readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

// a hook Cursor runs: `{command, matcher}`
const commandHook: HandlerCommand = (h) =>
  typeof h['command'] === 'string'
    ? { command: h['command'], ...(typeof h['matcher'] === 'string' ? { matcher: h['matcher'] } : {}) }
    : undefined;

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
    hooks.push(...(await readHooksFile(cursor, join(folder, 'hooks.json'), commandHook, problems)));
  }
  return { servers, hooks, problems };
}
