import { readFile } from 'node:fs/promises';
import { fileReadError, type GateErrorCode } from '../errors.ts';

/**
 * The bytes of a file the user named (a policy, a key, a case file, a resolver map); a read that fails throws
 * GateError `code` worded by `fileReadError` (`cannot read KIND \`SHOWN\`: REASON`).
 */
export async function readNamedFile(code: GateErrorCode, kind: string, path: string, shownAs: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (cause) {
    throw fileReadError(code, kind, shownAs, cause);
  }
}
