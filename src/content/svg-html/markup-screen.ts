// The screen in front of the HTML and markdown parsers, and of the HTML parse of a rendered page. The parsers cost far more than the bytes take to decode, so text passes a screen first: a test for what
// every active construct the parsers can report needs to be spelled in the text at all. A `<script`,
// `<object`, `<embed`, `<applet`, `<handler`, `<listener`, `<hta:` or `<style` tag, or (in a rendered page)
// `<iframe`, `<frame`, `<form`, `<meta` or `<base`; an attribute with a value
// (`=`) whose name starts `on` or is `style`, `srcdoc` or `attributeName`; or a script or `data:` scheme, which the parsers decode
// from character references (only numeric ones, `&Tab;` and `&NewLine;` can put letters, tabs or newlines in
// it; no named reference spells a letter), backslash escapes (markdown), tabs and newlines (dropped by the
// URL parser) and markdown's container marks at the start of a line (taken off before HTML is rendered). Text that spells none of them has nothing for the parsers to find; the screen never
// decides that anything is active.
import { spellsAt } from '../ascii-bytes.ts';

// every element the parsers report starts `<name`
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
  'form',
  'meta',
  'base',
].map((w) => Buffer.from(w, 'latin1'));
const letterReferences = ['&#', '&tab;', '&newline;'].map((w) => Buffer.from(w, 'latin1'));
// attributes the parsers report by name: `on*` handlers, and these three by their exact name
const namedAttributes = ['style', 'srcdoc', 'attributename'].map((w) => Buffer.from(w, 'latin1'));
const on = Buffer.from('on', 'latin1');

/** The screen in front of the HTML and markdown parsers: true when the text may hold something they report. Linear; native searches first. */
export function mayHoldActiveMarkup(text: string): boolean {
  return mayHoldActiveMarkupUtf8(Buffer.from(text, 'utf8'));
}

/** `mayHoldActiveMarkup` of the text that UTF-8 `bytes` hold: every trigger is ASCII, so it is found as bytes (native searches for its first byte, then a look at the bytes around it) without decoding the text. */
export function mayHoldActiveMarkupUtf8(bytes: Buffer): boolean {
  return (
    anyAfter(bytes, 0x3c, 1, activeTags) ||
    anyAfter(bytes, 0x26, 0, letterReferences) ||
    attributeWithValue(bytes) ||
    schemeBefore(bytes, 0x3a) ||
    schemeBefore(bytes, 0x26) ||
    schemeBefore(bytes, 0x5c)
  );
}

// a `mark` byte followed (`skip` bytes on) by one of `words`, ASCII case-insensitive
function anyAfter(bytes: Buffer, mark: number, skip: number, words: readonly Buffer[]): boolean {
  for (let at = bytes.indexOf(mark); at !== -1; at = bytes.indexOf(mark, at + 1))
    if (words.some((w) => spellsAt(bytes, at + skip, w))) return true;
  return false;
}

// An attribute the parsers report has a value, so its name is followed by HTML white space and `=`. Before each
// `=`, white space is skipped (and `>`, which a markdown block quote puts at the start of a line of raw HTML and
// the renderer takes away), then the run of attribute-name bytes (anything but white space, `/`, `>` and `=`);
// the name the HTML tokenizer reads is a tail of that run (a quote ends an attribute value and may start the
// next name with no space). The run holding `on`, or ending in a named attribute, may be reported.
function attributeWithValue(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(0x3d); at !== -1; at = bytes.indexOf(0x3d, at + 1)) {
    let end = at;
    while (end > 0 && (isHtmlSpace(bytes[end - 1] ?? 0) || bytes[end - 1] === 0x3e)) end--;
    let start = end;
    while (start > 0 && !endsName(bytes[start - 1] ?? 0)) start--;
    if (namedAttributes.some((w) => spellsAt(bytes, end - w.length, w) && end - w.length >= start)) return true;
    for (let i = start; i + 1 < end; i++) if (spellsAt(bytes, i, on)) return true;
  }
  return false;
}

function isHtmlSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d;
}

function endsName(b: number): boolean {
  return isHtmlSpace(b) || b === 0x2f || b === 0x3e || b === 0x3d;
}

// a `mark` (a scheme's `:`, the `&` of `&colon;`, markdown's `\:`) right after `script` or `data`
function schemeBefore(bytes: Buffer, mark: number): boolean {
  for (let at = bytes.indexOf(mark); at !== -1; at = bytes.indexOf(mark, at + 1))
    if (spelledBefore(bytes, at, 'script') || spelledBefore(bytes, at, 'data')) return true;
  return false;
}

// the letters of `word` (lower-case) end at `at`, ASCII case-insensitive, with tabs and newlines anywhere
// between them (the URL parser drops those), and spaces and `>` too: markdown takes a block quote's `>` and a
// list item's indent off each line of raw HTML, so `javasc⏎> ript:` renders as `javasc⏎ript:`
function spelledBefore(bytes: Buffer, at: number, word: string): boolean {
  let i = at - 1;
  for (let k = word.length - 1; k >= 0; k--) {
    while (i >= 0 && isDroppedBetweenLetters(bytes[i] ?? 0)) i--;
    if (i < 0 || ((bytes[i] ?? 0) | 0x20) !== word.charCodeAt(k)) return false;
    i--;
  }
  return true;
}

function isDroppedBetweenLetters(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20 || c === 0x3e;
}
