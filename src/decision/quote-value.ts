/** Longest user value quoted into a reason message, in UTF-16 code units. */
export const maxQuotedChars = 120;

// controls, line and paragraph separators and every invisible format character (soft hyphen, zero-width, bidi marks
// and overrides as in CVE-2021-42574, Unicode TAG characters) that would hide part of a value from its reader; and the
// backtick with the two characters NFKC folds to it (U+1FEF, U+FF40: they close the quote to a reader or a renderer
// that folds, so a server's text after them reads as the gate's own)
const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}`\u1fef\uff40]/gu;
const unsafeOne = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}`\u1fef\uff40]/u;

/** A user value for a one-line message: control and format characters escaped, backticks (and their NFKC lookalikes) replaced, cut at `maxQuotedChars`. */
export function quoteValue(value: string): string {
  const cut = value.length > maxQuotedChars ? `${value.slice(0, maxQuotedChars - 1)}…` : value;
  // most values (hosts, schemes, server ids) are printable ASCII: skip the regex replace and its callback
  return `\`${needsEscape(cut) ? cut.replace(unsafe, escapeChar) : cut}\``;
}

/** A user value for a terminal line, unquoted: control and format characters escaped as `\uXXXX`, nothing cut. */
export function escapeInvisible(value: string): string {
  return needsEscape(value) ? value.replace(unsafeInvisible, escapeChar) : value;
}

const unsafeInvisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x60 || c > 0x7e) return unsafeOne.test(text);
  }
  return false;
}

function escapeChar(c: string): string {
  if (c === '`' || c === '\u1fef' || c === '\uff40') return "'";
  const code = c.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
