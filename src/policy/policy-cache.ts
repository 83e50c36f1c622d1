import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fileReadError } from '../errors.ts';
import type { LoadPolicyOptions } from './load-policy.ts';
import { ownedByUs, policyCacheFormat, validNotes, writeCacheFile } from './cache-files.ts';
import { policyDigest } from './policy-digest.ts';
import type { PolicyDocument } from './policy-schema.ts';
import { buildPolicy, type Policy } from './policy.ts';
import { maxPolicyFileBytes, readRegularFileSync } from './read-regular-file.ts';

export { policyCacheFormat } from './cache-files.ts';

/** Where validated policies are kept, and what their validation depended on besides the file's bytes. */
export interface PolicyCacheOptions {
  /**
   * folder of the entries: next to the installed code (`policyCacheDir()`), where an entry is no weaker than the code
   * beside it; never a folder the gated agent may write and the code is not in (the project folder, the hook's state
   * folder); created mode 0700, used only when no other user can write it. undefined: no cache
   */
  dir: string | undefined;
  /** everything else the validated document depends on (linkgate's version, the policy schema's digest); undefined: not known, no cache */
  buildKey: string | undefined;
  /**
   * the review check (`allowedSigners`, the pins, `strictFiles`); when set, this cache of unreviewed documents is
   * neither read nor written (only `cacheReviewed`'s entries keyed by every input of the check are), and
   * `strictFiles` refuses a policy this user could change first
   */
  review?: LoadPolicyOptions;
  /**
   * lines derived from the policy's bytes that a command prints at start (its lint errors), kept in the entry under
   * `tag` (what else they depend on, such as the day) and made again when the tag differs
   */
  notes?: { tag: string; make: (text: string) => Promise<readonly string[]> };
  /**
   * with `review` (not `strictFiles`): keep a verified outcome in `dir` too, keyed by every input of the check, with
   * its time facts checked again at each load (`src/policy/reviewed-policy-cache.ts`)
   */
  cacheReviewed?: boolean;
}

/** A policy loaded through the cache, with the notes its options asked for. */
export interface CachedPolicy {
  policy: Policy;
  notes: readonly string[];
}

/** What one cache entry holds: the validated document of exactly the bytes its key names. */
interface PolicyCacheEntry {
  format: number;
  key: string;
  /** `policyDigest(document)`, checked on every hit so a damaged entry is a miss */
  digest: string;
  document: PolicyDocument;
  notes?: { tag: string; lines: string[] };
}

/**
 * Loads a policy like `loadPolicy`, but keeps the validated document in `options.dir`, keyed by the sha-256 of the
 * file's bytes and `options.buildKey`: an event whose policy did not change reads one small JSON file instead of
 * loading the YAML parser and the schema validator. An entry is used only when it is a regular file owned by this
 * user in a folder no other user can write, its key matches the current bytes and its document still has the digest
 * it was stored with; anything else is a miss, and a miss is the full load (which throws on a bad policy), so the
 * cache can make a load faster but never turn a policy that does not load into one that does.
 */
export async function loadPolicyCached(file: string, shownAs: string, options: PolicyCacheOptions): Promise<Policy> {
  return (await loadPolicyWithNotes(file, shownAs, options)).policy;
}

/** `loadPolicyCached` with the notes `options.notes` asks for, read from the entry when its tag matches. */
export async function loadPolicyWithNotes(
  file: string,
  shownAs: string,
  options: PolicyCacheOptions,
): Promise<CachedPolicy> {
  let bytes: Buffer;
  try {
    // the reads of a hit are synchronous (a few small files): one event is one process start, and on a loaded machine
    // each hand-off to the thread pool waits longer than the read itself
    bytes = readRegularFileSync(file, maxPolicyFileBytes);
  } catch (cause) {
    throw fileReadError('POLICY_UNREADABLE', 'policy', shownAs, cause);
  }
  const notes = options.notes;
  const review = options.review;
  // under `strictFiles` too: the gated user writes the entries, so one could stand for a policy the user cannot change
  if (
    review?.strictFiles === true ||
    review?.allowedSigners !== undefined ||
    review?.policyId !== undefined ||
    review?.minVersion !== undefined
  ) {
    if (options.cacheReviewed === true) {
      const { loadReviewedCached } = await import('./reviewed-policy-cache.ts');
      const cached = await loadReviewedCached(file, shownAs, bytes, { ...options, review });
      if (cached !== undefined) return cached;
    }
    const { parsePolicy, refuseReplaceable, reviewLoadedPolicy } = await import('./load-policy.ts');
    if (review.strictFiles === true) refuseReplaceable(file, review);
    const policy = await reviewLoadedPolicy(parsePolicy(bytes.toString('utf8'), file), file, bytes, {
      ...review,
      shownAs,
    });
    return { policy, notes: (await notes?.make(bytes.toString('utf8'))) ?? [] };
  }
  // the entry, when there is a cache folder this build may use (no key is hashed and no name made otherwise)
  const { dir, buildKey } = options;
  const entry =
    dir !== undefined && buildKey !== undefined && ownedByUs(dir, true) ? entryOf(dir, buildKey, bytes) : null;
  const hit = entry === null ? undefined : readEntry(entry.file, entry.key, file);
  if (hit !== undefined && (notes === undefined || hit.notes?.tag === notes.tag))
    return { policy: hit.policy, notes: hit.notes?.lines ?? [] };
  // the bytes already digested are the ones parsed: a file changed meanwhile cannot land under the old key
  const policy = hit?.policy ?? (await import('./load-policy.ts')).parsePolicy(bytes.toString('utf8'), file);
  const lines =
    notes === undefined ? undefined : { tag: notes.tag, lines: [...(await notes.make(bytes.toString('utf8')))] };
  if (entry !== null) await writeEntry(entry.dir, entry.file, entry.key, policy, lines);
  return { policy, notes: lines?.lines ?? [] };
}

