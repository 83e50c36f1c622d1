import { accessSync, closeSync, constants, fstatSync, lstatSync, openSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { GateError, fileReadReason } from '../errors.ts';
import { realRecordsPath } from './records-folder.ts';

// a FIFO with no reader fails the open at once instead of blocking the process (no effect on a regular file); a
// symlink at the records path is not followed (an agent could point it at `~/.bashrc`)
const appendFlags =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  ((constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0) |
  ((constants as { O_NOFOLLOW?: number }).O_NOFOLLOW ?? 0);

// why a records file with more than one name is refused
const hardLinked = 'it has another hard link';

/** The one wording of a records path that cannot be written: `cannot write records to \`FILE\`: REASON`. */
export function recordsPathError(shownAs: string, reason: string): GateError {
  return new GateError('USAGE', `cannot write records to \`${shownAs}\`: ${reason}`);
}

/**
 * Why records cannot be appended to `file`, or null when they can: it is a regular file that can be written, or it
 * does not exist and its folder does. Checks only (nothing is created): for start-up and `--print-config`.
 */
export function recordsPathProblem(file: string): string | null {
  const real = realRecordsPath(file);
  if ('problem' in real) return real.problem;
  try {
    if (lstatSync(real.path).isSymbolicLink()) return 'it is a symlink';
  } catch {
    // missing: said below
  }
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return stat.isDirectory() ? 'it is a directory' : 'not a regular file';
    if (stat.nlink > 1) return hardLinked;
    accessSync(file, constants.W_OK);
    return null;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') return fileReadReason(error);
  }
  const folder = path.dirname(file);
  try {
    if (!statSync(folder).isDirectory()) return `its folder \`${folder}\` is not a directory`;
    accessSync(folder, constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === 'ENOENT' ? `its folder \`${folder}\` does not exist` : `its folder: ${fileReadReason(error)}`;
  }
}

/**
 * Opens `file` to append records (created when absent, mode 0600), returning its descriptor; throws GateError `USAGE`
 * when it cannot be written or is not a regular file (a FIFO, socket or device could block or swallow records).
 */
export function openRecordsFile(file: string, shownAs: string = file): number {
  const real = realRecordsPath(file);
  if ('problem' in real) throw recordsPathError(shownAs, real.problem);
  let fd: number;
  try {
    fd = openSync(real.path, appendFlags, 0o600);
  } catch (error) {
    const problem = recordsPathProblem(file);
    throw recordsPathError(shownAs, problem ?? fileReadReason(error));
  }
  const problem = openedProblem(file, real.path, fd);
  if (problem !== null) {
    closeSync(fd);
    throw recordsPathError(shownAs, problem);
  }
  return fd;
}

/**
 * Why the file open on `fd` (opened at `opened`, the real path of records file `file`) must not take records, or
 * null: not a regular file, or no longer the file the folder walk finds (a folder on the path was swapped meanwhile).
 */
export function openedProblem(file: string, opened: string, fd: number): string | null {
  const stat = fstatSync(fd);
  if (!stat.isFile()) return 'not a regular file';
  // a hard link is the file under a second name: someone who can write the folder picks the file appended to (a
  // shell start-up file, say, with a server's `$(…)` in a record), as with a symlink
  if (stat.nlink > 1) return hardLinked;
  const again = realRecordsPath(file);
  if ('problem' in again) return again.problem;
  try {
    const now = lstatSync(again.path);
    if (again.path === opened && now.dev === stat.dev && now.ino === stat.ino) return null;
  } catch {
    // gone since the open: changed
  }
  return 'its path changed while it was opened';
}

/** Writes all of `bytes` to `fd`, going on after a short write; an i/o fault is thrown as node raised it. */
export function writeAll(fd: number, bytes: Buffer): void {
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}
