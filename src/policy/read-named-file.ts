import { fileReadError, type GateErrorCode } from '../errors.ts';
import { readRegularFile } from './read-regular-file.ts';

/** Largest file a user names that has no cap of its own (a key, a case file, a resolver map), bytes. */
export const maxNamedFileBytes = 16 * 1024 * 1024;

/**
 * The bytes of a file the user named (a policy, a key, a case file, a resolver map): a regular file of at most
 * `maxBytes` (`readRegularFile`: never a FIFO or a device, never a read that hangs); a read that fails throws GateError
 * `code` worded by `fileReadError` (`cannot read KIND \`SHOWN\`: REASON`).
 */
export async function readNamedFile(
  code: GateErrorCode,
  kind: string,
  path: string,
  shownAs: string,
  maxBytes: number = maxNamedFileBytes,
): Promise<Buffer> {
  try {
    return await readRegularFile(path, maxBytes);
  } catch (cause) {
    throw fileReadError(code, kind, shownAs, cause);
  }
}
