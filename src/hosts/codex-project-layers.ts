import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRecord } from '../decision/json-value.ts';

/**
 * The `.codex` folders of the project layers Codex loads for `cwd`: from the project root (the nearest folder up
 * holding one of `markers`, Codex's `project_root_markers`, default `.git`; `cwd` itself when the list is empty or no
 * folder holds one) down to `cwd`, each that exists, and only when the user config trusts the project
 * (`[projects."ROOT"] trust_level = "trusted"`); an untrusted project's layers are loaded disabled. Lowest precedence
 * first.
 */
export function codexProjectLayers(cwd: string, projects: unknown, markers: readonly string[] = ['.git']): string[] {
  const root = projectRoot(cwd, markers) ?? cwd;
  const trust = (dir: string) => {
    const entry = isRecord(projects) ? projects[dir] : undefined;
    return isRecord(entry) && entry['trust_level'] === 'trusted';
  };
  if (!trust(root) && !trust(cwd)) return [];
  const chain: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dir === root || dirname(dir) === dir) break;
  }
  return chain.map((dir) => join(dir, '.codex')).filter((folder) => existsSync(folder));
}

/** The nearest folder from `cwd` up that holds one of `markers` (`cwd` itself included), or undefined: none does. */
export function projectRoot(cwd: string, markers: readonly string[]): string | undefined {
  for (let dir = cwd; markers.length > 0; dir = dirname(dir)) {
    if (markers.some((marker) => existsSync(join(dir, marker)))) return dir;
    if (dirname(dir) === dir) break;
  }
  return undefined;
}
