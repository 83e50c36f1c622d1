// One hash of a host name's text that a single pass over the name computes on the way (`classifyHostName`), so tables
// of known names and labels are looked up by a number, and a name none of them holds is never sliced or hashed again.

/** A 31-bit polynomial hash of `text`'s UTF-16 code units (`h = h * 31 + c`), as a pass over a name computes it. */
export function nameHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) & 0x7fffffff;
  return hash;
}

/**
 * `hashes` as one bit each (a hash modulo 2^16), for a lookup that most names miss: a clear bit says no hash of the set
 * is `hash` with no set lookup; a set bit says the set must be asked (`mayHoldHash`).
 */
export function hashBits(hashes: Iterable<number>): Uint32Array {
  const bits = new Uint32Array(2048);
  for (const hash of hashes) bits[(hash >>> 5) & 2047] = (bits[(hash >>> 5) & 2047] ?? 0) | (1 << (hash & 31));
  return bits;
}

/** False when no hash of the set `bits` was made from is `hash`; true when one may be. */
export function mayHoldHash(bits: Uint32Array, hash: number): boolean {
  return ((bits[(hash >>> 5) & 2047] ?? 0) & (1 << (hash & 31))) !== 0;
}
