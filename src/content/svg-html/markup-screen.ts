// The screen in front of the HTML and markdown parsers: the parsers cost far more than the bytes take to decode, so
// bytes pass a test first for what every active construct the parsers can report needs to be spelled at all. Bytes
// that spell none of them have nothing for the parsers to find; the screen never decides that anything is active.
// It takes the browser's reading as an option:
// - `text` (a page, markdown, the HTML of a rendered page): a `<script`, `<object`, `<embed`, `<applet`,
//   `<handler`, `<listener`, `<hta:` or `<style` tag, or `<iframe`, `<frame`, `<form`, `<meta`, `<base` or `<param`; an
//   attribute with a value (`=`) whose name holds `on` or is `style`, `srcdoc` or `attributeName`; or a script or
//   `data:` scheme, which the parsers decode from character references (only numeric ones, `&Tab;` and
//   `&NewLine;` can put letters, tabs or newlines in it; no named reference spells a letter), backslash escapes
//   (markdown), tabs and newlines (dropped by the URL parser) and markdown's container marks at the start of a
//   line (taken off before HTML is rendered).
// - `sniffed` (binary bytes a sniffing browser opens as a page, an image's pixels): binary data passes the text
//   reading almost always (`on…=` and `&#` turn up by chance), and parsing megabytes of it costs seconds, so this
//   reading asks for what a browser runs in bytes that are not text, spelled out: an element that runs script or
//   loads a plugin (the tags above up to `<frame`), a handler under a name a browser runs (`on` and ASCII letters,
//   after white space, `/` or a quote, before `=`), an attribute holding a document or script (`srcdoc`, `style`,
//   `attributeName` before `=`), or a url scheme that runs script or a document (a `:` after `t`, `a`, a tab, a
//   newline or a `;`, `&colon`, or any numeric character reference in a run of text, any of which may end or spell
//   `javascript:`, `vbscript:`, `livescript:` or `data:`; sniffed-triggers.ts reads the run as the url parser does).
import { nextByte, spellsAt } from '../ascii-bytes.ts';
import { pairSites } from '../text/byte-sites.ts';

/** How the bytes reach the parsers: as text (`text`), or as binary a sniffing browser opens as a page (`sniffed`). */
export type MarkupReading = 'text' | 'sniffed';

const words = (list: readonly string[]): Buffer[] => list.map((w) => Buffer.from(w, 'latin1'));

// every element the parsers report starts `<name`; a sniffed page is asked only for those that run script or a plugin
const sniffedTags = words([
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
]);
// `frameset` is found as `frame` here; named for a reading that asks for whole tag names. A `param` with a value is
// a plugin's url by itself (active-html.ts): the `object` it belongs to may name nothing, or stand in another body
const textTags = [...sniffedTags, ...words(['form', 'meta', 'base', 'frameset', 'param'])];
// the sniffed tags by their first letter: most bytes after a `<` in binary data start none of them
const sniffedTagsByFirst: readonly (readonly Buffer[] | undefined)[] = Array.from({ length: 128 }, (_, c) => {
  const starting = sniffedTags.filter((w) => w[0] === c);
  return starting.length === 0 ? undefined : starting;
});
// the text tags by their first letter: most bytes after a `<` start none of them (8 MiB of `<a`)
const textTagsByFirst: readonly (readonly Buffer[] | undefined)[] = Array.from({ length: 128 }, (_, c) => {
  const starting = textTags.filter((w) => w[0] === c);
  return starting.length === 0 ? undefined : starting;
});
const letterReferences = words(['&#', '&tab;', '&newline;']);
// attributes the parsers report by name: `on*` handlers, and these three by their exact name
const namedAttributes = words(['style', 'srcdoc', 'attributename']);
const on = Buffer.from('on', 'latin1');
const colonName = Buffer.from('colon', 'latin1');

/** Where the `text` reading's triggers may stand for the parser to report them: `tag(end)` for an active tag's name that a `<` starts and that ends before `end`, `attribute(at)` for the `=` at `at` (the first byte its name may start at, -1 when it is no attribute), `url(at)` for a scheme's mark (`:`, `&`, `\`) or a character reference that may spell one at `at`; a trigger ruled out is text. */
export interface MarkupPlaces {
  tag: (end: number) => boolean;
  attribute: (equals: number) => number;
  url: (mark: number) => boolean;
}

