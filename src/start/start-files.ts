import { join } from 'node:path';

// The files of the per-event start in the installed `dist/bin` folder (docs/speed.md), named once: the build writes
// them, `--print-config` prints the entry, doctor checks the cache. Kept apart from code-cache.ts so the event bundle
// that names them loads no `node:vm`.

/** The event bundle's file name in the installed `dist/bin` folder (`hook` and `eval` as one CommonJS script). */
export const eventBundleName = 'linkgate-event.cjs';

/** The file name of the start script that runs the event bundle with its code cache (`--print-config` writes it). */
export const cachedEntryName = 'linkgate-cached.cjs';

/** The folder of the installed bundle's code cache, next to the bundle in `binDir`. */
export function codeCacheDir(binDir: string): string {
  return join(binDir, 'code-cache');
}
