// The hook's state folder (`--state`) is where each event writes its entries, and what a later event reads its
// decisions from. The gated agent runs as the same user, so it can replace the folder (or one above it) by a symlink
// to a folder it chose: the hook would write its files there (nothing is written through `mkdir -p`). A folder of
// another user, or one other users can write, would let them plant or swap the entries a read is decided on. So the
// folder is walked as the records file's folder is (`realRecordsPath`: a symlink the user could have made or replaced
// is refused), made mode 0700 when missing, and must be a folder this user owns that no group or other can write;
// each session's folder in it the same (`checkOwnFolder`). Anything else is a `USAGE` error: the hook fails closed.
// The default folder (no `--state`) is `linkgate/hook` under the user's cache root (`$XDG_CACHE_HOME`, else
// `~/.cache`): that root and the folders above it are the user's own set-up, where a symlink the user made is common
// (a cache on another disk, a dotfiles manager), so they are taken at their real path; refusing them made every event
// fail closed. Against an agent of the same user that walk added little: it can as well rename the folder and make a
// real one. `linkgate/hook` below the root is walked as before. An explicit `--state` is walked whole:
// `--print-config` prints it at its real path, so a symlink on it was put there after the set-up.
import { lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { GateError } from '../errors.ts';
import { currentFileUser, type FileUser } from '../policy/replaceable-file.ts';
import { namedRecordsPath, realRecordsPath } from '../record/records-folder.ts';

/**
 * Checks the state folder `dir` (made, mode 0700, when missing) and resolves its real path, at which the hook keeps
 * its entries; a `USAGE` error naming `dir` when it is reached through a symlink `user` could have made or replaced,
 * is not a folder, is not `user`'s, or its group or others can write it. `root`: a folder above `dir` taken at its real
 * path, symlinks and all (the default folder's cache root, `stateCacheRoot`).
 */
export async function readyStateFolder(
  dir: string,
  user: FileUser = currentFileUser(),
  root?: string,
): Promise<string> {
  let real = realFolder(dir, user, root);
  if (lstatOrNull(real) === null) {
    await mkdir(real, { recursive: true, mode: 0o700 });
    // walked again: a symlink planted on the way while the folders were made is refused, not written through
    real = realFolder(dir, user, root);
  }
  checkOwnFolder(real, user, `the state folder \`${dir}\``);
  return real;
}

/**
 * Why the hook would refuse state folder `dir` (`root` as `readyStateFolder` takes it) and each session's folder in it
 * (as `readyStateFolder` and `SessionState.open` check them), one line each, none when it would not; nothing is made
 * (`linkgate doctor`).
 */
export function stateFolderProblems(dir: string, user: FileUser = currentFileUser(), root?: string): string[] {
  const problem = (check: () => void): string[] => {
    try {
      check();
      return [];
    } catch (error) {
      // the hook fails on any other error too (a file on the way: ENOTDIR; no access)
      const why =
        error instanceof GateError
          ? error.message
          : `the state folder \`${dir}\` cannot be used: ${error instanceof Error ? error.message : String(error)}`;
      return [why];
    }
  };
  let real = '';
  const folder = problem(() => {
    real = realFolder(dir, user, root);
    if (lstatOrNull(real) !== null) checkOwnFolder(real, user, `the state folder \`${dir}\``);
  });
  if (folder.length > 0 || lstatOrNull(real) === null) return folder;
  let names: string[] = [];
  const listed = problem(() => {
    names = readdirSync(real);
  });
  return [
    ...listed,
    ...names
      .filter((name) => name.startsWith('s-'))
      .flatMap((name) =>
        problem(() =>
          checkOwnFolder(path.join(real, name), user, `the session's state folder \`${path.join(real, name)}\``),
        ),
      ),
  ];
}

/**
 * State folder `dir` at its real path, every symlink followed (its folder's, when it does not exist yet): for a path the
 * user names while setting the hook up (`--print-config`), so the printed command names the folder the user meant and a
 * symlink of theirs on the way is not refused at every event.
 */
export function namedStateFolder(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return namedRecordsPath(dir);
  }
}

/**
 * Checks that `folder` is a folder (not a symlink) `user` owns that no group or other can write; a `USAGE` error
 * that starts with `what` otherwise. Without user ids (Windows) only that it is a folder.
 */
export function checkOwnFolder(folder: string, user: FileUser, what: string): void {
  const stat = lstatOrNull(folder);
  if (stat === null) throw new GateError('USAGE', `${what} does not exist`);
  if (!stat.isDirectory()) throw new GateError('USAGE', `${what} is not a folder (${kindOf(stat)})`);
  if (user.uid < 0) return;
  if (stat.uid !== user.uid)
    throw new GateError('USAGE', `${what} belongs to uid ${stat.uid}, not to uid ${user.uid} who runs the hook`);
  if ((stat.mode & 0o022) !== 0)
    throw new GateError(
      'USAGE',
      `${what} is writable by its group or others (mode ${(stat.mode & 0o777).toString(8)}): \`chmod go-w\` it`,
    );
}

// the real path of folder `dir` (`root` and above it followed), or why it is refused
function realFolder(dir: string, user: FileUser, root: string | undefined): string {
  const real = realRecordsPath(path.join(underRealRoot(path.resolve(dir), root), 'entry'), user);
  if ('problem' in real)
    throw new GateError(
      'USAGE',
      `the state folder \`${dir}\` is refused: ${real.problem.replace(/^its folder/, 'the folder')}`,
    );
  return path.dirname(real.path);
}

// `dir` with its part at and above `root` at its real path (`dir` itself when `root` is not at or above it)
function underRealRoot(dir: string, root: string | undefined): string {
  if (root === undefined) return dir;
  const below = path.relative(path.resolve(root), dir);
  if (below.startsWith('..') || path.isAbsolute(below)) return dir;
  return path.join(realExisting(path.resolve(root)), below);
}

// the real path of `dir`; when it does not exist, that of the nearest folder above it that does, with the rest
function realExisting(dir: string): string {
  try {
    return realpathSync(dir);
  } catch (error) {
    const parent = path.dirname(dir);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) return dir;
    return path.join(realExisting(parent), path.basename(dir));
  }
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function kindOf(stat: Stats): string {
  if (stat.isSymbolicLink()) return 'a symlink';
  if (stat.isFile()) return 'a file';
  if (stat.isFIFO()) return 'a fifo';
  if (stat.isSocket()) return 'a socket';
  return 'a device';
}
