import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeHooksDisabledBy } from './claude-code.ts';

// Claude Code 2.1.332 (read in its binary): managed settings are `managed-settings.json` in /etc/claude-code on Linux
// (/Library/Application Support/ClaudeCode on macOS, C:\Program Files\ClaudeCode on Windows) and then each
// `managed-settings.d/*.json` in name order, above every other layer. Its hooks in force: none when the managed
// settings set `disableAllHooks: true`; only the managed ones when they set `allowManagedHooksOnly: true`, or when the
// merged settings set `disableAllHooks: true` (a user's switch does not turn off the administrator's hooks); else all.
// Its public build takes no override of that folder (its `CLAUDE_CODE_MANAGED_SETTINGS_PATH` hook returns nothing).

type Env = Readonly<Record<string, string | undefined>>;

/** The variable that points doctor at another managed settings folder (Claude Code itself takes none). */
export const claudeManagedDirEnv = 'LINKGATE_CLAUDE_MANAGED_DIR';

/** Claude Code's managed settings folder on this platform, or `$LINKGATE_CLAUDE_MANAGED_DIR`. */
export function claudeCodeManagedDir(env: Env): string {
  const own = env[claudeManagedDirEnv];
  if (own !== undefined && own !== '') return own;
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (process.platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

/** The managed settings files in the order Claude Code merges them: managed-settings.json, then the drop-ins by name. */
export function claudeCodeManagedFiles(dir: string): string[] {
  let dropIns: string[] = [];
  try {
    dropIns = readdirSync(join(dir, 'managed-settings.d'), { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.json') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    // no drop-in folder
  }
  return [join(dir, 'managed-settings.json'), ...dropIns.map((name) => join(dir, 'managed-settings.d', name))];
}

/** A settings file Claude Code read, with its parsed content. */
export interface ClaudeSettingsLayer {
  readonly file: string;
  readonly settings: Readonly<Record<string, unknown>>;
}

// the file of the last managed layer that sets `key` to true (later managed files override earlier ones)
function managedTrue(managed: readonly ClaudeSettingsLayer[], key: string): string | undefined {
  let by: string | undefined;
  for (const { file, settings } of managed) {
    if (settings[key] === true) by = file;
    else if (settings[key] === false) by = undefined;
  }
  return by;
}

/**
 * Why Claude Code will not run a hook from a managed file (`managed: true`) or from any other source, given its
 * settings layers (user, project, local, lowest first) and its managed layers; undefined when it runs.
 */
export function claudeCodeHookBlocked(
  layers: readonly ClaudeSettingsLayer[],
  managed: readonly ClaudeSettingsLayer[],
  fromManaged: boolean,
): string | undefined {
  const allOff = managedTrue(managed, 'disableAllHooks');
  if (allOff !== undefined) return `\`disableAllHooks\` is set in the managed settings \`${allOff}\``;
  if (fromManaged) return undefined;
  const managedOnly = managedTrue(managed, 'allowManagedHooksOnly');
  if (managedOnly !== undefined)
    return `\`allowManagedHooksOnly\` is set in the managed settings \`${managedOnly}\`: only managed hooks run`;
  const disabledBy = claudeCodeHooksDisabledBy([...layers, ...managed]);
  return disabledBy === undefined ? undefined : `\`disableAllHooks\` is set in \`${disabledBy}\``;
}

// Claude Code's truthy environment values (`1`, `true`, `yes`, `on`)
const truthy = (value: unknown) =>
  typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());

/**
 * Why Claude Code runs in bare mode (`--bare`, `CLAUDE_CODE_SIMPLE`), where no hook of a settings file, managed ones
 * included, fires: the variable in `env` or in a settings layer's `env` block; undefined when it does not.
 */
export function claudeCodeBareMode(env: Env, layers: readonly ClaudeSettingsLayer[]): string | undefined {
  if (truthy(env['CLAUDE_CODE_SIMPLE'])) return '`CLAUDE_CODE_SIMPLE` is set (bare mode): no settings hook runs';
  for (const { file, settings } of layers) {
    const own = settings['env'];
    if (typeof own === 'object' && own !== null && truthy((own as Record<string, unknown>)['CLAUDE_CODE_SIMPLE']))
      return `\`env.CLAUDE_CODE_SIMPLE\` is set in \`${file}\` (bare mode): no settings hook runs`;
  }
  return undefined;
}
