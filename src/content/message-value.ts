// Reason messages are one line and quote user values in backticks (STYLE: message grammar); values come
// from untrusted bytes and servers, so they are made printable and short before they are quoted.

/** Longest user value quoted in a message, characters. */
export const maxQuotedChars = 120;

/** Quotes an untrusted value for a one-line message: backticks around it, controls and backticks inside replaced by `?`, cut at `maxQuotedChars`. */
export function quoteValue(value: string, maxChars: number = maxQuotedChars): string {
  // replacing one code unit by one keeps lengths, so cutting first gives the same text without reading all of it
  const head = value.length > maxChars ? value.slice(0, maxChars) : value;
  const printable = head.replace(/[\u0000-\u001f\u007f-\u009f`\u2028\u2029]/g, '?');
  return `\`${printable}${value.length > maxChars ? '…' : ''}\``;
}
