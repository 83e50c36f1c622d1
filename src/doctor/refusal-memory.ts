import { isAbsolute, join, relative, resolve } from 'node:path';
import { defaultStateDir } from '../hook/session-state.ts';
import { claudeCodeSettingsFiles } from '../hosts/claude-code.ts';
import { claudeCodeManagedDir, claudeCodeManagedFiles } from '../hosts/claude-code-managed.ts';
import { claudeCodeTempFolders, codexWorkspaceWritable } from './agent-writable.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { codexHome } from './codex-config.ts';
import { readCodexLayers } from './codex-system.ts';
import type { DoctorHost } from './doctor-report.ts';
import { readConfigFile, stringList } from './read-config-file.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const within = (folder: string, file: string) => {
  const r = relative(folder, file);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
};

/**
 * Why a `host` hook's memory of refusals across events (its state folder `state`, or the default) is not held, one
 * lowercase line, or undefined when the host's sandbox keeps the agent's shell out of that folder. The hook runs as the
 * gated user, so an agent whose shell can write the folder can delete, empty or roll back what the session refused, and
 * a later tool result naming a refused address is handed on; the proxy's memory is its own process. Claude Code: its
 * settings' `sandbox.enabled` with `sandbox.allowUnsandboxedCommands: false`, no `sandbox.excludedCommands`, the folder
 * outside the project and `permissions.additionalDirectories` (managed settings included); Codex:
 * `sandbox_mode` `read-only`, or `workspace-write` with the folder outside the project, the temporary folders and its
 * `writable_roots`. Every other host offers nothing doctor can read that keeps the shell out (`noSandbox`).
 */
export async function refusalMemoryNotHeld(
  host: DoctorHost,
  state: string | undefined,
  places: ConfigPlaces,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  const folder = state === undefined ? defaultStateDir(env, env['HOME'] ?? places.home) : resolve(places.cwd, state);
  if (host === 'claude-code') return claudeCodeOpen(folder, places);
  if (host === 'codex') return codexOpen(folder, places, env);
  return noSandbox[host];
}

/** The warning line on a hook whose memory of refusals is not held (`why`, from `refusalMemoryNotHeld`). */
export const refusalMemoryLine = (why: string): string =>
  `the hook's memory of refusals across events is not held: ${why}, so the agent can delete or roll back what the session refused and a later tool result naming a refused address is handed on; \`linkgate proxy\` in front of the server holds it (docs/hooks.md)`;

/** What keeps a `host` hook's state folder out of the agent's shell besides the proxy, for the fix line, if anything. */
export const sandboxFix: Readonly<Partial<Record<DoctorHost, string>>> = {
  'claude-code':
    "or turn claude code's sandbox on with no command outside it (`sandbox.enabled: true`, `sandbox.allowUnsandboxedCommands: false`) and the state folder outside the project",
  codex:
    'or run codex with `sandbox_mode = "read-only"` (or `"workspace-write"` with the state folder outside the project, the temporary folders and `writable_roots`)',
};

// the hosts whose hooks run where the agent's shell can write: no setting of theirs separates the two (docs/hosts.md)
const noSandbox: Readonly<Record<Exclude<DoctorHost, 'claude-code' | 'codex'>, string>> = {
  'gemini-cli':
    "gemini cli's sandbox (`tools.sandbox`, `--sandbox`) runs the whole cli, its hooks included, beside the agent's shell, so nothing keeps the shell out of the hook's state folder",
  cursor: "doctor reads no cursor setting that keeps the agent's shell out of the hook's state folder",
  cline: "cline has no sandbox: the agent's shell runs as the gated user and can write the hook's state folder",
  'copilot-cli':
    "copilot cli has no sandbox: the agent's shell runs as the gated user and can write the hook's state folder",
  windsurf: "windsurf has no sandbox: the agent's shell runs as the gated user and can write the hook's state folder",
};

