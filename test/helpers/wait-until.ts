// Waiting for an event a test cannot subscribe to (a file written by another process, a counter in a child):
// check it again and again until it holds. The ceiling only fails a hung test; it is never the wait itself.
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves with the first value of `check` that is not undefined, checking every `everyMs` (milliseconds); rejects naming `what` after `timeoutMs`. */
export async function waitUntil<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  { timeoutMs = 30_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}
