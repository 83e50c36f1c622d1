import { dirname, isAbsolute, join, normalize, relative, resolve } from 'node:path';
import { trustedFiles } from '../policy/replaceable-file.ts';
import { claudeCodeConfigDir, claudeCodeSettingsFiles } from '../hosts/claude-code.ts';
import { claudeCodeManagedDir, claudeCodeManagedFiles } from '../hosts/claude-code-managed.ts';
import { projectRoot } from '../hosts/codex-project-layers.ts';
import { geminiCliSettingsLayers } from '../hosts/gemini-cli-settings.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { codexHome } from './codex-config.ts';
import { type CodexLayer, codexRootMarkers, readCodexLayers } from './codex-system.ts';
import type { DoctorHost, PolicyStatus, RecordsHealth } from './doctor-report.ts';
import { linkgatePackageRoot } from './linkgate-invocation.ts';
import { pathHops } from './path-hops.ts';
import { readConfigFile, stringList } from './read-config-file.ts';

// A gate whose policy, review or code the agent's shell can rewrite gates nothing the agent wants through: the hook
// reads its policy at every event, and a proxy at every start (hosts start their servers per session). Every host lets
// the agent write the project (Claude Code's and Codex's sandboxes included), and their settings name more folders it
// may write. Doctor judges the folders the configuration names; with no sandbox the shell may write whatever the user
// may, which `--strict-files` refuses for the policy (docs/reviews.md).

/** A folder the agent's shell may write, and what says so (a lowercase phrase, e.g. "the project folder"). */
export interface WritableFolder {
  readonly folder: string;
  readonly why: string;
}

type Env = Readonly<Record<string, string | undefined>>;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The folders a `host` agent's shell may write, as its configuration under `places` names them: the project folder,
 * the project root above it (the nearest `.git`, and Codex's `project_root_markers`; never the home folder or `/`, which
 * a dotfiles repository would make the root), and the host's own: Claude Code's `permissions.additionalDirectories`,
 * `sandbox.filesystem.allowWrite` and `Edit(…)` allow rules and its temporary folders (`claudeCodeTempFolders`); Codex's `sandbox_workspace_write.writable_roots` (and, in
 * `workspace-write`, the temporary folders); Gemini CLI's `context.includeDirectories`.
 */
export async function agentWritableFolders(host: DoctorHost, places: ConfigPlaces): Promise<WritableFolder[]> {
  const folders: WritableFolder[] = [{ folder: places.cwd, why: 'the project folder' }];
  const root = (markers: readonly string[], why: string) => {
    const found = projectRoot(places.cwd, markers);
    if (found === undefined || found === places.cwd || found === places.home || dirname(found) === found) return;
    folders.push({ folder: found, why });
  };
  root(['.git'], 'the project root (its `.git`)');
  if (host === 'claude-code') folders.push(...(await claudeCodeWritable(places)));
  if (host === 'gemini-cli') folders.push(...(await geminiCliWritable(places)));
  if (host === 'codex') {
    const problems: string[] = [];
    const { layers } = await readCodexLayers(places, codexHome(places));
    const markers = codexRootMarkers(layers, problems);
    root(markers, `codex's project root (\`project_root_markers\` ${markers.map((m) => `\`${m}\``).join(', ')})`);
    folders.push(...codexWorkspaceWritable(layers, places, places.env).slice(1));
  }
  return folders;
}

/**
 * The folders Codex's `workspace-write` sandbox lets the shell write, the project folder first: its
 * `sandbox_workspace_write.writable_roots` merged over `layers` (relative to the project), and `/tmp` and `$TMPDIR`
 * unless excluded, when `sandbox_mode` is `workspace-write` (the roots are named whatever the mode: the command line
 * may set it).
 */
export function codexWorkspaceWritable(
  layers: readonly CodexLayer[],
  places: ConfigPlaces,
  env: Env,
): WritableFolder[] {
  const setting = [...layers].reverse().find((layer) => layer.config['sandbox_mode'] !== undefined);
  // its options merged key by key over the layers
  const options: Record<string, unknown> = {};
  for (const { config } of layers)
    if (isRecord(config['sandbox_workspace_write'])) Object.assign(options, config['sandbox_workspace_write']);
  const folders: WritableFolder[] = [
    { folder: places.cwd, why: 'the project folder' },
    ...stringList(options['writable_roots']).map((r) => ({
      folder: resolve(places.cwd, r),
      why: "codex's `sandbox_workspace_write.writable_roots`",
    })),
  ];
  if (setting?.config['sandbox_mode'] !== 'workspace-write') return folders;
  const tmp = "codex's `workspace-write` sandbox";
  if (options['exclude_slash_tmp'] !== true) folders.push({ folder: '/tmp', why: tmp });
  const tmpdir = env['TMPDIR'];
  if (options['exclude_tmpdir_env_var'] !== true && tmpdir !== undefined && tmpdir !== '')
    folders.push({ folder: tmpdir, why: `${tmp} (\`$TMPDIR\`)` });
  return folders;
}

