import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { isRecord } from '../decision/json-value.ts';
import { codexProjectLayers } from '../hosts/codex-project-layers.ts';
import type { ConfigPlaces } from './claude-code-config.ts';
import { readConfigFile } from './read-config-file.ts';

// Codex's files above the user (codex-rs `config_loader`, read in its sources): on unix `/etc/codex/config.toml` is the
// system layer, below `$CODEX_HOME/config.toml` and the trusted projects' `.codex/config.toml`;
// `/etc/codex/managed_config.toml` (the legacy managed config) is a layer above every other one, the command line's
// included; `/etc/codex/requirements.toml` holds what no layer can change: its `[features]` pins features
// (`hooks = false` keeps hooks off whatever a layer says) and `allow_managed_hooks_only = true` runs only the hooks the
// administrator delivers. Codex takes no override of that folder (its loader's override serves its own tests); doctor
// takes `$LINKGATE_CODEX_SYSTEM_DIR`. On Windows the managed config is `$CODEX_HOME/managed_config.toml` and doctor
// reads no system layer or requirements there (their folder is one it has not read).

type Env = Readonly<Record<string, string | undefined>>;

/** The variable that points doctor at another folder for Codex's system files (Codex itself takes none). */
export const codexSystemDirEnv = 'LINKGATE_CODEX_SYSTEM_DIR';

/** One of Codex's config files as read: its folder, path and table (empty when absent or unreadable), and its scope. */
export interface CodexLayer {
  folder: string;
  file: string;
  config: Record<string, unknown>;
  scope: 'system' | 'user' | 'project';
}

/** Codex's config layers, lowest precedence first, its requirements, and the files that cannot be read. */
export interface CodexLayers {
  /** system, user, each trusted project, managed */
  layers: CodexLayer[];
  /** `/etc/codex/requirements.toml` (null: none is read on this platform) */
  requirements: CodexLayer | null;
  /** a file that cannot be read is one codex does not start with */
  problems: string[];
}

/** Reads Codex's config layers and requirements for `places`, `home` its home folder (`$CODEX_HOME`, ~/.codex). */
export async function readCodexLayers(places: ConfigPlaces, home: string): Promise<CodexLayers> {
  const problems: string[] = [];
  const read = async (folder: string, name: string, scope: CodexLayer['scope']): Promise<CodexLayer> => {
    const file = join(folder, name);
    const layer = await readConfigFile(file, parseToml);
    if (layer.kind === 'problem') problems.push(layer.message);
    return { folder, file, config: layer.kind === 'read' ? layer.value : {}, scope };
  };
  const system = codexSystemDir(places.env);
  const layers: CodexLayer[] = [];
  if (system !== null) layers.push(await read(system, 'config.toml', 'system'));
  const user = await read(home, 'config.toml', 'user');
  layers.push(user);
  // a project is trusted by the layers below the projects' merged (codex-rs `project_trust_context`): the system
  // config may trust one the user's does not name
  for (const folder of codexProjectLayers(places.cwd, mergedProjects(layers), codexRootMarkers(layers, problems)))
    layers.push(await read(folder, 'config.toml', 'project'));
  layers.push(await read(system ?? home, 'managed_config.toml', 'system'));
  const requirements = system === null ? null : await read(system, 'requirements.toml', 'system');
  return { layers, requirements, problems };
}

/** Codex's system folder (`/etc/codex`, or `$LINKGATE_CODEX_SYSTEM_DIR`); null on Windows, where doctor reads none. */
export function codexSystemDir(env: Env): string | null {
  const own = env[codexSystemDirEnv];
  if (own !== undefined && own !== '') return own;
  return process.platform === 'win32' ? null : '/etc/codex';
}

/** The file of the first layer that turns codex's hooks off (`[features] hooks = false`, or its older `codex_hooks`). */
export function hooksFeatureOff(layers: readonly CodexLayer[]): string | undefined {
  return layers.find(({ config }) => featuresOff(config['features']))?.file;
}

/** The requirements file when it pins codex's hooks off (its `[features]`, also spelled `[feature_requirements]`). */
export function requiredFeatureOff(requirements: CodexLayer | null): string | undefined {
  if (requirements === null) return undefined;
  const { config } = requirements;
  return featuresOff(config['features']) || featuresOff(config['feature_requirements']) ? requirements.file : undefined;
}

function featuresOff(features: unknown): boolean {
  return isRecord(features) && (features['hooks'] === false || features['codex_hooks'] === false);
}

/**
 * `project_root_markers` of `layers` as codex merges them (the last that sets it wins; codex-rs
 * `project_root_markers_from_config`): a list of names, default `.git`; an empty list makes `cwd` the root. Anything
 * else is a value codex refuses to start with: named in `problems`, the default kept.
 */
export function codexRootMarkers(layers: readonly CodexLayer[], problems: string[]): readonly string[] {
  let markers: readonly string[] = ['.git'];
  for (const { config, file } of layers) {
    const set = config['project_root_markers'];
    if (set === undefined) continue;
    if (Array.isArray(set) && set.every((m) => typeof m === 'string')) markers = set;
    else problems.push(`\`project_root_markers\` in \`${file}\` is not a list of names: codex does not start with it`);
  }
  return markers;
}

// `[projects]` of `layers` merged as codex merges tables: each project's entry key by key, a later layer's value winning
function mergedProjects(layers: readonly CodexLayer[]): Record<string, unknown> {
  const projects: Record<string, unknown> = {};
  for (const { config } of layers) {
    if (!isRecord(config['projects'])) continue;
    for (const [dir, entry] of Object.entries(config['projects'])) {
      const below = projects[dir];
      projects[dir] = isRecord(below) && isRecord(entry) ? { ...below, ...entry } : entry;
    }
  }
  return projects;
}
