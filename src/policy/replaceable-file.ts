import { errorText } from '../decision/error-line.ts';
// Whether the gated user could change a file the gate trusts (the policy, its `.sig`, the allowed-signers file):
// by writing it, or by renaming something in a folder on its path. A review signature protects nothing against a
// user who can also change what checks it (docs/reviews.md, threat model), so front ends warn, and `--strict-files`
// refuses. Judged from the permission bits and owners the kernel itself checks, for the effective user and groups.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';

/** The user a check is for: an effective user id and every group id it has. */
export interface FileUser {
  readonly uid: number;
  readonly gids: readonly number[];
}

/** This process's effective user and groups (the gated agent runs as the same user as a hook). */
export function currentFileUser(): FileUser {
  const uid = process.geteuid?.() ?? -1;
  const gids = [process.getegid?.() ?? -1, ...(process.getgroups?.() ?? [])];
  return { uid, gids };
}

// the write bit the kernel checks for `user` on `stat`: owner's, else group's, else other's
function canWrite(stat: Stats, user: FileUser): boolean {
  if (stat.uid === user.uid) return (stat.mode & 0o200) !== 0;
  if (user.gids.includes(stat.gid)) return (stat.mode & 0o020) !== 0;
  return (stat.mode & 0o002) !== 0;
}

/**
 * Why `user` can rename or replace `child` inside the folder `dir`, or undefined: write on the folder, unless its
 * sticky bit keeps entries to their owners (as in /tmp).
 */
export function folderProblem(dir: string, child: Stats, user: FileUser): string | undefined {
  const stat = lstatSync(dir);
  // a link's own mode bits mean nothing: its folder (the next step up) and its target (the resolved chain) count
  if (stat.isSymbolicLink() || !canWrite(stat, user)) return undefined;
  const sticky = (stat.mode & 0o1000) !== 0;
  if (sticky && child.uid !== user.uid && stat.uid !== user.uid) return undefined;
  return `the folder \`${dir}\` is writable by uid ${user.uid}`;
}

// a file that is not there yet: whoever may create it in its folder may plant it (an owner no user has)
const absent = { uid: -1 } as Stats;

function chainProblem(file: string, user: FileUser): string | undefined {
  const stat = lstatOrAbsent(file);
  if (stat !== absent && !stat.isSymbolicLink() && canWrite(stat, user))
    return `\`${file}\` is writable by uid ${user.uid}`;
  // each folder on the path, with the entry in it that leads to the file
  let childStat = stat;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const problem = folderProblem(dir, childStat, user);
    if (problem !== undefined) return problem;
    if (dir === path.dirname(dir)) return undefined;
    childStat = lstatSync(dir);
  }
}

function lstatOrAbsent(file: string): Stats {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return absent;
    throw error;
  }
}

/**
 * Why `user` (default: this process's) could change the file at `file` — write it, or rename it or a folder on its
 * path, through the path as given and through the file it resolves to — or undefined when it cannot. Root can change
 * any file. A path that cannot be examined says so (it is not taken as safe).
 */
export function replaceableBy(file: string, user: FileUser = currentFileUser()): string | undefined {
  if (user.uid === 0) return 'root can change any file (run the gated agent as another user)';
  try {
    const given = path.resolve(file);
    const problem = chainProblem(given, user);
    return problem ?? (lstatOrAbsent(given) === absent ? undefined : chainProblem(realpathSync(given), user));
  } catch (error) {
    return `it cannot be examined: ${errorText(error)}`;
  }
}

/** The files a policy's trust rests on: the policy, its signature file and the allowed-signers file (when checked). */
export function trustedFiles(
  policyFile: string,
  options: { readonly signatureFile?: string | undefined; readonly allowedSigners?: string | undefined },
): { kind: string; file: string }[] {
  return [
    { kind: 'policy', file: policyFile },
    ...(options.allowedSigners === undefined
      ? []
      : [
          { kind: 'signature file', file: options.signatureFile ?? `${policyFile}.sig` },
          { kind: 'allowed-signers file', file: options.allowedSigners },
        ]),
  ];
}
