/** Longest user value quoted into a reason message, in UTF-16 code units. */
export const maxQuotedChars = 120;

// controls, line separators, and invisible format characters (soft hyphen, zero-width, bidi overrides as in
// CVE-2021-42574) that would hide part of a value from the person reading the message
const unsafe = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff`]/g;

/** A user value for a one-line message: control characters escaped, backticks replaced, cut at `maxQuotedChars`. */
export function quoteValue(value: string): string {
  const cut = value.length > maxQuotedChars ? `${value.slice(0, maxQuotedChars - 1)}…` : value;
  // most values (hosts, schemes, server ids) are clean: skip the regex replace and its callback
  return `\`${needsEscape(cut) ? cut.replace(unsafe, escapeChar) : cut}\``;
}

function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x60 || (c >= 0x7f && c <= 0x9f) || c === 0xad || c === 0xfeff) return true;
    if ((c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x2069)) return true;
  }
  return false;
}

function escapeChar(c: string): string {
  return c === '`' ? "'" : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
