import { constants, type Stats } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';
import { GateError } from '../errors.ts';
import { openedProblem } from '../record/records-file.ts';
import { realRecordsPath } from '../record/records-folder.ts';

// O_NONBLOCK: opening a FIFO never waits for a reader (it fails with ENXIO when none is there), so a FIFO planted at
// the records path cannot keep the hook from answering or from exiting; O_NOCTTY: a terminal never becomes ours
const appendFlags =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  (constants.O_NONBLOCK ?? 0) |
  (constants.O_NOCTTY ?? 0) |
  (constants.O_NOFOLLOW ?? 0);

/**
 * Appends `text` to the records file `path` in one write (`O_APPEND`: lines of hook processes running at once never
 * interleave), created with mode 0600 when missing. The file must be a regular file: a FIFO, a socket, a device or a
 * folder, also behind a symlink, is a `USAGE` error naming it, and the open never blocks.
 */
export async function appendRecordsFile(path: string, text: string): Promise<void> {
  // refused before the open where it can be: a FIFO with no reader would only say ENXIO
  const real = await checkRecordsFile(path);
  const handle = await open(real, appendFlags, 0o600);
  try {
    // checked again on the open handle: the path may have been swapped since
    const opened = await handle.stat();
    if (!opened.isFile()) throw notRegular(path, opened);
    const changed = openedProblem(path, real, handle.fd);
    if (changed !== null) throw new GateError('USAGE', `the records file \`${path}\`: ${changed}`);
    await handle.write(text);
  } finally {
    await handle.close();
  }
}

/**
 * Checks that `path` can take records: missing (the first record creates it) or a regular file, in a folder reached
 * through no symlink the running user could have made (`realRecordsPath`); `USAGE` otherwise. Resolves the real path
 * the records are appended at.
 */
export async function checkRecordsFile(path: string): Promise<string> {
  const real = realRecordsPath(path);
  if ('problem' in real) throw new GateError('USAGE', `the records file \`${path}\`: ${real.problem}`);
  const stats = await stat(real.path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (stats !== null && !stats.isFile()) throw notRegular(path, stats);
  // a symlink to a regular file would have the hook append to a file someone who can write the folder picks
  // (`~/.bashrc`, say, with a server's `$(…)` in a record): refused, and the open does not follow one
  if (stats !== null && (await lstat(real.path)).isSymbolicLink())
    throw new GateError('USAGE', `the records file \`${path}\` is a symlink`);
  return real.path;
}

function notRegular(path: string, stats: Stats): GateError {
  return new GateError('USAGE', `the records file \`${path}\` is not a regular file (${fileKind(stats)})`);
}

function fileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a fifo';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'a special file';
}
