import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import { cline, clineHookFolders, clineMcpSettingsFile } from '../hosts/cline.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { configuredHook } from './configured-hook.ts';
import type { ConfiguredHook, ConfiguredServer, HostInventory } from './doctor-report.ts';
import { maxConfigBytes, readConfigFile } from './read-config-file.ts';
import { serverFromEntry } from './server-entry.ts';

// the extensions Cline runs a hook file with (SUPPORTED_HOOK_FILE_EXTENSIONS, hook-file-config.ts); the name before
// them is matched without regard to case
const hookExtensions = new Set([
  '',
  '.sh',
  '.bash',
  '.zsh',
  '.js',
  '.mjs',
  '.cjs',
  '.ts',
  '.mts',
  '.cts',
  '.py',
  '.ps1',
]);

/** The command a hook script runs: its `exec` line (what `--print-config` writes), else its last command line. */
function scriptCommand(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const exec = lines.find((l) => l.startsWith('exec '));
  return exec === undefined ? (lines[lines.length - 1] ?? '') : exec.slice('exec '.length);
}

async function hookFiles(folder: string): Promise<{ file: string; event: string }[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const found: { file: string; event: string }[] = [];
  for (const name of names.sort()) {
    const ext = extname(name).toLowerCase();
    if (!hookExtensions.has(ext)) continue;
    const stem = basename(name, extname(name)).trim().toLowerCase();
    const event = Object.keys(cline.events).find((e) => e.toLowerCase() === stem);
    if (event !== undefined) found.push({ file: join(folder, name), event });
  }
  return found;
}

/**
 * Cline's MCP servers (`mcpServers` of cline_mcp_settings.json, `disabled` turns one off) and its hook files
 * (`PreToolUse`/`PostToolUse` in each hook folder, each run for every tool; a script's `exec` line is the command it
 * runs). Read from Cline's source (sdk/packages/shared/src/storage/paths.ts) and checked with cline@3.0.65.
 */
export async function readCline(places: ConfigPlaces): Promise<HostInventory> {
  const problems: string[] = [];
  const servers: ConfiguredServer[] = [];
  const hooks: ConfiguredHook[] = [];
  const file = clineMcpSettingsFile(places.home, places.env);
  const settings = await readConfigFile(file);
  if (settings.kind === 'problem') problems.push(settings.message);
  const entries = settings.kind === 'read' ? settings.value['mcpServers'] : undefined;
  if (isRecord(entries))
    for (const [name, entry] of Object.entries(entries))
      if (isRecord(entry))
        servers.push(
          serverFromEntry({ host: 'cline', name, scope: 'user', file, enabled: entry['disabled'] !== true }, entry),
        );
  for (const folder of clineHookFolders(places.home, places.cwd, places.env))
    for (const { file: script, event } of await hookFiles(folder)) {
      const info = await stat(script).catch(() => undefined);
      if (info === undefined || !info.isFile()) continue;
      if (info.size > maxConfigBytes) {
        problems.push(`\`${script}\` is over ${maxConfigBytes} bytes`);
        continue;
      }
      const command = scriptCommand(await readFile(script, 'utf8'));
      const phase = cline.events[event] ?? 'pre';
      hooks.push(configuredHook(cline, script, { event, phase, command, handler: {} }));
    }
  return { servers, hooks, problems };
}