const anywhere: MarkupPlaces = { tag: () => true, attribute: () => 0, url: () => true };

/** The bytes every trigger of the `text` reading is found at (`<`, `&`, `=`, `:`, `\`): text holding none of them has nothing for the parsers to find. */
export const textReadingMarks: readonly number[] = [0x3c, 0x26, 0x3d, 0x3a, 0x5c];

/** The screen in front of the HTML and markdown parsers: true when the text may hold something they report. Linear; native searches first. */
export function mayHoldActiveMarkup(text: string): boolean {
  return mayHoldActiveMarkupUtf8(Buffer.from(text, 'utf8'));
}

/** Work a screen did beyond its pass over the bytes, for a caller that charges it (markdown/active-markdown.ts): the marks it looked at (`<`, `&`, `=`, `:`, `\`, each a look at the bytes around it). */
export interface ScreenWork {
  marks: number;
  /** lines read besides (the markdown screen's readings of indented code and html blocks) */
  lines?: number;
}

/** `mayHoldActiveMarkup` of the bytes as `reading` reads them (default: UTF-8 text); every trigger is ASCII, so it is found as bytes (native searches for its first byte, then a look at the bytes around it) without decoding. `places` (the `text` reading): where its triggers may stand in what the parser reads (default: anywhere). `work`: counts the marks the `text` reading looked at. */
export function mayHoldActiveMarkupUtf8(
  bytes: Buffer,
  reading: MarkupReading = 'text',
  places: MarkupPlaces = anywhere,
  work: ScreenWork = { marks: 0 },
): boolean {
  // binary bytes hold every mark many times over (each about once in 256 bytes): the sniffed reading's triggers are
  // each looked for only at the offsets where the pair of bytes it starts with stands (byte-sites.ts)
  if (reading === 'sniffed') {
    // an indexed loop: a `for…of` over the sites made an iterator result per site (~80 bytes of garbage each, 9,000
    // sites in 8 MiB of pixels) in a loop that runs once per body, mostly before it is optimized
    const sites = pairSites(bytes);
    for (let i = 0; i < sites.length; i++) if (sniffedTriggerAt(bytes, sites[i] as number)) return true;
    return false;
  }
  return (
    anyMark(
      bytes,
      0x3c,
      (at) => {
        const tags = textTagsByFirst[((bytes[at + 1] ?? 0) | 0x20) & 0x7f];
        return tags !== undefined && tags.some((w) => spellsAt(bytes, at + 1, w) && places.tag(at + 1 + w.length));
      },
      work,
    ) ||
    anyMark(bytes, 0x26, (at) => letterReferences.some((w) => spellsAt(bytes, at, w)) && places.url(at), work) ||
    anyEquals(bytes, places, work) ||
    anyMark(bytes, 0x3a, (at) => schemeBefore(bytes, at) && places.url(at), work) ||
    anyMark(bytes, 0x26, (at) => schemeBefore(bytes, at) && places.url(at), work) ||
    anyMark(bytes, 0x5c, (at) => schemeBefore(bytes, at) && places.url(at), work)
  );
}

/** Marks in `marked` (one byte per byte of `bytes`, set to 1) every place a trigger of the `text` reading stands, read anywhere (no `places`): the offset of its mark (`<`, `&`, `=`, `:`, `\`). A stretch of the bytes marked nowhere passes nothing read on its own either: each trigger it holds reads only bytes within it, which are these bytes, and stands where this reading finds one. Linear. */
export function markTextTriggers(bytes: Buffer, marked: Uint8Array, work: ScreenWork = { marks: 0 }): void {
  for (let at = nextByte(bytes, 0x3c, 0); at !== -1; at = nextByte(bytes, 0x3c, at + 1)) {
    work.marks++;
    const tags = textTagsByFirst[((bytes[at + 1] ?? 0) | 0x20) & 0x7f];
    if (tags !== undefined && tags.some((w) => spellsAt(bytes, at + 1, w))) marked[at] = 1;
  }
  for (let at = nextByte(bytes, 0x3d, 0); at !== -1; at = nextByte(bytes, 0x3d, at + 1)) {
    work.marks++;
    if (textNameBefore(bytes, at, 0)) marked[at] = 1;
  }
  for (const mark of [0x3a, 0x5c, 0x26])
    for (let at = nextByte(bytes, mark, 0); at !== -1; at = nextByte(bytes, mark, at + 1)) {
      work.marks++;
      const reference = mark === 0x26 && letterReferences.some((w) => spellsAt(bytes, at, w));
      if (reference || schemeBefore(bytes, at)) marked[at] = 1;
    }
}

