import { createHash } from 'node:crypto';

/** The SHA-256 digest of `data` (a string as UTF-8): the one digest the hook and the resident server name things by. */
export function sha256(data: string | Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}
