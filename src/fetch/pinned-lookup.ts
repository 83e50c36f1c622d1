import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { Resolver } from '../gate.ts';

/** The OS resolver as a gate `Resolver`: every address of a name, in the order the OS gives them. */
export const systemResolver: Resolver = async (name) =>
  (await dnsLookup(name, { all: true, verbatim: true })).map((a) => a.address);

/**
 * A `lookup` for `net`/`tls` that answers every name with one already-checked address, so the
 * connection goes exactly where the gate looked (no second resolution a rebinding name could swap).
 */
export function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  if (family === 0) throw new TypeError(`pinned address \`${address}\` is not an ip address`);
  const lookup = (_hostname: string, options: unknown, callback?: unknown): void => {
    const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: unknown }).all === true;
    process.nextTick(() => (all ? done(null, [{ address, family }]) : done(null, address, family)));
  };
  return lookup;
}

/** A resolver that asks the real one at most once per name and remembers what it answered. */
export interface ResolutionMemo {
  /** pass this to the gate: the answers it checks are the answers the fetcher connects to */
  readonly resolver: Resolver;
  /** the answers the gate saw for `name` (or its trailing-dot twin); undefined when never asked or failed */
  answersFor(name: string): readonly string[] | undefined;
}

/** Wraps `resolve` so one hop resolves each name once (DNS pinning). */
export function memoizeResolver(resolve: Resolver): ResolutionMemo {
  const pending = new Map<string, Promise<readonly string[]>>();
  const settled = new Map<string, readonly string[]>();
  const resolver: Resolver = (name) => {
    let answer = pending.get(name);
    if (answer === undefined) {
      answer = resolve(name).then((addresses) => {
        const frozen = Object.freeze([...addresses]);
        settled.set(name, frozen);
        return frozen;
      });
      pending.set(name, answer);
    }
    return answer;
  };
  return {
    resolver,
    answersFor: (name) =>
      settled.get(name) ?? (name.endsWith('.') ? settled.get(name.slice(0, -1)) : settled.get(`${name}.`)),
  };
}

/** Resolves `name` within `timeoutMs`; undefined on failure, timeout or abort (callers fail closed). */
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
    return await Promise.race([
      resolve(name).then(
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
