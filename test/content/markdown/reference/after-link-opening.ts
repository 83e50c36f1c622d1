// The link-opening search as it was before LinkOpenings (markdown-screen.ts, issue 41 round 11's cost shape): each
// mark rescanned its line from its start. Kept as the reference the one-pass reading is tested against.

// a `](` or `]:` before `at`, on its line or the line before (a destination starts after at most one line break);
// `definition`: only a `]:` whose destination may start with the scheme that ends at `at`
export function afterLinkOpening(bytes: Uint8Array, at: number, definition = false): boolean {
  const from = lineStart(bytes, previousLineEnd(bytes, lineStart(bytes, at)));
  for (let i = bytes.indexOf(0x5d, from); i !== -1 && i < at; i = bytes.indexOf(0x5d, i + 1)) {
    const next = bytes[i + 1];
    if (definition ? next === 0x3a && mayStartScheme(bytes, i + 2, at) : next === 0x28 || next === 0x3a) return true;
  }
  return false;
}

// whether every byte from `from` to `at` may stand before a scheme's end in a destination as some renderer and the
// url parser read it: white space, controls and a block quote's `>` (taken off or dropped), a `<` (an angle-bracket
// destination), a scheme's letters, digits, `+`, `-` and `.`, a character reference's `&`, `#` and `;`, a backslash
// (an escape), or any byte outside ASCII (Unicode spaces a renderer may trim)
function mayStartScheme(bytes: Uint8Array, from: number, at: number): boolean {
  for (let i = from; i < at; i++) {
    const b = bytes[i] ?? 0;
    if (b <= 0x20 || b >= 0x7f || isAsciiLetter(b) || (b >= 0x30 && b <= 0x39)) continue;
    // + - . & # ; \ < >
    if (b === 0x2b || b === 0x2d || b === 0x2e || b === 0x26 || b === 0x23 || b === 0x3b) continue;
    if (b === 0x5c || b === 0x3c || b === 0x3e) continue;
    return false;
  }
  return true;
}

// where the line holding `at` starts: after the last line break (`\n` or `\r`) before it
function lineStart(bytes: Uint8Array, at: number): number {
  if (at <= 0) return 0;
  return Math.max(bytes.lastIndexOf(0x0a, at - 1), bytes.lastIndexOf(0x0d, at - 1)) + 1;
}

// a position on the line before the one starting at `start` (its last byte before the break; `\r\n` is one break)
function previousLineEnd(bytes: Uint8Array, start: number): number {
  let end = start - 1;
  if (end > 0 && bytes[end] === 0x0a && bytes[end - 1] === 0x0d) end--;
  return Math.max(0, end);
}

function isAsciiLetter(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}
