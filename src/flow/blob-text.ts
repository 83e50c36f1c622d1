import { TextDecoder } from 'node:util';
import { familyOf, kindOfMime, normalizeMime } from '../content/kinds.ts';
import { decodeText, startsWithBom } from '../content/text/text-encoding.ts';

// A text blob (an embedded resource's or a read's `blob`, base64) reaches the model as its text: a host decodes a
// text/plain blob and shows it, and a model reads base64 anyway. The address search reads every string that is base64
// of text as that text too; base64 of binary bytes (an image, audio, an archive) is searched as written only, so an
// ordinary image costs no more than before and cannot be taken for an address by chance. Which bytes are text is the
// content layer's rule (`decodeText`: UTF-8, UTF-16 behind a byte order mark or by its zero bytes), read in the
// charset the blob declares when it names one, as a host or browser decodes it.

/** Shortest string read as base64: four characters are three bytes, the shortest address searched for. */
const minBase64Chars = 4;
/** Characters of a string's start decoded first: binary bytes show there (an image's header), so most are let go. */
const headChars = 4096;

/**
 * The text `text` holds as base64 (either alphabet, line breaks allowed), as a host hands a text blob to the model;
 * `declared`: the blob's declared type (`mimeType`, with its `charset` parameter), when it has one. Null when `text`
 * is not base64 or its bytes are not text (`bytesText`).
 */
export function blobText(text: string, declared?: string | null): string | null {
  if (text.length < minBase64Chars || notBase64.test(text)) return null;
  const charset = charsetOf(declared);
  // a blob declared as text is read whole; any other is let go by its start when that is not text
  if (text.length > headChars && charset === null && !declaresText(declared)) {
    const head = Buffer.from(text.slice(0, headChars), 'base64');
    if (bytesText(head.subarray(0, wholeUtf8(head)), null) === null) return null;
  }
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 0 ? null : bytesText(bytes, declared ?? null);
}

const notBase64 = /[^A-Za-z0-9+/=_\-\r\n]/;

/**
 * The text of each base64 run inside `text` (a `data:` url's body, a token in a sentence: at least 16 characters of
 * either alphabet, lines of it joined) whose bytes are text, as a model asked to decode it reads it, joined by spaces;
 * null when none is, or when `text` is base64 whole (`blobText` reads it). Linear: one regex pass, each run decoded
 * once.
 */
export function base64RunsText(text: string): string | null {
  if (!notBase64.test(text)) return null;
  let out: string[] | null = null;
  base64Run.lastIndex = 0;
  for (let run = base64Run.exec(text); run !== null; run = base64Run.exec(text)) {
    const decoded = runText(run[0]);
    if (decoded !== null) (out ??= []).push(decoded);
  }
  return out === null ? null : out.join(' ');
}

// the text of a base64 run, its lines read together (MIME); a word on the line before or after the base64 lines
// (`here:\n<lines>\nthanks`) is joined to the run by the pattern, so the run is read without it too (at most four
// decodings of it: linear)
function runText(run: string): string | null {
  const whole = blobText(run);
  if (whole !== null || !lineBreak.test(run)) return whole;
  const first = run.indexOf('\n');
  const last = run.lastIndexOf('\n');
  const tries = [run.slice(0, last), run.slice(first + 1)];
  if (last > first) tries.push(run.slice(first + 1, last));
  for (const cut of tries) {
    const decoded = blobText(cut);
    if (decoded !== null) return decoded;
  }
  return null;
}

const lineBreak = /\n/;
// a run of 16 or more base64 characters (12 bytes: shorter runs are words), its following lines joined
const base64Run = /[A-Za-z0-9+/_-]{16,}(?:\r?\n[A-Za-z0-9+/_-]+)*={0,2}/g;

/**
 * `bytes` as text, null when they are not: a byte order mark first (as WHATWG's decode reads it), then the charset
 * `declared` names (when a decoder knows it), then the content layer's reading (`decodeText`); bytes none of these
 * read are windows-1252 (as a browser reads text without a charset) when declared as text, or when they hold no
 * control character a text never holds and are three quarters ASCII (latin-1 text no type names: a model reading
 * the base64 reads its words). The UTF-8 reading is added to any other (a line between).
 */
function bytesText(bytes: Uint8Array, declared: string | null): string | null {
  const reading = declaredReading(bytes, declared);
  if (reading === null) return null;
  // a host or a model that decodes the bytes as UTF-8 (`Buffer.toString()`) reads them whatever the byte order mark,
  // the charset or the zero bytes say: that reading is searched too (a UTF-8 address behind `FF FE`)
  const utf8 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return utf8 === reading ? reading : `${reading}\n${utf8}`;
}

// the bytes as the blob's byte order mark, declared charset or the content layer's rule read them
function declaredReading(bytes: Uint8Array, declared: string | null): string | null {
  const charset = charsetOf(declared);
  if (charset !== null && !startsWithBom(bytes)) {
    const decoder = decoderFor(charset);
    if (decoder !== null) return decoder.decode(bytes);
  }
  const decoded = decodeText(bytes);
  if (decoded !== null) return decoded.text;
  return declaresText(declared) || singleByteText(bytes) ? windows1252.decode(bytes) : null;
}

const windows1252 = new TextDecoder('windows-1252');

// a decoder for a charset label (WHATWG's labels: `latin1`, `iso-8859-1`, `utf-16`, `shift_jis` …); null when unknown
function decoderFor(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label);
  } catch {
    // an unknown label is read as if none were declared
    return null;
  }
}

// the `charset` parameter of a declared type, lowercase, without quotes; null when there is none
function charsetOf(declared: string | null | undefined): string | null {
  if (declared === null || declared === undefined || !declared.includes(';')) return null;
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(declared)?.[1]?.toLowerCase() ?? null;
}

// whether a declared type names text: `text/*`, a kind of the text or markup family, or a `+json`/`+xml` type
function declaresText(declared: string | null | undefined): boolean {
  if (declared === null || declared === undefined) return false;
  const mime = normalizeMime(declared);
  if (mime.startsWith('text/') || /\+(?:json|xml)$/.test(mime)) return true;
  const family = familyOf(kindOfMime(mime)?.id ?? '');
  return family === 'text' || family === 'markup';
}

// latin-1 text: no control character text never holds (NUL, the other C0 controls but tab, line breaks, form feed
// and escape), at least three quarters ASCII (a word of prose decodes to a few bytes of that sort: let go, not
// searched as noise). Deliberately wider than the content layer's `decodeText`, which has no such rule: there, bytes
// not known to be text are judged as not text (every binary check applies: the narrow reading is the safe one); here
// a reading is only searched for refused addresses, so one more reading can only find more (the wide one is).
function singleByteText(bytes: Uint8Array): boolean {
  let ascii = 0;
  for (const byte of bytes) {
    if (byte < 0x20 && !textControl[byte]) return false;
    if (byte < 0x80) ascii += 1;
  }
  return ascii * 4 >= bytes.length * 3;
}

// tab, line feed, vertical tab, form feed, carriage return, escape
const textControl: readonly boolean[] = Array.from(
  { length: 0x20 },
  (_, c) => c === 0x09 || c === 0x0a || c === 0x0b || c === 0x0c || c === 0x0d || c === 0x1b,
);

// the length of `bytes` without a UTF-8 sequence cut at their end (a string's start decoded alone may cut one)
function wholeUtf8(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return need > back ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}