async function claudeCodeOpen(folder: string, places: ConfigPlaces): Promise<string | undefined> {
  // user, project, local, then the administrator's managed files, as claude code merges its settings: a later value
  // wins, lists add up
  const files = [
    ...claudeCodeSettingsFiles(places.home, places.cwd, places.env),
    ...claudeCodeManagedFiles(claudeCodeManagedDir(places.env)),
  ];
  let enabled = false;
  let unsandboxed = true;
  const excluded: string[] = [];
  const writable: string[] = [];
  for (const file of files) {
    const read = await readConfigFile(file);
    if (read.kind === 'problem') return `claude code's sandbox setting cannot be read (${read.message})`;
    if (read.kind !== 'read') continue;
    const permissions = read.value['permissions'];
    if (isRecord(permissions))
      writable.push(...stringList(permissions['additionalDirectories']).map((d) => resolveHome(d, places)));
    if (!isRecord(read.value['sandbox'])) continue;
    const sandbox = read.value['sandbox'];
    if (typeof sandbox['enabled'] === 'boolean') enabled = sandbox['enabled'];
    if (typeof sandbox['allowUnsandboxedCommands'] === 'boolean') unsandboxed = sandbox['allowUnsandboxedCommands'];
    excluded.push(...stringList(sandbox['excludedCommands']));
  }
  if (!enabled)
    return "claude code's sandbox is off (`sandbox.enabled`), so the agent's shell can write its state folder";
  if (unsandboxed)
    return "claude code's sandbox lets a command run outside it (`sandbox.allowUnsandboxedCommands` is not false), so the agent's shell can write its state folder";
  // an excluded command runs outside the sandbox as the user: doctor cannot tell what it may write
  if (excluded.length > 0)
    return `claude code's \`sandbox.excludedCommands\` runs ${excluded.map((c) => `\`${c}\``).join(', ')} outside its sandbox, so the agent's shell can write its state folder`;
  if (within(places.cwd, folder))
    return "its state folder is inside the project, which claude code's sandbox lets the agent's shell write";
  // a working folder added to the session is one the sandboxed shell may write too
  const added = writable.find((d) => within(d, folder));
  if (added !== undefined)
    return `its state folder is inside \`${added}\` of \`permissions.additionalDirectories\`, which claude code's sandbox lets the agent's shell write`;
  const temp = claudeCodeTempFolders(places.env).find((t) => within(t.folder, folder));
  if (temp !== undefined)
    return `its state folder is inside \`${temp.folder}\`, ${temp.why}, which the agent's shell may write`;
  return undefined;
}

// a folder of claude code's settings: `~/` is the home, a relative path the project's
const resolveHome = (dir: string, places: ConfigPlaces) =>
  dir === '~' || dir.startsWith('~/') ? join(places.home, dir.slice(1)) : resolve(places.cwd, dir);

async function codexOpen(
  folder: string,
  places: ConfigPlaces,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
  // the system, user, trusted project and managed layers, as codex merges them: the highest that sets a key wins
  const { layers, problems } = await readCodexLayers(places, codexHome(places));
  if (problems.length > 0) return `codex's \`sandbox_mode\` cannot be read (${problems[0]})`;
  const setting = [...layers].reverse().find((layer) => layer.config['sandbox_mode'] !== undefined);
  const mode = setting?.config['sandbox_mode'];
  if (mode === 'read-only') return undefined;
  const where = setting === undefined ? '' : ` in \`${setting.file}\``;
  if (mode !== 'workspace-write')
    return `codex's \`sandbox_mode\` is ${typeof mode === 'string' ? `\`${mode}\`${where}` : 'not set'}, so the agent's shell can write its state folder`;
  const writable = codexWorkspaceWritable(layers, places, env).map((f) => f.folder);
  const open = writable.find((root) => within(root, folder));
  if (open !== undefined)
    return `its state folder is inside \`${open}\`, which codex's \`workspace-write\` sandbox lets the agent's shell write`;
  return undefined;
}
