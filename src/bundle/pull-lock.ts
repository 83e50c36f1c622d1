import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The lock folder a pull holds in the state folder while it checks and activates. */
export const pullLockName = '.pull.lock';
/** A lock older than this is a crashed pull's, milliseconds (a pull's requests time out well within it). */
export const staleLockMs = 10 * 60_000;

/**
 * Takes the state folder's pull lock (an exclusive `mkdir`): two pulls at once would both pass the high-water check
 * and the one finishing last could activate the lower revision. A lock left by a crashed pull is taken over once
 * stale. Returns the release function, or undefined when another pull holds it.
 */
export async function takePullLock(
  stateDir: string,
  nowMs: number = Date.now(),
): Promise<(() => Promise<void>) | undefined> {
  const lock = join(stateDir, pullLockName);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await mkdir(lock);
      return () => rm(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await stat(lock).then(
        (s) => s.mtimeMs,
        () => nowMs,
      );
      if (nowMs - since < staleLockMs) return undefined;
      await rm(lock, { recursive: true, force: true });
    }
  }
  return undefined;
}
