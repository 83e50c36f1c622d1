import { accessSync, closeSync, constants, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { GateError, fileReadReason } from '../errors.ts';

// a FIFO with no reader fails the open at once instead of blocking the process (no effect on a regular file)
const appendFlags =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  ((constants as { O_NONBLOCK?: number }).O_NONBLOCK ?? 0);

/** The one wording of a records path that cannot be written: `cannot write records to \`FILE\`: REASON`. */
export function recordsPathError(shownAs: string, reason: string): GateError {
  return new GateError('USAGE', `cannot write records to \`${shownAs}\`: ${reason}`);
}

/**
 * Why records cannot be appended to `file`, or null when they can: it is a regular file that can be written, or it
 * does not exist and its folder does. Checks only (nothing is created): for start-up and `--print-config`.
 */
export function recordsPathProblem(file: string): string | null {
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return stat.isDirectory() ? 'it is a directory' : 'not a regular file';
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
  let fd: number;
  try {
    fd = openSync(file, appendFlags, 0o600);
  } catch (error) {
    const problem = recordsPathProblem(file);
    throw recordsPathError(shownAs, problem ?? fileReadReason(error));
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw recordsPathError(shownAs, 'not a regular file');
  }
  return fd;
}

/** Writes all of `bytes` to `fd`, going on after a short write; an i/o fault is thrown as node raised it. */
export function writeAll(fd: number, bytes: Buffer): void {
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}
