import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import type { RecordsHealth } from './doctor-report.ts';

/**
 * Whether the `--records` file a front end names (`written` relative to `cwd`, where the host starts it) can be
 * appended to: an existing file must be a writable file; a file not there yet needs a folder that exists and is
 * writable (a front end does not create folders, so every record would be lost or, enforcing, every event fail).
 */
export function recordsHealth(written: string, cwd: string): RecordsHealth {
  const file = resolvePath(cwd, written);
  const bad = (problem: string): RecordsHealth => ({ file, writable: false, problem });
  // a front end opens its records file without following a symlink (O_NOFOLLOW): one there fails every write
  if (lstatOf(file)?.isSymbolicLink() === true)
    return bad(`records file \`${file}\` is a symlink: the front end refuses to write through it`);
  const info = statOf(file);
  if (info !== undefined) {
    if (!info.isFile()) return bad(`records file \`${file}\` is not a file`);
    // a hard link names a file someone who can write the folder chose: the front end refuses it as a symlink
    if (info.nlink > 1)
      return bad(`records file \`${file}\` has another hard link: the front end refuses to write to it`);
    return canWrite(file) ? { file, writable: true } : bad(`records file \`${file}\` is not writable`);
  }
  const folder = dirname(file);
  const parent = statOf(folder);
  if (parent === undefined) return bad(`records folder \`${folder}\` does not exist: no record can be written`);
  if (!parent.isDirectory()) return bad(`records folder \`${folder}\` is not a folder`);
  return canWrite(folder) ? { file, writable: true } : bad(`records folder \`${folder}\` is not writable`);
}

function statOf(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function lstatOf(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
