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
