import { continuesHost } from './address-matcher.ts';

// Addresses a search could no longer keep whole (past its bound of characters) are not let go: the start of each
// form (its first `prefixChars` characters, or all of a shorter one) goes into a Bloom filter of fixed size, and a text
// that holds any such start at a host boundary counts as naming one. A Bloom filter answers "maybe" for what it never
// held, never "no" for what it did: past the bound the search may find too much, never too little (fails closed).

/** Characters of a forgotten address's start that are kept (as a fingerprint). */
export const prefixChars = 8;
const bits = 1 << 23;
const probes = 4;
const shortest = 3;

/** The starts of forgotten addresses, and the check of texts against them. */
export class ForgottenAddresses {
  readonly #filter = new Uint8Array(bits >>> 3);
  /** forms forgotten */
  count = 0;

  /** Keeps the start of each form. */
  forget(forms: readonly { readonly text: string }[]): void {
    for (const { text } of forms) {
      const n = Math.min(prefixChars, text.length);
      if (n < shortest) continue;
      const [h1, h2] = hashes(text, 0, n);
      for (let i = 0; i < probes; i += 1) {
        const at = position(h1, h2, i);
        this.#filter[at >>> 3] = (this.#filter[at >>> 3] ?? 0) | (1 << (at & 7));
      }
      this.count += 1;
    }
  }

  /** Whether lower-case `text` may hold the start of a forgotten address at a host boundary. */
  mayHold(text: string): boolean {
    if (this.count === 0) return false;
    for (let p = 0; p + shortest <= text.length; p += 1) {
      if (p > 0 && continuesHost(text.charCodeAt(p - 1))) continue;
      const end = p + Math.min(prefixChars, text.length - p);
      let a = basis;
      let b = basis;
      for (let i = p; i < end; i += 1) {
        const c = text.charCodeAt(i);
        a = Math.imul(a ^ c, primeA);
        b = Math.imul(b ^ c, primeB);
        if (i - p + 1 >= shortest && this.#has(a >>> 0, second(b))) return true;
      }
    }
    return false;
  }

  #has(h1: number, h2: number): boolean {
    for (let i = 0; i < probes; i += 1) {
      const at = position(h1, h2, i);
      if ((((this.#filter[at >>> 3] ?? 0) >>> (at & 7)) & 1) === 0) return false;
    }
    return true;
  }
}

// the bit of probe `i` for the hashes `h1`, `h2` (double hashing): `forget` sets the bits `mayHold` reads
function position(h1: number, h2: number, i: number): number {
  return ((h1 + i * h2) >>> 0) & (bits - 1);
}

// two 32-bit FNV-1a hashes of `text[from, to)` (different primes), the second made odd (double hashing); `mayHold`
// computes the same ones a character at a time
function hashes(text: string, from: number, to: number): [number, number] {
  let a = basis;
  let b = basis;
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, primeA);
    b = Math.imul(b ^ c, primeB);
  }
  return [a >>> 0, second(b)];
}

const basis = 0x811c9dc5;
const primeA = 0x01000193;
const primeB = 0x5bd1e995;

function second(b: number): number {
  return ((b ^ (b >>> 15)) | 1) >>> 0;
}