/**
 * Whether a trigger of the `sniffed` reading starts at the pair at `at`: `<` and a tag that runs script or a plugin,
 * `&#` and a numeric reference, `&colon`, a `:` at `at + 1` after a scheme's last letter or what the url parser drops
 * or a reference ends with (tab, newline, `;`: the run is read as the url parser reads it by the caller,
 * sniffed-triggers.ts), or a handler or named attribute before an `=` at `at + 1`. Every trigger has such a pair
 * (`pairSites` lists them all).
 */
export function sniffedTriggerAt(bytes: Uint8Array, at: number): boolean {
  const b = bytes[at];
  const next = bytes[at + 1];
  return (
    (b === 0x3c && next !== undefined && tagAt(bytes, at + 1, sniffedTagsByFirst[(next | 0x20) & 0x7f])) ||
    (b === 0x26 && next === 0x23 && numericReference(bytes, at + 2)) ||
    (b === 0x26 && spellsAt(bytes, at + 1, colonName)) ||
    (next === 0x3a && b !== undefined && mayEndScheme(b)) ||
    (next === 0x3d && sniffedNameBefore(bytes, at + 1))
  );
}

// the byte before a scheme's `:`: the last letter of `javascript`, `vbscript`, `livescript` or `data` (either case),
// a tab or newline (the url parser drops them: `java⏎script:`), or the `;` of a reference (`java&Tab;script&Tab;:`)
function mayEndScheme(b: number): boolean {
  const lower = b | 0x20;
  return lower === 0x74 || lower === 0x61 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x3b;
}

function tagAt(bytes: Uint8Array, at: number, tags: readonly Buffer[] | undefined): boolean {
  if (tags === undefined) return false;
  for (const tag of tags) if (spellsAt(bytes, at, tag)) return true;
  return false;
}

// a `mark` byte for which `holds` is true, found by native search
function anyMark(bytes: Buffer, mark: number, holds: (at: number) => boolean, work: ScreenWork): boolean {
  for (let at = nextByte(bytes, mark, 0); at !== -1; at = nextByte(bytes, mark, at + 1)) {
    work.marks++;
    if (holds(at)) return true;
  }
  return false;
}

// an `=` whose attribute name (read back from it) the reading reports; one loop, no closure per `=` (an 8 MiB icon
// sheet holds 350,000 of them, and a closure and a `some` per `=` was a fifth of its read)
function anyEquals(bytes: Buffer, places: MarkupPlaces, work: ScreenWork): boolean {
  const everywhere = places === anywhere;
  for (let at = nextByte(bytes, 0x3d, 0); at !== -1; at = nextByte(bytes, 0x3d, at + 1)) {
    work.marks++;
    if (textNameBefore(bytes, at, everywhere ? 0 : places.attribute(at))) return true;
  }
  return false;
}

// Text: an attribute the parsers report has a value, so its name is followed by HTML white space and `=`. Before
// the `=`, white space is skipped (and `>`, which a markdown block quote puts at the start of a line of raw HTML and
// the renderer takes away), then the run of attribute-name bytes (anything but white space, `/`, `>` and `=`); the
// name the HTML tokenizer reads is a tail of that run (a quote ends an attribute value and may start the next name
// with no space). The run holding `on`, or ending in a named attribute, may be reported. Each `=` reads back only to
// the byte before it that ends a name (an `=` among them), so all of them together read each byte at most twice.
// `from`: the first byte the name may start at (-1: the `=` is no attribute's).
function textNameBefore(bytes: Buffer, equals: number, from: number): boolean {
  if (from === -1) return false;
  let end = equals;
  while (end > from && (isHtmlSpace(bytes[end - 1] ?? 0) || bytes[end - 1] === 0x3e)) end--;
  let start = end;
  while (start > from && !endsName(bytes[start - 1] ?? 0)) start--;
  // a named attribute ends in `e` (`style`, `attributename`) or `c` (`srcdoc`)
  const last = (bytes[end - 1] ?? 0) | 0x20;
  if (last === 0x65 || last === 0x63) {
    for (let k = 0; k < namedAttributes.length; k++) {
      const w = namedAttributes[k] as Buffer;
      if (end - w.length >= start && spellsAt(bytes, end - w.length, w)) return true;
    }
  }
  for (let i = start; i + 1 < end; i++)
    if (((bytes[i] ?? 0) | 0x20) === 0x6f && ((bytes[i + 1] ?? 0) | 0x20) === 0x6e) return true;
  return false;
}

