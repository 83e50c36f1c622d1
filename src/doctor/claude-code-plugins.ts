import { join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import { claudeCode, claudeCodeInstalledPlugins } from '../hosts/claude-code.ts';
import type { HookHandlerEntry } from '../hosts/hook-groups.ts';
import { hookHandlers } from '../hosts/hook-groups.ts';
import { readConfigFile } from './read-config-file.ts';

/** The hook handlers of one installed, enabled Claude Code plugin, read from its `hooks/hooks.json`. */
export interface PluginHooks {
  readonly file: string;
  readonly handlers: readonly HookHandlerEntry[];
}

/**
 * The pre and post tool hooks of the Claude Code plugins `enabled` names (`enabledPlugins` of the settings files,
 * later files overriding earlier ones), found through ~/.claude/plugins/installed_plugins.json (user installs, and
 * project installs of `cwd`), with `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin's install folder as Claude Code does.
 */
export async function claudePluginHooks(
  home: string,
  cwd: string,
  enabled: ReadonlyMap<string, boolean>,
  problems: string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<PluginHooks[]> {
  if (![...enabled.values()].some(Boolean)) return [];
  const installedFile = claudeCodeInstalledPlugins(home, env);
  const installed = await readConfigFile(installedFile);
  if (installed.kind === 'problem') problems.push(installed.message);
  const plugins = installed.kind === 'read' && isRecord(installed.value['plugins']) ? installed.value['plugins'] : {};
  const found: PluginHooks[] = [];
  for (const [key, on] of enabled) {
    if (!on) continue;
    const installs = plugins[key];
    if (!Array.isArray(installs)) continue;
    for (const install of installs as unknown[]) {
      if (!isRecord(install) || typeof install['installPath'] !== 'string') continue;
      if (install['scope'] !== 'user' && install['projectPath'] !== cwd) continue;
      const root = install['installPath'];
      const file = join(root, 'hooks', 'hooks.json');
      const config = await readConfigFile(file);
      if (config.kind === 'problem') problems.push(config.message);
      if (config.kind !== 'read') continue;
      const handlers = hookHandlers(config.value['hooks'], claudeCode.events).map((h) => ({
        ...h,
        command: h.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', root),
        ...(h.args === undefined ? {} : { args: h.args.map((a) => a.replaceAll('${CLAUDE_PLUGIN_ROOT}', root)) }),
      }));
      found.push({ file, handlers });
    }
  }
  return found;
}
