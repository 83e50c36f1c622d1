// The screen in front of reading a binary file as HTML (an image a sniffing browser opens as a page). Binary data
// passes the text screen almost always (`on…=` and `&#` turn up by chance), and parsing megabytes of it costs
// seconds, so this one asks for what a browser runs in bytes that are not text, spelled out: an element that runs
// script or loads a plugin (`<script`, `<object`, …), a handler under a name a browser runs (`on` and ASCII letters,
// after white space, `/` or a quote, before `=`), an attribute holding a document or script (`srcdoc`, `style`,
// `attributeName` before `=`), or a url scheme that runs script or a document (`javascript:`, `vbscript:`,
// `livescript:`, `data:`, or any numeric character reference, which may spell one). Bytes that spell none of them
// hold nothing `findActiveSniffedHtml` reports; the screen never decides that anything is active.
import { spellsAt } from './ascii-bytes.ts';

const word = (w: string): Buffer => Buffer.from(w, 'latin1');
const activeTags = [
  'script',
  'object',
  'embed',
  'applet',
  'handler',
  'listener',
  'hta:',
  'style',
  'iframe',
  'frame',
].map(word);
const valueAttributes = ['srcdoc', 'style', 'attributename'].map(word);
const schemes = ['javascript', 'vbscript', 'livescript', 'data'].map(word);
const on = word('on');

const isLetter = (b: number): boolean => (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d;

/** True when bytes read as HTML may hold what `findActiveSniffedHtml` reports; linear, native searches first. */
export function maySniffAsActiveHtml(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(0x3c); at !== -1; at = bytes.indexOf(0x3c, at + 1))
    if (activeTags.some((t) => spellsAt(bytes, at + 1, t))) return true;
  for (let at = bytes.indexOf(0x3d); at !== -1; at = bytes.indexOf(0x3d, at + 1))
    if (namedBefore(bytes, at)) return true;
  for (let at = bytes.indexOf(0x3a); at !== -1; at = bytes.indexOf(0x3a, at + 1))
    if (schemes.some((s) => spellsAt(bytes, at - s.length, s))) return true;
  for (let at = bytes.indexOf(0x26); at !== -1; at = bytes.indexOf(0x26, at + 1))
    if (bytes[at + 1] === 0x23 && numericReference(bytes, at + 2)) return true;
  return false;
}

// before an `=` (white space skipped): a handler name (`on` and letters, after white space, `/` or a quote) or one of
// the attributes whose value is a document, css or a handler's name
function namedBefore(bytes: Buffer, equals: number): boolean {
  let end = equals;
  while (end > 0 && isSpace(bytes[end - 1] ?? 0)) end--;
  let start = end;
  while (start > 0 && isLetter(bytes[start - 1] ?? 0)) start--;
  if (start === end) return false;
  if (valueAttributes.some((a) => a.length === end - start && spellsAt(bytes, start, a))) return true;
  if (end - start < 3 || !spellsAt(bytes, start, on)) return false;
  const before = bytes[start - 1] ?? 0x20;
  return isSpace(before) || before === 0x2f || before === 0x22 || before === 0x27;
}

// `&#` then decimal digits or `x` and hex digits, in a run of text: a scheme a reference spells (`&#100ata:`, the
// shortest) is at least 8 printable bytes, as the url parser takes no other bytes into a scheme
function numericReference(bytes: Buffer, from: number): boolean {
  for (let k = from - 2; k < from + 6; k++) {
    const c = bytes[k] ?? 0;
    if (c < 0x20 || c > 0x7e) return false;
  }
  const b = bytes[from] ?? 0;
  const digit = (c: number): boolean => c >= 0x30 && c <= 0x39;
  const hex = (c: number): boolean => digit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
  if (digit(b)) return digit(bytes[from + 1] ?? 0);
  return (b === 0x78 || b === 0x58) && hex(bytes[from + 1] ?? 0) && hex(bytes[from + 2] ?? 0);
}
