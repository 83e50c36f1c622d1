import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Largest policy file read, bytes (a policy is a few kilobytes; the shipped ones are under 8 KiB). */
export const maxPolicyFileBytes = 4 * 1024 * 1024;

// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer; O_NOCTTY: a terminal never becomes ours
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * The bytes of a file that must be a regular file of at most `maxBytes` (a policy, its `.sig`, an allowed-signers
 * file, a state entry): opened without blocking, checked with `fstat` on the open handle (a FIFO, a device such as
 * `/dev/zero`, a socket or a folder, also behind a symlink, is refused), its size checked before anything is read, and
 * never more than `maxBytes + 1` bytes read, so the read cannot hang or fill memory. Throws the open's error (`ENOENT`
 * …) or an Error naming what the file is.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(path, openFlags);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error(`not a regular file (${fileKind(stat)})`);
    if (stat.size > maxBytes) throw new Error(`over ${maxBytes} bytes (${stat.size} bytes)`);
    // the size can change after fstat: read at most one byte past the cap and refuse if it is there
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) throw new Error(`over ${maxBytes} bytes (it grew while read)`);
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw new Error(`over ${maxBytes} bytes (it grew while read)`);
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/**
 * `readRegularFile` without the thread pool, for a process that starts for one event (the hook, eval): the same
 * checks (opened without blocking, `fstat` on the handle, size before reading, never more than `maxBytes + 1` bytes)
 * with one system call each and no wait for a worker thread, which on a loaded machine costs more than the read.
 */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, openFlags);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`not a regular file (${fileKind(stat)})`);
    if (stat.size > maxBytes) throw new Error(`over ${maxBytes} bytes (${stat.size} bytes)`);
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) throw new Error(`over ${maxBytes} bytes (it grew while read)`);
      const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) throw new Error(`over ${maxBytes} bytes (it grew while read)`);
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function fileKind(stat: import('node:fs').Stats): string {
  if (stat.isFIFO()) return 'a fifo';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  return 'a special file';
}
