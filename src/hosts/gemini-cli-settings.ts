import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { isRecord } from '../decision/json-value.ts';

// Gemini CLI 0.61 (read in its bundle: `getSystemSettingsPath`, `_doLoadSettings`, `mergeSettings`, `checkPathTrust`,
// `LoadedTrustedFolders.isPathTrusted`, `HookRegistry.processHooksFromConfig`, `McpClientManager`):
// - settings layers, lowest precedence first: system defaults, user, workspace (only in a trusted folder), system;
//   `hooks` lists concatenate, `hooksConfig.enabled` is the highest layer's, `hooksConfig.disabled` a union;
// - the system files are `$GEMINI_CLI_SYSTEM_SETTINGS_PATH` (default /etc/gemini-cli/settings.json on Linux) and
//   `$GEMINI_CLI_SYSTEM_DEFAULTS_PATH` (default system-defaults.json beside it), read only when root owns them;
// - folder trust: `GEMINI_RESTRICTED_MODE=true` or `GEMINI_CLI_TRUST_WORKSPACE=false` distrust, `=true` trusts;
//   `security.folderTrust.enabled: false` (system defaults, user or system; default true) trusts every folder; else
//   the longest rule of `$GEMINI_CLI_TRUSTED_FOLDERS_PATH` (default ~/.gemini/trustedFolders.json) that holds the
//   folder decides (`TRUST_FOLDER`, `TRUST_PARENT`: the rule's parent, `DO_NOT_TRUST`), and no rule is untrusted;
// - in an untrusted folder it registers none of the settings' hooks (user and system ones included) and starts none of
//   its configured MCP servers.

type Env = Readonly<Record<string, string | undefined>>;

/** One of Gemini CLI's settings files, in the order it merges them (lowest precedence first). */
export interface GeminiSettingsFile {
  readonly file: string;
  readonly scope: 'system-defaults' | 'user' | 'project' | 'system';
}

/** Gemini CLI's system settings file on this platform, or `$GEMINI_CLI_SYSTEM_SETTINGS_PATH`. */
export function geminiCliSystemSettingsPath(env: Env): string {
  const own = env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'];
  if (own !== undefined && own !== '') return own;
  if (process.platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

/** Gemini CLI's system defaults file: `$GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, else system-defaults.json beside the system file. */
export function geminiCliSystemDefaultsPath(env: Env): string {
  const own = env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'];
  if (own !== undefined && own !== '') return own;
  return join(dirname(geminiCliSystemSettingsPath(env)), 'system-defaults.json');
}

/**
 * Every settings file Gemini CLI reads for `cwd`, lowest precedence first: system defaults, user, project (none when the
 * project is the home folder), system. Whether the project file counts depends on folder trust (`geminiCliFolderTrust`).
 */
export function geminiCliSettingsLayers(home: string, cwd: string, env: Env): GeminiSettingsFile[] {
  const user = join(home, '.gemini', 'settings.json');
  const project = join(cwd, '.gemini', 'settings.json');
  return [
    { file: geminiCliSystemDefaultsPath(env), scope: 'system-defaults' },
    { file: user, scope: 'user' },
    ...(resolve(cwd) === resolve(home) ? [] : [{ file: project, scope: 'project' as const }]),
    { file: geminiCliSystemSettingsPath(env), scope: 'system' },
  ];
}

/** Whether Gemini CLI trusts the folder, and the line saying why (for doctor). */
export interface GeminiFolderTrust {
  readonly trusted: boolean;
  readonly why: string;
}

const realOf = (path: string) => {
  try {
    return existsSync(path) ? realpathSync(path) : path;
  } catch {
    return path;
  }
};
const holds = (folder: string, path: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Gemini CLI's folder trust for `cwd`, from the environment, `security.folderTrust.enabled` of the layers that may set
 * it (`trustLayers`: system defaults, user, system, lowest first) and its trusted folders file.
 */
export function geminiCliFolderTrust(
  cwd: string,
  home: string,
  env: Env,
  trustLayers: readonly Readonly<Record<string, unknown>>[],
): GeminiFolderTrust {
  if (env['GEMINI_RESTRICTED_MODE'] === 'true' || env['GEMINI_CLI_TRUST_WORKSPACE'] === 'false')
    return {
      trusted: false,
      why: 'the environment distrusts every folder (`GEMINI_RESTRICTED_MODE`/`GEMINI_CLI_TRUST_WORKSPACE`)',
    };
  if (env['GEMINI_CLI_TRUST_WORKSPACE'] === 'true')
    return { trusted: true, why: '`GEMINI_CLI_TRUST_WORKSPACE=true` trusts every folder' };
  let enabled = true;
  for (const layer of trustLayers) {
    const security = layer['security'];
    const folderTrust = isRecord(security) ? security['folderTrust'] : undefined;
    if (isRecord(folderTrust) && typeof folderTrust['enabled'] === 'boolean') enabled = folderTrust['enabled'];
  }
  if (!enabled) return { trusted: true, why: 'folder trust is off (`security.folderTrust.enabled: false`)' };
  const own = env['GEMINI_CLI_TRUSTED_FOLDERS_PATH'];
  const file = own !== undefined && own !== '' ? own : join(home, '.gemini', 'trustedFolders.json');
  let rules: Record<string, unknown> = {};
  try {
    if (existsSync(file)) {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (isRecord(parsed)) rules = parsed;
    }
  } catch {
    return { trusted: false, why: `its trusted folders file \`${file}\` does not parse (gemini cli refuses to start)` };
  }
  const location = realOf(resolve(cwd));
  let best: { length: number; level: unknown } | undefined;
  for (const [rule, level] of Object.entries(rules)) {
    const folder = realOf(resolve(level === 'TRUST_PARENT' ? dirname(rule) : rule));
    if (holds(folder, location) && (best === undefined || rule.length > best.length))
      best = { length: rule.length, level };
  }
  if (best?.level === 'TRUST_FOLDER' || best?.level === 'TRUST_PARENT')
    return { trusted: true, why: `\`${file}\` trusts it` };
  if (best?.level === 'DO_NOT_TRUST') return { trusted: false, why: `\`${file}\` distrusts it (\`DO_NOT_TRUST\`)` };
  return { trusted: false, why: `no rule of \`${file}\` trusts it` };
}
