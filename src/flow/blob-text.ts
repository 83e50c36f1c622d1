import { isUtf8 } from 'node:buffer';

// A text blob (an embedded resource's or a read's `blob`, base64) reaches the model as its text: a host decodes a
// text/plain blob and shows it, and a model reads base64 anyway. The address search reads every string that is base64
// of text as that text too; base64 of binary bytes (an image, audio, an archive) is searched as written only, so an
// ordinary image costs no more than before and cannot be taken for an address by chance.

/** Shortest string read as base64: four characters are three bytes, the shortest address searched for. */
const minBase64Chars = 4;
/** Characters of a string's start decoded first: binary bytes show there (an image's header), so most are let go. */
const headChars = 4096;

/**
 * The text `text` holds as base64 (either alphabet, line breaks allowed), as a host hands a text blob to the model:
 * its bytes as UTF-8 (a byte that is not becomes U+FFFD, so latin-1 text keeps its ASCII); null when `text` is not
 * base64, or its bytes are not text: not UTF-8, and holding a control character no text holds (NUL, the other C0
 * controls but tab, line breaks, form feed and escape) or less than three quarters ASCII.
 */
export function blobText(text: string): string | null {
  if (text.length < minBase64Chars || notBase64.test(text)) return null;
  if (text.length > headChars && notText(Buffer.from(text.slice(0, headChars), 'base64'))) return null;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || notText(bytes)) return null;
  return bytes.toString('utf8');
}

const notBase64 = /[^A-Za-z0-9+/=_\-\r\n]/;

// whether `bytes` are not UTF-8 and hold a control character no text holds, or are less than three quarters ASCII (a
// word of prose decodes to a few bytes of that sort: it is let go, not searched as noise)
function notText(bytes: Uint8Array): boolean {
  if (isUtf8(bytes)) return false;
  let ascii = 0;
  for (const byte of bytes) {
    if (byte < 0x20 && !textControl[byte]) return true;
    if (byte < 0x80) ascii += 1;
  }
  return ascii * 4 < bytes.length * 3;
}

// tab, line feed, vertical tab, form feed, carriage return, escape
const textControl: readonly boolean[] = Array.from(
  { length: 0x20 },
  (_, c) => c === 0x09 || c === 0x0a || c === 0x0b || c === 0x0c || c === 0x0d || c === 0x1b,
);
