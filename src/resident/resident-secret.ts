// The resident server's per-session secret: made fresh at every start, written once to a file the host's user reads
// into its environment, and checked on every request in constant time. Without it any local process (another user, a
// web page posting to loopback) could feed the server events; a header a page cannot set without a preflight.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256 } from '../hook/sha256.ts';

/** The request header that carries the secret. */
export const secretHeader = 'x-linkgate-secret';

/** The environment variable Claude Code interpolates into the header (listed in the hook's `allowedEnvVars`). */
export const secretEnvVar = 'LINKGATE_RESIDENT_SECRET';

/** A fresh secret: 32 random bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A check of the header against `secret`, in time that does not depend on where the two differ. */
export function secretCheck(secret: string): (given: string | string[] | undefined) => boolean {
  const want = sha256(secret);
  return (given) => {
    // a header sent twice, or not at all, is no secret
    if (typeof given !== 'string' || given === '') return false;
    // equal lengths for timingSafeEqual whatever was sent
    return timingSafeEqual(sha256(given), want);
  };
}
