// Aho–Corasick over addresses with host boundaries: an address is found only where a host could start (at the text's
// start, or after a character no host name goes on with), and one whose pattern ends with its host only where the host
// ends too, so a refused `a.co` is not found in `data.com` nor in `a.com`. The boundary before a character is part of
// the symbol the automaton reads (code unit + 2^16 when a host may start there), so each character is still one move.

/** One pattern of a matcher: its text (compared as given: lower-case both sides), its id, and where it must end. */
export interface AddressPattern {
  readonly text: string;
  /** reported when the pattern is found */
  readonly id: number;
  /** the pattern ends with a host: found only where the text does not go on with a host character */
  readonly hostEnd: boolean;
}

/** Whether code unit `c` continues a host name: ASCII letters and digits, `-` and `_`. */
export function continuesHost(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x5f;
}

const boundaryBit = 0x10000;
const symbols = 0x20000;

// the index of symbol `s` in the root's table of ASCII symbols, or -1
function asciiIndex(s: number): number {
  const c = s & 0xffff;
  return c < 0x80 ? c | ((s >>> 16) << 7) : -1;
}

// the symbol of `text[i]`: its code unit, plus the boundary bit when a host may start there
function symbolAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return i === 0 || !continuesHost(text.charCodeAt(i - 1)) ? c | boundaryBit : c;
}

/**
 * Aho–Corasick over (code unit, boundary) symbols: a trie of the patterns with, for each state, the longest proper
 * suffix that is also a trie state, so one pass over a text finds whether it holds any pattern, in steps linear in the
 * text (each character moves down once; each fall back moves up, never more than the moves down).
 */
export class AddressMatcher {
  /** transitions taken and fall backs made, over every text searched */
  steps = 0;
  /** characters of the patterns it was built from */
  readonly chars: number;
  // the root's children by ASCII symbol (0: none; index: code unit, + 128 at a boundary), the others' in one map keyed
  // by state × 2^17 + symbol (the root's by the symbol alone)
  private readonly rootAscii = new Int32Array(256);
  private readonly next = new Map<number, number>();
  private readonly fallBack: Int32Array;
  // per state, the id of a pattern that ends there or at a shorter suffix (-1: none): ending anywhere, or with a host
  private readonly endsFree: Int32Array;
  private readonly endsHost: Int32Array;

  constructor(patterns: Iterable<AddressPattern>) {
    const parent: number[] = [0];
    const symbol: number[] = [0];
    const depth: number[] = [0];
    const free: number[] = [-1];
    const host: number[] = [-1];
    let chars = 0;
    for (const pattern of patterns) {
      const { text } = pattern;
      if (text.length === 0) continue;
      chars += text.length;
      let state = 0;
      for (let i = 0; i < text.length; i += 1) {
        const s = symbolAt(text, i);
        let child = state === 0 ? this.rootChild(s) : this.next.get(state * symbols + s);
        if (child === undefined) {
          child = parent.length;
          parent.push(state);
          symbol.push(s);
          depth.push((depth[state] as number) + 1);
          free.push(-1);
          host.push(-1);
          const ascii = asciiIndex(s);
          if (state === 0 && ascii !== -1) this.rootAscii[ascii] = child;
          else this.next.set(state * symbols + s, child);
        }
        state = child;
      }
      if (pattern.hostEnd) host[state] = pattern.id;
      else free[state] = pattern.id;
    }
    this.chars = chars;
    const count = parent.length;
    this.fallBack = new Int32Array(count);
    this.endsFree = Int32Array.from(free);
    this.endsHost = Int32Array.from(host);
    for (const state of byDepth(depth)) {
      const from = parent[state] as number;
      const s = symbol[state] as number;
      let back = from === 0 ? 0 : this.move(this.fallBack[from] as number, s);
      if (back === state) back = 0;
      this.fallBack[state] = back;
      if (this.endsFree[state] === -1) this.endsFree[state] = this.endsFree[back] as number;
      if (this.endsHost[state] === -1) this.endsHost[state] = this.endsHost[back] as number;
    }
    this.steps = 0;
  }

  /** The id of a pattern `text` holds at host boundaries, or -1 when it holds none. */
  firstIn(text: string): number {
    let state = 0;
    for (let i = 0; i < text.length; i += 1) {
      state = this.move(state, symbolAt(text, i));
      if (state === 0) continue;
      const free = this.endsFree[state] as number;
      if (free !== -1) return free;
      const host = this.endsHost[state] as number;
      if (host !== -1 && (i + 1 === text.length || !continuesHost(text.charCodeAt(i + 1)))) return host;
    }
    return -1;
  }

  private rootChild(s: number): number | undefined {
    const ascii = asciiIndex(s);
    if (ascii === -1) return this.next.get(s);
    return this.rootAscii[ascii] || undefined;
  }

  // the state after reading symbol `s` in `state`: down the trie when it can, else along the fall backs
  private move(state: number, s: number): number {
    let at = state;
    for (;;) {
      this.steps += 1;
      if (at === 0) return this.rootChild(s) ?? 0;
      const child = this.next.get(at * symbols + s);
      if (child !== undefined) return child;
      at = this.fallBack[at] as number;
    }
  }
}

// the states but the root in order of depth (a counting sort: linear), so a state's parent and every shorter suffix
// come before it
function byDepth(depth: readonly number[]): Int32Array {
  let deepest = 0;
  for (const d of depth) if (d > deepest) deepest = d;
  // next[d]: where the next state of depth d goes
  const next = new Int32Array(deepest + 2);
  for (let i = 1; i < depth.length; i += 1) {
    const after = (depth[i] ?? 0) + 1;
    next[after] = (next[after] ?? 0) + 1;
  }
  for (let d = 1; d < next.length; d += 1) next[d] = (next[d] ?? 0) + (next[d - 1] ?? 0);
  const order = new Int32Array(depth.length - 1);
  for (let i = 1; i < depth.length; i += 1) {
    const d = depth[i] ?? 0;
    const at = next[d] ?? 0;
    order[at] = i;
    next[d] = at + 1;
  }
  return order;
}