// Claude Code 2.1.332 (read in its bundle): sandboxed commands write the working folder, the folders added to the
// session (`permissions.additionalDirectories`) and `sandbox.filesystem.allowWrite`, merged with the paths of `Edit(…)`
// allow rules; the file tools write the same folders. Every layer counts, managed settings included.
async function claudeCodeWritable(places: ConfigPlaces): Promise<WritableFolder[]> {
  const user = claudeCodeSettingsFiles(places.home, places.cwd, places.env);
  const managedDir = claudeCodeManagedDir(places.env);
  const files = [...user, ...claudeCodeManagedFiles(managedDir)];
  const folders: WritableFolder[] = claudeCodeTempFolders(places.env);
  for (const file of files) {
    const read = await readConfigFile(file);
    if (read.kind !== 'read') continue;
    // a settings file's own root: the project for the project's files, the config folder for the user's, the managed
    // folder for the administrator's
    const root =
      file === user[0] ? claudeCodeConfigDir(places.home, places.env) : user.includes(file) ? places.cwd : managedDir;
    const permissions = read.value['permissions'];
    const sandbox = read.value['sandbox'];
    const filesystem = isRecord(sandbox) ? sandbox['filesystem'] : undefined;
    const named = (why: string, folder: string) => folders.push({ folder, why: `${why} of \`${file}\`` });
    if (isRecord(permissions)) {
      for (const dir of stringList(permissions['additionalDirectories']))
        named('`permissions.additionalDirectories`', homeOr(places, dir, places.cwd));
      for (const rule of stringList(permissions['allow'])) {
        const path = /^Edit\((.+)\)$/.exec(rule.trim())?.[1];
        if (path !== undefined) named(`the allow rule \`${rule}\``, editRuleFolder(path, places, root));
      }
    }
    if (isRecord(filesystem))
      for (const dir of stringList(filesystem['allowWrite']))
        named('`sandbox.filesystem.allowWrite`', homeOr(places, dir, root));
  }
  return folders;
}

/**
 * Claude Code's temporary folders its agent's shell may write, whatever its settings say (2.1.332, read in its bundle):
 * its sandbox always lets commands write `/tmp/claude` and `/private/tmp/claude`, and gives them as `TMPDIR`
 * `CLAUDE_CODE_TMPDIR` (else `CLAUDE_TMPDIR`, else `/tmp/claude`); its per-user temp folder, where it keeps commands'
 * working and output files, is `claude-<uid>` under `CLAUDE_CODE_TMPDIR`, else under the OS temp folder (`$TMPDIR`,
 * else `/tmp`). A folder added for one session (`--add-dir`) is on the command line, which doctor does not see.
 */
