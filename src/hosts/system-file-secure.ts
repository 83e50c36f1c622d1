import { lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

// Gemini CLI 0.61 (`isFileAndDirectorySecureSync` in its bundle) reads a system settings file only when the file and
// every folder above it (as written and as resolved) are owned by root and not writable by group or others; a symlink
// on the way must be owned by root too. Otherwise it skips the file with a warning.

const groupOrOtherWrite = 0o022;

function insecure(path: string, folder: boolean): string | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : `\`${path}\` cannot be read`;
  }
  if (folder !== stats.isDirectory()) return `\`${path}\` is not a ${folder ? 'folder' : 'file'}`;
  try {
    const link = lstatSync(path);
    if (link.isSymbolicLink() && link.uid !== 0) return `the symlink \`${path}\` is not owned by root`;
  } catch {
    // gone between the two calls: judged by stat above
  }
  if (stats.uid !== 0) return `\`${path}\` is not owned by root`;
  if ((stats.mode & groupOrOtherWrite) !== 0) return `\`${path}\` is writable by group or others`;
  return undefined;
}

function ancestors(folder: string): string[] {
  const list: string[] = [];
  for (let dir = folder; ; dir = dirname(dir)) {
    list.push(dir);
    if (dirname(dir) === dir) return list;
  }
}

/**
 * Why a host that reads only root-owned system files (Gemini CLI's system settings) skips `file`, or undefined when it
 * reads it (or it does not exist). POSIX only: on Windows hosts check ACLs, which this does not judge.
 */
export function systemFileSkipped(file: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    // not there: nothing is read
    return undefined;
  }
  const paths = new Set([file, real]);
  for (const path of paths) {
    for (const dir of ancestors(dirname(path))) {
      const why = insecure(dir, true);
      if (why !== undefined) return why;
    }
    const why = insecure(path, false);
    if (why !== undefined) return why;
  }
  return undefined;
}
