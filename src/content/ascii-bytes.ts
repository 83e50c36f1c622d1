// ASCII words found in bytes (UTF-8 or Latin-1 text) without decoding them.

/** True when the bytes at `at` spell `word` (lower-case ASCII), ASCII case-insensitive. */
export function spellsAt(bytes: Uint8Array, at: number, word: Uint8Array): boolean {
  if (at < 0 || at + word.length > bytes.length) return false;
  for (let k = 0; k < word.length; k++) {
    const b = bytes[at + k] ?? 0;
    const w = word[k] ?? 0;
    if (b !== w && !(w >= 0x61 && w <= 0x7a && b === w - 0x20)) return false;
  }
  return true;
}

/** The first offset at or after `from` holding byte `b`, -1 for none: the next few bytes are looked at one by one before a native search, so a body dense with `b` (8 MiB of `[`) costs a loop, not a native call per byte. */
export function nextByte(bytes: Uint8Array, b: number, from: number): number {
  const near = Math.min(bytes.length, from + 32);
  for (let at = from; at < near; at++) if (bytes[at] === b) return at;
  return near < bytes.length ? bytes.indexOf(b, near) : -1;
}
