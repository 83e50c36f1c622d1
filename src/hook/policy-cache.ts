import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileReadError } from '../errors.ts';
import { policyDigest } from '../policy/policy-digest.ts';
import type { PolicyDocument } from '../policy/policy-schema.ts';
import { buildPolicy, type Policy } from '../policy/policy.ts';
import { maxPolicyFileBytes, readRegularFile } from '../policy/read-regular-file.ts';
import type { LoadPolicyOptions } from '../policy/load-policy.ts';

/** Layout version of a cache entry; changing it turns every older entry into a miss. */
export const policyCacheFormat = 1;

/** Where validated policies are kept, and what their validation depended on besides the file's bytes. */
export interface PolicyCacheOptions {
  /** folder of the entries (the hook's state folder); created mode 0700, used only when no other user can write it */
  dir: string;
  /** everything else the validated document depends on (linkgate's version, the policy schema's digest); undefined: not known, no cache */
  buildKey: string | undefined;
  /**
   * the review check (`allowedSigners`); when set, the cache is neither read nor written: an entry is a file the
   * gated agent (same user) can write, so a reviewed policy is always parsed from the very bytes whose signatures
   * were checked, at every event
   */
  review?: LoadPolicyOptions;
}

/** What one cache entry holds: the validated document of exactly the bytes its key names. */
interface PolicyCacheEntry {
  format: number;
  key: string;
  /** `policyDigest(document)`, checked on every hit so a damaged entry is a miss */
  digest: string;
  document: PolicyDocument;
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
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, maxPolicyFileBytes);
  } catch (cause) {
    throw fileReadError('POLICY_UNREADABLE', 'policy', shownAs, cause);
  }
  const key = createHash('sha256')
    .update(`linkgate policy cache ${policyCacheFormat}\n${options.buildKey ?? ''}\n`)
    .update(bytes)
    .digest('hex');
  const review = options.review;
  if (review?.allowedSigners !== undefined || review?.policyId !== undefined || review?.minVersion !== undefined) {
    const { parsePolicy, reviewLoadedPolicy } = await import('../policy/load-policy.ts');
    return reviewLoadedPolicy(parsePolicy(bytes.toString('utf8'), file), file, bytes, { ...review, shownAs });
  }
  const entryFile = join(options.dir, `policy-${key}.json`);
  const trusted = options.buildKey !== undefined && (await ownedByUs(options.dir, true));
  if (trusted) {
    const hit = await readEntry(entryFile, key, file);
    if (hit !== undefined) return hit;
  }
  // the bytes already digested are the ones parsed: a file changed meanwhile cannot land under the old key
  const { parsePolicy } = await import('../policy/load-policy.ts');
  const policy = parsePolicy(bytes.toString('utf8'), file);
  if (trusted) await writeEntry(options.dir, entryFile, key, policy);
  return policy;
}

async function readEntry(entryFile: string, key: string, file: string): Promise<Policy | undefined> {
  try {
    if (!(await ownedByUs(entryFile, false, 'file'))) return undefined;
    const entry = JSON.parse(
      (await readRegularFile(entryFile, maxPolicyFileBytes * 4)).toString('utf8'),
    ) as Partial<PolicyCacheEntry> | null;
    if (entry === null || typeof entry !== 'object') return undefined;
    if (entry.format !== policyCacheFormat || entry.key !== key || typeof entry.digest !== 'string') return undefined;
    if (entry.document === null || typeof entry.document !== 'object') return undefined;
    if (policyDigest(entry.document) !== entry.digest) return undefined;
    return buildPolicy(entry.document, file);
  } catch {
    // unreadable, not JSON, or rules that no longer compile: the full load decides
    return undefined;
  }
}

async function writeEntry(dir: string, entryFile: string, key: string, policy: Policy): Promise<void> {
  const entry: PolicyCacheEntry = {
    format: policyCacheFormat,
    key,
    digest: policy.ref.digest,
    document: policy.document,
  };
  const temp = join(dir, `.tmp-policy-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temp, JSON.stringify(entry), { mode: 0o600 });
    await rename(temp, entryFile);
  } catch {
    // the cache only saves time: an entry that cannot be written leaves the next event to load the policy again
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

// a folder (or file) this user owns and no other user can write; `missingOk`: a folder not made yet counts (the
// write makes it, mode 0700). Without user ids (Windows) nothing is trusted and the cache is off.
async function ownedByUs(path: string, missingOk: boolean, kind: 'dir' | 'file' = 'dir'): Promise<boolean> {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  try {
    const stat = await lstat(path);
    const rightKind = kind === 'dir' ? stat.isDirectory() : stat.isFile();
    return rightKind && stat.uid === uid && (stat.mode & 0o022) === 0;
  } catch (error) {
    return missingOk && (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
