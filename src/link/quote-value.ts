/** Longest user value quoted into a reason message, in UTF-16 code units. */
export const maxQuotedChars = 120;

/** A user value for a one-line message: control characters escaped, backticks replaced, cut at `maxQuotedChars`. */
export function quoteValue(value: string): string {
  const cut = value.length > maxQuotedChars ? `${value.slice(0, maxQuotedChars - 1)}…` : value;
  const clean = cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029`]/g, (c) =>
    c === '`' ? "'" : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `\`${clean}\``;
}
