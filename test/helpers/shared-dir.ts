// The read-only `shared/` folder beside the checkout (conformance corpora, recorded MCP fixtures). Suites that use it
// run where it exists; under CI=true (CI always lays it beside the clone) a missing folder fails the suite instead of
// skipping it, so a conformance suite can never go quiet in CI.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The repository root (the folder holding package.json). */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** `../shared` beside the checkout. */
export const sharedDir = path.resolve(repoRoot, '../shared');

/** The absolute path of `rel` inside `../shared`. */
export function sharedPath(rel: string): string {
  return path.join(sharedDir, rel);
}

/**
 * Whether `../shared/<rel>` exists, for `describe.skipIf(!hasShared(rel))`; throws under CI=true when it does not, so
 * the suite fails at collection rather than skipping.
 */
export function hasShared(rel: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (existsSync(sharedPath(rel))) return true;
  if (env['CI'] === 'true') {
    throw new Error(`\`../shared/${rel}\` is missing: under CI=true the shared corpus must lie beside the checkout`);
  }
  return false;
}
