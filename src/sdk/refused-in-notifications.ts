import { addressOf, mayReadBack, readBack } from '../flow/gate-notice.ts';
import type { Decision } from '../decision/decision.ts';
import { type LinkStep, linkRefused } from '../flow/link-steps.ts';

// A server's notifications and the answers the gate has no judgement of its own for pass through unjudged, and a host
// may show them to its user or its model: once one of the server's links was refused, a notification naming that
// link's address is dropped, an answer naming it replaced by the gate's error (enforce mode, `plain-answers.ts`).

/** Reasons that refuse a link for what its server declared about the body, not for its address. */
const declaredOnly: ReadonlySet<string> = new Set(['size.declared-too-large', 'type.declared-not-allowed']);

// whether every one of a refusal's reasons is about what the server declared (none: not)
function declaredAlone(reasons: readonly { code: string }[]): boolean {
  return reasons.length > 0 && reasons.every((r) => declaredOnly.has(r.code));
}

/** Most refused addresses a session keeps for its notifications (the oldest go first). */
export const maxKept = 1024;
/**
 * Longest message searched, characters of its JSON (more than any message a connection under the default policy
 * carries: `connectionByteCap`); a longer one is not passed on while any address is kept.
 */
const maxSearchedChars = 16 << 20;
/**
 * Characters of an address searched for: a longer address is searched by its first ones, so a text holding the whole
 * address still matches (and one holding only its start is dropped too: the bound fails closed), and the matcher
 * holds at most `maxKept` × this many states.
 */
export const maxAddressChars = 256;

/**
 * The address a link `decision` denied (its effect, whatever the mode) is searched for by, at most `maxAddressChars`
 * long; null when it was refused for what its server declared (type, size) alone, an address a listing shows too, or
 * when it is too short to search for.
 */
export function refusedAddressOf(decision: Decision, uri: string): string | null {
  if (decision.effect !== 'deny' || declaredAlone(decision.reasons)) return null;
  const address = addressOf(uri).slice(0, maxAddressChars);
  return address.length < 3 ? null : address;
}

/** The addresses of one session's refused links, and the check of its notifications against them. */
export class RefusedAddresses {
  readonly #addresses = new Set<string>();
  // built from the addresses when a notification is searched after they changed
  #matcher: AddressMatcher | null = null;

  /** How many addresses are kept. */
  get size(): number {
    return this.#addresses.size;
  }

  /** Keeps the address of each refused step's link. */
  note(steps: readonly (LinkStep | undefined)[]): void {
    for (const step of steps) {
      if (step === undefined || !linkRefused(step)) continue;
      const address = refusedAddressOf(step.linkDecision, step.link?.uri ?? step.discovered.uri);
      if (address !== null) this.keep([address]);
    }
  }