// Sniffed: before the `=` (white space skipped), a handler name (`on` and letters, after white space, `/` or a
// quote) or one of the attributes whose value is a document, css or a handler's name, in ASCII letters
function sniffedNameBefore(bytes: Uint8Array, equals: number): boolean {
  let end = equals;
  while (end > 0 && isHtmlSpace(bytes[end - 1] ?? 0)) end--;
  let start = end;
  while (start > 0 && isLetter(bytes[start - 1] ?? 0)) start--;
  // a handler's name is three letters or more, a named attribute's five or more
  if (end - start < 3) return false;
  for (let i = 0; i < namedAttributes.length; i++) {
    const name = namedAttributes[i] as Buffer;
    if (name.length === end - start && spellsAt(bytes, start, name)) return true;
  }
  if (end - start < 3 || !spellsAt(bytes, start, on)) return false;
  const before = bytes[start - 1] ?? 0x20;
  return isHtmlSpace(before) || before === 0x2f || before === 0x22 || before === 0x27;
}

function isHtmlSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d;
}

function isLetter(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}

function endsName(b: number): boolean {
  return isHtmlSpace(b) || b === 0x2f || b === 0x3e || b === 0x3d;
}

// a mark (a scheme's `:`, the `&` of `&colon;`, markdown's `\:`) right after `script` or `data`: a `\` only before a
// `:` (markdown unescapes `\:` alone; `data\_object` is text), and `data` only where a scheme may start with it, not
// after a letter, digit, `+`, `-` or `.` that the url parser takes into the scheme (`KeyObjectData::` names the scheme
// `keyobjectdata`, `ICU_DATA:` none)
function schemeBefore(bytes: Buffer, at: number): boolean {
  if (bytes[at] === 0x5c && bytes[at + 1] !== 0x3a) return false;
  if (spelledBefore(bytes, at, 'script')) return true;
  const start = spelledFrom(bytes, at, 'data');
  return start !== -1 && !continuesScheme(bytes, start);
}

// where the letters of `word` (lower-case) that end at `at` start, as `spelledBefore` reads them; -1 when they do not
function spelledFrom(bytes: Buffer, at: number, word: string): number {
  let i = at - 1;
  for (let k = word.length - 1; k >= 0; k--) {
    while (i >= 0 && isDroppedBetweenLetters(bytes[i] ?? 0)) i--;
    if (i < 0 || ((bytes[i] ?? 0) | 0x20) !== word.charCodeAt(k)) return -1;
    i--;
  }
  return i + 1;
}

// whether the byte before `start`, past the tabs and line breaks the url parser drops, is one a scheme holds (an ASCII
// letter or digit, `+`, `-`, `.`), so the scheme that ends at the mark is a longer one, or a backtick (a markdown code
// span's: a url that starts with one has no scheme, in a destination or an attribute, and no renderer strips it)
function continuesScheme(bytes: Buffer, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && (bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i--;
  const c = bytes[i];
  if (c === undefined) return false;
  const lower = c | 0x20;
  return (
    (lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e || c === 0x60
  );
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

// `&#` then decimal digits or `x` and hex digits, in a run of text: a scheme a reference spells (`&#100ata:`, the
// shortest) is at least 8 printable bytes, tabs and newlines (which the url parser drops: `&#106;⏎avascript:`) aside,
// as the url parser takes no other bytes into a scheme
function numericReference(bytes: Uint8Array, from: number): boolean {
  for (let k = from - 2; k < from + 6; k++) {
    const c = bytes[k] ?? 0;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c > 0x7e) return false;
  }
  const b = bytes[from] ?? 0;
  const digit = (c: number): boolean => c >= 0x30 && c <= 0x39;
  const hex = (c: number): boolean => digit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
  if (digit(b)) return digit(bytes[from + 1] ?? 0);
  return (b === 0x78 || b === 0x58) && hex(bytes[from + 1] ?? 0) && hex(bytes[from + 2] ?? 0);
}
