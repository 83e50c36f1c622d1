import { isIP, type LookupFunction } from 'node:net';
import type { Resolver } from '../link/resolve-name.ts';

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
