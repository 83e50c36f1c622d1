import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { currentFileUser, type FileUser, folderProblem } from '../policy/replaceable-file.ts';

// The records file is opened without following a symlink (O_NOFOLLOW), but that guards its last component only: a
// folder above it replaced by a symlink would send the records (lines a server's text fills) into a folder an agent
// running as the same user chose, under the name the user chose (`~/.ssh/config`, say). So the folder is walked one
// component at a time: a symlink the running user could have made or replaced (theirs, or in a folder they can
// write) is refused; one they could not (root's `/var` → `/private/var` on macOS) is followed, and the file is opened
// at its real path, which is checked again on the open file.

/** Where records file `file` is opened: its path in its folder's real path, or why that folder is refused. */
export type RecordsPath = { readonly path: string } | { readonly problem: string };

/**
 * The real path of records file `file` (relative paths from the working folder), its folder walked from the root: a
 * symlink on the way that `user` (default: this process's) could have made or replaced is a `problem`; a folder that
 * does not exist yet ends the walk (the open then fails on it). Root could have made any.
 */
export function realRecordsPath(file: string, user: FileUser = currentFileUser()): RecordsPath {
  const absolute = path.resolve(file);
  const folder = path.dirname(absolute);
  const names = folder.split(path.sep).filter((name) => name !== '');
  let current = path.parse(folder).root;
  for (const [at, name] of names.entries()) {
    const next = path.join(current, name);
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(next);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return { path: path.join(next, ...names.slice(at + 1), path.basename(absolute)) };
    }
    if (stat.isSymbolicLink()) {
      if (user.uid === 0 || stat.uid === user.uid || folderProblem(current, stat, user) !== undefined)
        return {
          problem: `its folder \`${folder}\` is reached through the symlink \`${next}\`, which uid ${user.uid} could have made or replaced (give the folder's real path)`,
        };
      current = realpathSync(next);
    } else current = next;
  }
  return { path: path.join(current, path.basename(absolute)) };
}

/**
 * Records file `file` at its folder's real path, every symlink followed (unchanged when the folder does not exist):
 * for a path the user names while setting the gate up (`--print-config`), so the command it prints names the folder
 * the user meant, and a symlink planted on the way later is refused (`realRecordsPath`).
 */
export function namedRecordsPath(file: string): string {
  const absolute = path.resolve(file);
  try {
    return path.join(realpathSync(path.dirname(absolute)), path.basename(absolute));
  } catch {
    return absolute;
  }
}