export function claudeCodeTempFolders(env: Env, uid: number = process.getuid?.() ?? 0): WritableFolder[] {
  const sandbox = "claude code's sandbox";
  const folders: WritableFolder[] = [
    { folder: '/tmp/claude', why: `${sandbox} (its temp folder)` },
    { folder: '/private/tmp/claude', why: `${sandbox} (its temp folder)` },
  ];
  const own = nonEmpty(env['CLAUDE_CODE_TMPDIR']);
  const given = own ?? nonEmpty(env['CLAUDE_TMPDIR']);
  if (given !== undefined) folders.push({ folder: given, why: `${sandbox} (its \`TMPDIR\`)` });
  const base = own ?? nonEmpty(env['TMPDIR'])?.replace(/(?<=.)\/+$/, '') ?? '/tmp';
  folders.push({ folder: join(base, `claude-${uid}`), why: "claude code's per-user temp folder" });
  return folders;
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

// a path of claude code's settings: absolute, `~` the home, else relative to `base`
const homeOr = (places: ConfigPlaces, dir: string, base: string) =>
  dir === '~' || dir.startsWith('~/') ? join(places.home, dir.slice(1)) : resolve(base, dir);

// the folder an `Edit(path)` rule opens, up to its first pattern: `//x` absolute, `~/x` the home, `/x` the settings
// file's root, anything else the working folder (Claude Code's permission paths)
function editRuleFolder(path: string, places: ConfigPlaces, root: string): string {
  const plain = path.split('/');
  const at = plain.findIndex((part) => /[*?[{]/.test(part));
  const fixed = (at < 0 ? plain : plain.slice(0, at)).join('/');
  if (path.startsWith('//')) return resolve('/', fixed.slice(2));
  if (path === '~' || path.startsWith('~/')) return join(places.home, fixed.slice(1));
  if (path.startsWith('/')) return join(root, fixed);
  return resolve(places.cwd, fixed);
}

// Gemini CLI 0.61 (`loadCliConfig`): the workspace is the working folder and `context.includeDirectories` of every
// settings layer (concatenated; `~` the home, a relative path the working folder's); its file tools write there
async function geminiCliWritable(places: ConfigPlaces): Promise<WritableFolder[]> {
  const folders: WritableFolder[] = [];
  for (const { file } of geminiCliSettingsLayers(places.home, places.cwd, places.env)) {
    const read = await readConfigFile(file);
    if (read.kind !== 'read' || !isRecord(read.value['context'])) continue;
    for (const dir of stringList(read.value['context']['includeDirectories']))
      folders.push({
        folder: homeOr(places, normalize(dir), places.cwd),
        why: `\`context.includeDirectories\` of \`${file}\``,
      });
  }
  return folders;
}

/** Whether `file` lies in `folder` (or is it). */
export function within(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

// the writable folder (as written, or as it resolves) holding a place `file` passes through, and that place
function holding(
  file: string,
  folders: readonly WritableFolder[],
): { folder: WritableFolder; hop: string } | undefined {
  const hops = pathHops(file);
  for (const folder of folders) {
    const forms = new Set([resolve(folder.folder), pathHops(folder.folder).at(-1) ?? folder.folder]);
    for (const hop of hops) if ([...forms].some((form) => within(form, hop))) return { folder, hop };
  }
  return undefined;
}

// `file`, and by what way it reaches the folder when not as written
const placed = (file: string, hop: string) =>
  resolve(file) === hop ? `\`${file}\`` : `\`${file}\` (by way of \`${hop}\`)`;

/**
 * Why the agent's shell can rewrite what a linkgate `front` (`hook` or `proxy`) decides, one lowercase line per file,
 * empty when it cannot: a file its review rests on (the policy, its `.sig` and the allowed-signers file, when checked)
 * or its own code (the entry and the package it lies in) passes through a folder of `folders` (as written, through a
 * symbolic link, or as it resolves), or a writable folder lies inside linkgate's package.
 */
export function agentWritableLines(
  front: 'hook' | 'proxy',
  code: { readonly bundle: string; readonly bundleExists: boolean },
  policy: PolicyStatus,
  folders: readonly WritableFolder[],
): string[] {
  const lines: string[] = [];
  const trusted = policy.file === undefined ? [] : trustedFiles(policy.file, { allowedSigners: policy.allowedSigners });
  for (const { kind, file } of trusted) {
    const found = holding(file, folders);
    if (found !== undefined)
      lines.push(
        `its ${kind} ${placed(file, found.hop)} lies in \`${found.folder.folder}\`, ${found.folder.why}, which the agent's shell may write: the agent can rewrite what the ${front} decides (keep the policy, its review and allowed signers outside every folder the agent may write)`,
      );
  }
  if (!code.bundleExists || !isAbsolute(code.bundle)) return lines;
  const fix = `the agent can rewrite the ${front} (run a linkgate installed outside every folder the agent may write)`;
  const root = linkgatePackageRoot(code.bundle);
  const found = holding(code.bundle, folders) ?? (root === undefined ? undefined : holding(root, folders));
  if (found !== undefined) {
    lines.push(
      `its linkgate code ${placed(code.bundle, found.hop)} lies in \`${found.folder.folder}\`, ${found.folder.why}, which the agent's shell may write: ${fix}`,
    );
    return lines;
  }
  const inside = root === undefined ? undefined : folders.find((f) => within(root, pathHops(f.folder).at(-1) ?? ''));
  if (inside !== undefined)
    lines.push(
      `\`${inside.folder}\`, ${inside.why}, lies inside its linkgate package \`${root}\`, and the agent's shell may write it: ${fix}`,
    );
  return lines;
}

/**
 * `records` with why the agent's shell can rewrite it (`agentWritable`), when the file (or the folder it will be made
 * in) passes through a folder of `folders`, as a state folder there is judged: what the agent can write is no evidence.
 */
export function recordsAgentWritable(
  front: 'hook' | 'proxy',
  records: RecordsHealth,
  folders: readonly WritableFolder[],
): RecordsHealth {
  const found = holding(records.file, folders);
  if (found === undefined) return records;
  return {
    ...records,
    agentWritable: `its records file ${placed(records.file, found.hop)} lies in \`${found.folder.folder}\`, ${found.folder.why}, which the agent's shell may write: the agent can rewrite or delete what the ${front} recorded, so its records are no evidence of what it decided (keep \`--records\` outside every folder the agent may write)`,
  };
}