// an entry's key (the sha-256 of this format, the build key and the policy's bytes) and its file in `dir`
function entryOf(dir: string, buildKey: string, bytes: Buffer): { dir: string; key: string; file: string } {
  const key = createHash('sha256')
    .update(`linkgate policy cache ${policyCacheFormat}\n${buildKey}\n`)
    .update(bytes)
    .digest('hex');
  return { dir, key, file: join(dir, `policy-${key}.json`) };
}

function readEntry(
  entryFile: string,
  key: string,
  file: string,
): { policy: Policy; notes: PolicyCacheEntry['notes'] } | undefined {
  try {
    if (!ownedByUs(entryFile, false, 'file')) return undefined;
    const entry = JSON.parse(
      readRegularFileSync(entryFile, maxPolicyFileBytes * 4).toString('utf8'),
    ) as Partial<PolicyCacheEntry> | null;
    if (entry === null || typeof entry !== 'object') return undefined;
    if (entry.format !== policyCacheFormat || entry.key !== key || typeof entry.digest !== 'string') return undefined;
    if (entry.document === null || typeof entry.document !== 'object') return undefined;
    // a damaged entry is a miss; the digest checked is the policy's digest (computed once per event)
    if (policyDigest(entry.document) !== entry.digest) return undefined;
    const notes = validNotes(entry.notes);
    return { policy: buildPolicy(entry.document, file, { digest: entry.digest, fresh: true }), notes };
  } catch {
    // unreadable, not JSON, or rules that no longer compile: the full load decides
    return undefined;
  }
}

async function writeEntry(
  dir: string,
  entryFile: string,
  key: string,
  policy: Policy,
  notes: PolicyCacheEntry['notes'],
): Promise<void> {
  const entry: PolicyCacheEntry = {
    format: policyCacheFormat,
    key,
    digest: policy.ref.digest,
    document: policy.document,
    ...(notes === undefined ? {} : { notes }),
  };
  await writeCacheFile(dir, entryFile, JSON.stringify(entry));
}

// what the bundle was built from, baked in at build time (scripts/cli-build-options.ts): linkgate's version and the
// policy schema's digest, so a bundled event reads no package file to know its cache key
declare const LINKGATE_POLICY_BUILD_KEY: string | undefined;

/**
 * What a validated policy depends on besides its bytes: linkgate's version and the digest of its policy schema
 * (built into the bundle; read from the package otherwise); undefined when the package's schema file cannot be read
 * (a tsc build copied out of its package), and then every load is a full one.
 */
export function policyBuildKey(): string | undefined {
  if (typeof LINKGATE_POLICY_BUILD_KEY === 'string') return LINKGATE_POLICY_BUILD_KEY;
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      // the package found: its key, or none when its schema cannot be read
      if (pkg.name === 'linkgate') return buildKeyOf(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || existsSync(join(dir, 'package.json'))) return undefined;
    }
  }
  return undefined;
}

/** The build key of the linkgate package at `root`: `<version> <sha-256 of schemas/policy.schema.json>`. */
export function buildKeyOf(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
  const schema = readFileSync(join(root, 'schemas', 'policy.schema.json'));
  return `${String(pkg.version)} ${createHash('sha256').update(schema).digest('hex')}`;
}

/**
 * The folder for validated policies next to the installed bundle (`dist/bin/policy-cache`): a folder the gated agent
 * cannot write when the package is installed where it cannot write, and never the project folder. Undefined outside
 * the bundle (source, tests, the tsc output): nothing is cached there. `npm run build` empties `dist/bin`, so a packed
 * package carries no entry.
 */
export function policyCacheDir(): string | undefined {
  if (typeof LINKGATE_POLICY_BUILD_KEY !== 'string') return undefined;
  return join(dirname(fileURLToPath(import.meta.url)), 'policy-cache');
}