  /** Keeps `addresses` (each as `refusedAddressOf` gives it) as the newest; past `maxKept` the oldest go first. */
  keep(addresses: Iterable<string>): void {
    for (const address of addresses) {
      // kept as the newest; the set changes (and the matcher with it) only for an address it did not hold
      if (!this.#addresses.delete(address)) this.#matcher = null;
      this.#addresses.add(address);
      if (this.#addresses.size > maxKept) this.#addresses.delete(this.#addresses.values().next().value as string);
    }
  }

  /**
   * Whether `message` (a notification) names a refused address, as written or read back; past the search's bounds:
   * true. One pass over the lower-cased text finds every kept address at once (`AddressMatcher`), whatever their
   * number.
   */
  names(message: unknown): boolean {
    if (this.#addresses.size === 0) return false;
    let text: string;
    try {
      text = JSON.stringify(message) ?? '';
    } catch {
      // nested past what JSON.stringify can write: each name, string and number searched on its own, with no recursion
      return this.#namedWhenDeep(message);
    }
    if (text.length > maxSearchedChars) return true;
    return this.#holds(text);
  }

  // the text, as written or read back, holds a kept address
  #holds(text: string): boolean {
    this.#matcher ??= new AddressMatcher(this.#addresses);
    if (this.#matcher.foundIn(text.toLowerCase())) return true;
    return mayReadBack(text) && this.#matcher.foundIn(readBack(text).toLowerCase());
  }

  // a value too deep to stringify, walked with a stack: each member name, string and number is one text; past the
  // search's bound of characters, or a value that is none of JSON's: true
  #namedWhenDeep(message: unknown): boolean {
    const stack: unknown[] = [message];
    let chars = 0;
    while (stack.length > 0) {
      const value = stack.pop();
      let text: string | null = null;
      if (typeof value === 'string') text = value;
      else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
      else if (Array.isArray(value)) for (const v of value as unknown[]) stack.push(v);
      else if (value !== null && typeof value === 'object')
        for (const [key, v] of Object.entries(value)) {
          stack.push(v);
          stack.push(key);
        }
      else if (value !== null && value !== undefined) return true;
      if (text === null) continue;
      chars += text.length;
      if (chars > maxSearchedChars || this.#holds(text)) return true;
    }
    return false;
  }

  /** Steps the matcher took over all texts so far (a transition or a fall back): at most twice the characters searched. */
  get searchSteps(): number {
    return this.#matcher?.steps ?? 0;
  }
}

/**
 * Aho–Corasick over UTF-16 code units: a trie of the patterns with, for each state, the longest proper suffix that is
 * also a trie state, so one pass over a text finds whether it holds any pattern, in steps linear in the text (each
 * character moves down once; each fall back moves up, never more than the moves down).
 */
export class AddressMatcher {
  /** transitions taken and fall backs made, over every text searched */
  steps = 0;
  // the root's children by code unit (0: none), the others' in one map keyed by state × 2^16 + code unit
  private readonly rootNext = new Int32Array(0x10000);
  private readonly next = new Map<number, number>();
  private readonly fallBack: Int32Array;
  private readonly ends: Uint8Array;

  constructor(patterns: Iterable<string>) {
    const parent: number[] = [0];
    const unit: number[] = [0];
    const depth: number[] = [0];
    const terminal: boolean[] = [false];
    for (const pattern of patterns) {
      let state = 0;
      for (let i = 0; i < pattern.length; i += 1) {
        const c = pattern.charCodeAt(i);
        let child = state === 0 ? this.rootNext[c] || undefined : this.next.get(state * 0x10000 + c);
        if (child === undefined) {
          child = parent.length;
          parent.push(state);
          unit.push(c);
          depth.push((depth[state] as number) + 1);
          terminal.push(false);
          if (state === 0) this.rootNext[c] = child;
          else this.next.set(state * 0x10000 + c, child);
        }
        state = child;
      }
      if (pattern.length > 0) terminal[state] = true;
    }
    const count = parent.length;
    this.fallBack = new Int32Array(count);
    this.ends = new Uint8Array(count);
    // states by depth, so a state's parent and every shorter suffix are done before it
    const byDepth = Array.from({ length: count }, (_, i) => i).sort(
      (a, b) => (depth[a] as number) - (depth[b] as number),
    );
    for (const state of byDepth) {
      if (state === 0) continue;
      const from = parent[state] as number;
      const c = unit[state] as number;
      let back = from === 0 ? 0 : this.move(this.fallBack[from] as number, c);
      if (back === state) back = 0;
      this.fallBack[state] = back;
      this.ends[state] = terminal[state] === true || this.ends[back] === 1 ? 1 : 0;
    }
    this.steps = 0;
  }

  /** Whether `text` holds any of the patterns. */
  foundIn(text: string): boolean {
    let state = 0;
    for (let i = 0; i < text.length; i += 1) {
      state = this.move(state, text.charCodeAt(i));
      if (this.ends[state] === 1) return true;
    }
    return false;
  }

  // the state after reading `c` in `state`: down the trie when it can, else along the fall backs
  private move(state: number, c: number): number {
    let at = state;
    for (;;) {
      this.steps += 1;
      if (at === 0) return this.rootNext[c] as number;
      const child = this.next.get(at * 0x10000 + c);
      if (child !== undefined) return child;
      at = this.fallBack[at] as number;
    }
  }
}
