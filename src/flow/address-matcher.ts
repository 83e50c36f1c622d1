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
 *
 * Held in typed arrays only: the patterns are sorted and the trie built level by level, so the states are numbered in
 * order of depth and each state's children are consecutive states, sorted by symbol (`first[s]` to `first[s + 1]`); a
 * move down is a binary search among them (the root's ASCII children by a table). Building is one pass over the sorted
 * patterns per level, with no map and no object per state.
 */
export class AddressMatcher {
  /** transitions taken and fall backs made, over every text searched */
  steps = 0;
  /** characters of the patterns it was built from */
  readonly chars: number;
  // the root's children by ASCII symbol (0: none; index: code unit, + 128 at a boundary)
  private readonly rootAscii = new Int32Array(256);
  // per state: its first child (its children are the states from it to the next state's first child), its symbol
  private readonly first: Int32Array;
  private readonly symbol: Int32Array;
  private readonly fallBack: Int32Array;
  // per state, the id of a pattern that ends there or at a shorter suffix (-1: none): ending anywhere, or with a host
  private readonly endsFree: Int32Array;
  private readonly endsHost: Int32Array;

  constructor(patterns: Iterable<AddressPattern>) {
    // sorted by code units (stable: of equal texts the last given wins, as it ends at the same state), so the patterns
    // below a state are consecutive and its children come in order of symbol (the boundary bit is the same for all
    // children of a state: it depends on the character before, which they share)
    const sorted = [...patterns].filter((p) => p.text.length > 0);
    sorted.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    const texts = sorted.map((p) => p.text);
    let chars = 0;
    for (const text of texts) chars += text.length;
    this.chars = chars;
    // the build runs once per matcher, mostly before the JIT has compiled it: locals only, no call per state
    const most = chars + 1;
    const first = new Int32Array(most + 1);
    const symbol = new Int32Array(most);
    const parent = new Int32Array(most);
    // the patterns below each state: `sorted` from `lo` to `hi`
    const lo = new Int32Array(most);
    const hi = new Int32Array(most);
    const depth = new Int32Array(most);
    const free = new Int32Array(most).fill(-1);
    const host = new Int32Array(most).fill(-1);
    const rootAscii = this.rootAscii;
    hi[0] = sorted.length;
    let count = 1;
    // breadth first: a state's children get the next numbers, so they are consecutive and come after every shallower state
    for (let state = 0; state < count; state += 1) {
      first[state] = count;
      const d = depth[state] as number;
      const end = hi[state] as number;
      let i = lo[state] as number;
      // the patterns that end here come first (a prefix sorts before what goes on from it)
      for (; i < end && (texts[i] as string).length === d; i += 1) {
        const pattern = sorted[i] as AddressPattern;
        if (pattern.hostEnd) host[state] = pattern.id;
        else free[state] = pattern.id;
      }
      // the boundary bit of every child's symbol: whether the character before (the same for all) goes on with a host
      const boundary = d === 0 || !continuesHost((texts[i] ?? '').charCodeAt(d - 1)) ? boundaryBit : 0;
      while (i < end) {
        const c = (texts[i] as string).charCodeAt(d);
        let j = i + 1;
        while (j < end && (texts[j] as string).charCodeAt(d) === c) j += 1;
        const child = count;
        count += 1;
        symbol[child] = c | boundary;
        parent[child] = state;
        depth[child] = d + 1;
        lo[child] = i;
        hi[child] = j;
        if (state === 0 && c < 0x80) rootAscii[c | (boundary >>> 9)] = child;
        i = j;
      }
    }
    first[count] = count;
    const fallBack = new Int32Array(count);
    // in order of number, so of depth: a state's parent and every shorter suffix come before it
    for (let state = 1; state < count; state += 1) {
      const from = parent[state] as number;
      const s = symbol[state] as number;
      let back = 0;
      // the child by `s` of the parent's fall back, else of its fall back, … (`move`, written out)
      for (let at = from === 0 ? -1 : (fallBack[from] as number); at !== -1; ) {
        let low = first[at] as number;
        let high = (first[at + 1] as number) - 1;
        while (low <= high) {
          const mid = (low + high) >>> 1;
          const m = symbol[mid] as number;
          if (m === s) {
            back = mid;
            break;
          }
          if (m < s) low = mid + 1;
          else high = mid - 1;
        }
        if (back !== 0 || at === 0) break;
        at = fallBack[at] as number;
      }
      if (back === state) back = 0;
      fallBack[state] = back;
      if (free[state] === -1) free[state] = free[back] as number;
      if (host[state] === -1) host[state] = host[back] as number;
    }
    this.first = first.slice(0, count + 1);
    this.symbol = symbol.slice(0, count);
    this.fallBack = fallBack;
    this.endsFree = free.slice(0, count);
    this.endsHost = host.slice(0, count);
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

  // the child of `state` by symbol `s`, or -1: a binary search among its children (sorted by symbol)
  private child(state: number, s: number): number {
    if (state === 0) {
      const ascii = asciiIndex(s);
      if (ascii !== -1) return (this.rootAscii[ascii] as number) || -1;
    }
    let low = this.first[state] as number;
    let high = (this.first[state + 1] as number) - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = this.symbol[mid] as number;
      if (at === s) return mid;
      if (at < s) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  // the state after reading symbol `s` in `state`: down the trie when it can, else along the fall backs
  private move(state: number, s: number): number {
    let at = state;
    for (;;) {
      this.steps += 1;
      const child = this.child(at, s);
      if (child !== -1) return child;
      if (at === 0) return 0;
      at = this.fallBack[at] as number;
    }
  }
}
