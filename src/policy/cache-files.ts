// The files of the validated-policy caches (policy-cache.ts, reviewed-policy-cache.ts): who may have written them, how
// one is written, and the shape of the notes an entry keeps.
import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// 2: a verified review check's `expiresAtMs` is bounded by its counted signers' `valid-before` (`expiresBecause`)
/** Layout version of a cache entry; changing it turns every older entry into a miss. */
export const policyCacheFormat = 2;

/**
 * A folder (or file) this user or root owns and no other user can write (root may make the entries of a root-owned
 * install); `missingOk`: a folder not made yet counts (the write makes it, mode 0700). Without user ids (Windows)
 * nothing is trusted and the cache is off.
 */
export function ownedByUs(path: string, missingOk: boolean, kind: 'dir' | 'file' = 'dir'): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  try {
    const stat = lstatSync(path);
    const rightKind = kind === 'dir' ? stat.isDirectory() : stat.isFile();
    return rightKind && (stat.uid === uid || stat.uid === 0) && (stat.mode & 0o022) === 0;
  } catch (error) {
    return missingOk && (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Writes one cache entry atomically (a temp file renamed over it), mode 0600 in a folder made 0700; a failure is ignored. */
export async function writeCacheFile(dir: string, entryFile: string, text: string): Promise<void> {
  const temp = join(dir, `.tmp-policy-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, entryFile);
  } catch {
    // the cache only saves time: an entry that cannot be written leaves the next event to load the policy again
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** The notes of an entry when they have the stored shape (a tag and lines of text), else undefined. */
export function validNotes(notes: unknown): { tag: string; lines: string[] } | undefined {
  if (notes === null || typeof notes !== 'object') return undefined;
  const { tag, lines } = notes as { tag?: unknown; lines?: unknown };
  if (typeof tag !== 'string' || !Array.isArray(lines) || !lines.every((l): l is string => typeof l === 'string'))
    return undefined;
  return { tag, lines };
}
