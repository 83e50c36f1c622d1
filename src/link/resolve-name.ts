import { createRequire } from 'node:module';
import type * as Dns from 'node:dns/promises';

// `node:dns/promises` starts c-ares (reading resolv.conf) when it loads: loaded at the first lookup, so a hook event or
// an eval line that resolves nothing (one process start each) does not pay for it
const load = createRequire(import.meta.url);
let dns: typeof Dns | undefined;

/** Resolves a host name to its addresses; reject or `[]` means it does not resolve (fails closed). */
export type Resolver = (name: string) => Promise<readonly string[]>;

/** The OS resolver as a `Resolver`: every address of a name, in the order the OS gives them. */
export const systemResolver: Resolver = async (name) => {
  dns ??= load('node:dns/promises') as typeof Dns;
  return (await dns.lookup(name, { all: true, verbatim: true })).map((a) => a.address);
};

/** Resolves `name` within `timeoutMs` milliseconds; undefined on failure, timeout or abort (callers fail closed). */
export async function resolveWithin(
  resolve: Resolver,
  name: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<readonly string[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), timeoutMs);
    onAbort = () => done(undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // a resolver that throws, even synchronously, or answers late leaves the name unresolved: fail closed
    return await Promise.race([
      Promise.resolve()
        .then(() => resolve(name))
        .then(
          (a) => [...a],
          () => undefined,
        ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}
