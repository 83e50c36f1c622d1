import { errorText } from '../decision/error-line.ts';
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GateError } from '../errors.ts';
import { type BundleManifest, manifestName, maxManifestBytes, parseBundleManifest } from './bundle-manifest.ts';

/** The pointer to the active revision (`STATE_DIR/active.json`), replaced by a rename when a bundle activates. */
export interface ActiveBundle {
  readonly revision: number;
  /** the revision's folder, relative to the state folder (`revisions/N`) */
  readonly dir: string;
  /** `sha256:<hex>` of the manifest's bytes */
  readonly manifestDigest: string;
  /** ISO 8601 time it was activated */
  readonly activatedAt: string;
  /** the reference it was pulled from */
  readonly source: string;
}

/** The active bundle of a state folder as a front end uses it: its revision, policy file and manifest. */
export interface BundleState {
  readonly stateDir: string;
  readonly revision: number;
  /** the active policy file (absolute) */
  readonly policyFile: string;
  readonly manifest: BundleManifest;
  readonly activatedAt: string;
  readonly source: string;
  /** the manifest's expiry, ms since the epoch */
  readonly expiresAtMs: number;
}

/** File names inside a state folder. */
export const stateFiles = {
  active: 'active.json',
  highWater: 'high-water.json',
  status: 'status.json',
  poll: 'poll.json',
  revisions: 'revisions',
} as const;

/** Largest state file read, bytes. */
const maxStateFileBytes = 64 * 1024;

/** Writes `data` as JSON to `STATE_DIR/name` atomically: a new file renamed over the old one. */
export async function writeStateFile(stateDir: string, name: string, data: unknown): Promise<void> {
  const temporary = join(stateDir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o644 });
  await rename(temporary, join(stateDir, name));
}

/** The JSON of `STATE_DIR/name`, or undefined when it does not exist; throws GateError POLICY_UNREADABLE otherwise. */
export async function readStateFile(stateDir: string, name: string): Promise<unknown> {
  let text: string;
  try {
    const bytes = await readFile(join(stateDir, name));
    if (bytes.length > maxStateFileBytes) throw new Error('over the size limit');
    text = bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new GateError(
      'POLICY_UNREADABLE',
      `cannot read bundle state \`${join(stateDir, name)}\`: ${errorText(error)}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GateError('POLICY_UNREADABLE', `bundle state \`${join(stateDir, name)}\` is not valid json`);
  }
}

/** The highest revision ever activated in `stateDir` (0 when none). */
export async function highWaterMark(stateDir: string): Promise<number> {
  const value = (await readStateFile(stateDir, stateFiles.highWater)) as { revision?: unknown } | undefined;
  if (value === undefined) return 0;
  if (typeof value.revision !== 'number' || !Number.isSafeInteger(value.revision) || value.revision < 0)
    throw new GateError('POLICY_UNREADABLE', `bundle state \`${stateFiles.highWater}\` has no whole \`revision\``);
  return value.revision;
}

/** The active pointer of `stateDir`, or undefined when no bundle was ever activated. */
export async function activeBundle(stateDir: string): Promise<ActiveBundle | undefined> {
  const value = (await readStateFile(stateDir, stateFiles.active)) as Partial<ActiveBundle> | undefined;
  if (value === undefined) return undefined;
  if (
    typeof value.revision !== 'number' ||
    !Number.isSafeInteger(value.revision) ||
    value.dir !== `${stateFiles.revisions}/${value.revision}` ||
    typeof value.manifestDigest !== 'string' ||
    typeof value.activatedAt !== 'string' ||
    typeof value.source !== 'string'
  )
    throw new GateError('POLICY_UNREADABLE', `bundle state \`${stateFiles.active}\` is malformed`);
  return value as ActiveBundle;
}

/**
 * The active bundle of a state folder (`linkgate bundle pull --state STATE_DIR`): its revision, manifest and policy
 * file; undefined when nothing was ever activated there. Throws GateError POLICY_UNREADABLE on a damaged folder.
 */
export async function bundleState(stateDir: string): Promise<BundleState | undefined> {
  const active = await activeBundle(stateDir);
  if (active === undefined) return undefined;
  const dir = join(stateDir, active.dir);
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, manifestName));
  } catch (error) {
    throw new GateError('POLICY_UNREADABLE', `cannot read the active manifest in \`${dir}\`: ${errorText(error)}`);
  }
  const parsed = bytes.length > maxManifestBytes ? undefined : parseBundleManifest(bytes);
  if (parsed === undefined || !parsed.ok)
    throw new GateError('POLICY_UNREADABLE', `the active manifest in \`${dir}\` is malformed`);
  return Object.freeze({
    stateDir,
    revision: active.revision,
    policyFile: join(dir, parsed.manifest.policy),
    manifest: parsed.manifest,
    activatedAt: active.activatedAt,
    source: active.source,
    expiresAtMs: Date.parse(parsed.manifest.expiresAt),
  });
}
