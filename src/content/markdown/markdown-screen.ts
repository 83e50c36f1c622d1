// The screen in front of the markdown renderers: the markup screen's `text` reading (svg-html/markup-screen.ts),
// with its attribute trigger (`on…=`, `style=`, `srcdoc=`, `attributeName=`) counted only where a page a renderer
// makes may hold it inside a tag. Source code read as markdown (a `.d.ts` file) spells `options =` everywhere, and
// the five renderers cost it a second of parser time for nothing: outside a tag an `=` is text.
//
// Why an `=` outside every raw tag is text in every renderer's page. The HTML reader reads an attribute only inside
// a tag, and a tag starts at `<` and an ASCII letter (`</` and a letter for an end tag). In a rendered page a `<`
// is either one the renderer writes itself (its own elements, whose attribute values it escapes, `"` included) or
// a `<` of the source passed through as raw HTML; every other `<` is escaped. Raw HTML is passed through byte for
// byte within a line: an inline tag only when it is a whole tag by the renderer's grammar, an HTML block line by
// line (block quote marks and indents come off the start of a line only; a table splits cells and unescapes `\|`,
// and a tag split by a cell is no longer whole). So a raw tag that ends on its line, read as the HTML tokenizer
// reads it (quoted values and all), ends at that same `>` in every page. A tag whose line ends first may run on
// in a page past anything the source shows (an HTML block ends at a blank line and the renderer's own markup
// follows inside the tag), so everything after its `<` counts, as in the markup screen.
//
// Likewise a script or `data:` scheme (its `:`, `&colon;` or `\:`) is a url only where a renderer reads one: in a
// raw tag (an attribute, an autolink `<scheme:…>`, both tags above), or in a link's destination, which follows
// `](` (an inline link or image) or `]:` (a reference definition) after white space holding at most one line
// break, and holds none itself. GFM's bare autolinks make http(s), ftp, mailto and xmpp urls only. So a scheme
// counts inside a tag, or after a `](` or `]:` on its own line or the line before; `data: Buffer` in a
// declaration file is text. An active tag counts by its whole name as the tokenizer reads it (`<object>` does,
// `<FormData>` and `<Metadata>` do not). A character reference that may spell a scheme's letters (`&#`, `&Tab;`,
// `&NewLine;`) counts where a scheme does: elsewhere the renderers decode it into text and escape it again.
// test/content/markdown/markdown-screen.test.ts checks the screen against every real renderer.
import { spellsAt } from '../ascii-bytes.ts';
import { mayHoldActiveMarkupUtf8, type ScreenWork } from '../svg-html/markup-screen.ts';
import { type IndentedCode, indentedCode } from './indented-code.ts';
import { type HtmlBlockLines, htmlBlockLines, markedRawText, mayGoOnAsTag } from './raw-html-grammar.ts';
import { LinkOpenings } from './link-openings.ts';
import { MarkdownBytes } from './markdown-bytes.ts';

/** True when a page some markdown renderer makes of `text` may hold something the HTML reader reports: the markup screen, with an `=` counted only inside what may be a raw tag, and nothing counted on a line every renderer reads as indented code (before any tag a page may leave open). `work`: counts the marks it looked at (the tags it read, the screen's marks). `shared`: the text's bytes and line readings, kept for a later reader of the same text (the cutting). Linear; native searches first. */
export function mayHoldActiveMarkdown(
  text: string,
  work: ScreenWork = { marks: 0 },
  shared: MarkdownBytes = new MarkdownBytes(text),
): boolean {
  const bytes = shared.bytes;
  const tags = rawTagSpans(bytes, false, undefined, work, shared);
  const escaped = escapedAsCode(bytes, tags, work, shared);
  const openings = new LinkOpenings(bytes);
  let param: boolean | undefined;
  const spellsParam = (): boolean => {
    param ??= /<param/i.test(bytes.toString('latin1'));
    return param;
  };
  const tag = (end: number): boolean =>
    (bytes[end - 1] === 0x3a || endsTagName(bytes[end])) && !escaped(end) && reportable(bytes, tags, end, spellsParam);
  return mayHoldActiveMarkupUtf8(
    bytes,
    'text',
    {
      // the tokenizer's tag name runs to white space, `/` or `>`: `<FormData>` is no form (`hta:` is a prefix)
      tag,
      // in a tag that ends on its line, a name starts after its `<` (`JSONSchema<Value = any>` names no `on…`)
      attribute: (equals) => {
        const from = attributeFrom(bytes, tags, equals);
        return from === -1 || escaped(equals) ? -1 : from;
      },
      url: (mark) => (inSpan(tags, mark) || openings.before(mark)) && !escaped(mark),
    },
    work,
  );
}

// Elements the HTML reader reports only with certain attributes (active-html.ts): an `object` that names what it
// loads (or has a `<param>` with a value, which counts wherever one is spelled), an `embed` with a `src` or `code`, a
// meta refresh, a `param` with a value. Such a tag that ends on its line is passed on byte for byte or escaped, so its attributes are those
// its source spells between its `<` and `>`: with none of those names there, it reports nothing (`WeakSet<object>`
// of a declaration file, `<Meta = PluginContextMeta>`). A `<` in no span is escaped by every renderer; a tag that may
// run past its line counts (the renderer's own markup may add attributes inside it).
const attributeNamed: Readonly<Record<string, readonly string[]>> = {
  object: ['data', 'classid', 'codebase', 'archive'],
  embed: ['src', 'code'],
  meta: ['http-equiv'],
  param: ['value'],
};

// whether the active tag whose name ends at `end` may be reported as the page holds it; `param`: whether the text
// spells a `<param` anywhere (asked once)
function reportable(bytes: Buffer, tags: readonly number[], end: number, param: () => boolean): boolean {
  const lt = bytes.lastIndexOf(0x3c, end - 1);
  const name = bytes.toString('latin1', lt + 1, end).toLowerCase();
  const names = attributeNamed[name];
  if (names === undefined) return true;
  const span = spanAt(tags, lt);
  if (span === -1) return false;
  const to = tags[2 * span + 1] ?? bytes.length;
  if (to === bytes.length) return true;
  // a `<param>` may stand anywhere after the object (its children)
  if (name === 'object' && param()) return true;
  return names.some((w) => indexOfFolded(bytes, w, tags[2 * span] ?? 0, to + 1) !== -1);
}

// where `word` (lower-case ASCII letters and `-`) stands in `bytes` from `from` up to `to`, ASCII case-insensitive;
// -1 when it does not
function indexOfFolded(bytes: Buffer, word: string, from: number, to: number): number {
  const first = word.charCodeAt(0);
  for (let i = from; i + word.length <= to; i++) {
    if (((bytes[i] ?? 0) | 0x20) !== first) continue;
    let k = 1;
    while (k < word.length && ((bytes[i + k] ?? 0) | 0x20) === word.charCodeAt(k)) k++;
    if (k === word.length) return i;
  }
  return -1;
}

// whether the byte at `at` is text every renderer escapes as indented code (indented-code.ts): on such a line, off
// every line an html block may hold, and before a tag a page may leave open (`rawTagSpans`' last span, when it runs
// to the text's end: the renderers' own markup, and code text with it, may stand inside that tag)
function escapedAsCode(
  bytes: Uint8Array,
  tags: readonly number[],
  work: ScreenWork,
  shared: MarkdownBytes,
): (at: number) => boolean {
  const open = tags[tags.length - 1] === bytes.length ? (tags[tags.length - 2] ?? 0) : bytes.length;
  let code: IndentedCode | undefined;
  let blocks: HtmlBlockLines | undefined;
  return (at) =>
    at < open &&
    (code ??= linesOf(() => shared.indented, bytes, work)).holds(at) &&
    !(blocks ??= linesOf(() => shared.blocks, bytes, work)).holds(at);
}

// a reading of the text line by line (indented code, html blocks), its lines counted in `work`
function linesOf<T extends { readonly lines: number }>(
  read: (bytes: Uint8Array) => T,
  bytes: Uint8Array,
  work: ScreenWork,
): T {
  const reading = read(bytes);
  work.lines = (work.lines ?? 0) + reading.lines;
  return reading;
}

/** Whether the text may define a link reference (`[label]: destination`) whose destination is a script or `data:` url: a scheme's mark, or a character reference that may spell one, as `mayHoldActiveMarkdown` counts it (a tag and an attribute aside), where a destination may start with it: after a `]:` on its line or the line before, with nothing between that a url's scheme cannot start with (a `/`, `?` or `=` before it: `https://badgen.net/…?icon=data:…` is no `data:` url). A definition links its uses in any part of the text (markdown-parts.ts); one whose destination is inert makes inert links wherever they stand. `work`: counts the marks it looked at. Linear. */
export function mayDefineActiveReference(text: string, work: ScreenWork = { marks: 0 }): boolean {
  if (!text.includes(']:')) return false;
  const bytes = Buffer.from(text, 'utf8');
  const openings = new LinkOpenings(bytes);
  return mayHoldActiveMarkupUtf8(
    bytes,
    'text',
    { tag: () => false, attribute: () => -1, url: (mark) => openings.before(mark, true) },
    work,
  );
}

/** The spans (`<` to the `>` that ends it, flat pairs, in order, disjoint) of every tag the source may pass through raw, read as the HTML tokenizer reads a tag; one that may not end on its line spans to the end of the text, unless `acrossLines` and it surely ends before a blank line (`tagEnd`'s reading across lines). `code`: whether the `<` at a byte is surely code (asked in increasing order; a fenced code block's line in every reading), no tag. `work`: counts the `<`s read. `readings`: the text's indented code and html block lines when the caller read them already (counted in `work` where they would be read). */
export function rawTagSpans(
  bytes: Uint8Array,
  acrossLines = false,
  code?: (at: number) => boolean,
  work: ScreenWork = { marks: 0 },
  readings?: { indented: IndentedCode; blocks: HtmlBlockLines },
): number[] {
  const spans: number[] = [];
  let blocks: HtmlBlockLines | undefined;
  let indented: IndentedCode | undefined;
  let read = 0;
  let markedRaw: ((at: number) => boolean) | undefined;
  for (let at = bytes.indexOf(0x3c); at !== -1; at = bytes.indexOf(0x3c, at + 1)) {
    work.marks++;
    const name = bytes[at + 1] === 0x2f ? at + 2 : at + 1;
    if (!isAsciiLetter(bytes[name] ?? 0)) continue;
    // on a line every renderer reads as indented code (and no html block's) the `<` is escaped: no tag
    if (
      (indented ??= linesOf(readings ? () => readings.indented : indentedCode, bytes, work)).holds(at) &&
      !(blocks ??= linesOf(readings ? () => readings.blocks : htmlBlockLines, bytes, work)).holds(at)
    )
      continue;
    if (code?.(at) === true) continue;
    const end = tagEnd(bytes, name);
    if (end < 0) {
      // its line ends first: text to every renderer unless the line so far may be the start of a tag by the
      // renderers' grammar (one that goes on past the line), it may stand in an html block (raw line by line) or
      // marked may pass it on raw after a `<pre>`, `<code>` or `<kbd>` tag (raw-html-grammar.ts);
      // the lines read for such tags are counted, and past the text's length the rest counts (no quadratic read)
      read += ~end - at;
      const text =
        read <= bytes.length &&
        !(markedRaw ??= markedRawText(bytes))(at) &&
        !mayGoOnAsTag(bytes, at + 1) &&
        !(blocks ??= linesOf(readings ? () => readings.blocks : htmlBlockLines, bytes, work)).holds(at);
      if (text) continue;
      // read on across its lines, the tag may end before any blank line: no renderer ends its block inside it
      const far = acrossLines ? tagEnd(bytes, name, true) : -1;
      if (far >= 0) {
        read += far - at;
        spans.push(at, far);
        at = far;
        continue;
      }
      // a renderer may pass the line on as an html block and then write its own markup, or take marks off the
      // next line, inside this tag; everything after it counts
      spans.push(at, bytes.length);
      break;
    }
    // marked passes text on raw after a `<pre>`, `<code>` or `<kbd>` tag but still turns a backslash escape into an
    // entity (`\"` -> `&quot;`, `\>` -> `&gt;`), so a tag holding one does not end where it seems: everything after
    // it counts
    if (bytes.subarray(at, end).includes(0x5c) && (markedRaw ??= markedRawText(bytes))(at)) {
      spans.push(at, bytes.length);
      break;
    }
    spans.push(at, end);
    // a `<` inside this span is inside the tag, not the start of another
    at = end;
  }
  return spans;
}

// the HTML tokenizer's states in a start or end tag (WHATWG HTML, 13.2.5.8 to 13.2.5.40)
const Tag = {
  Name: 0,
  BeforeAttributeName: 1,
  AttributeName: 2,
  AfterAttributeName: 3,
  BeforeValue: 4,
  DoubleQuoted: 5,
  SingleQuoted: 6,
  Unquoted: 7,
  AfterQuotedValue: 8,
  SelfClosing: 9,
} as const;

// where the tag whose name starts at `from` ends (its `>`), read byte by byte as the HTML tokenizer reads it; when a
// line break or the end of the text comes first, `~lineEnd` (negative: -1 - where the line ends). `acrossLines`: a
// line break is white space, as the tokenizer reads it in a page, and the reading gives up (`~where`) at what a
// renderer may end its block at or change inside the tag: a blank line (an html block's end, a paragraph's), a line
// starting with `>` (a block quote's mark, taken off), a `\` (marked's escapes in raw text) or another `<` (a tag of
// its own when a renderer escapes this one)
function tagEnd(bytes: Uint8Array, from: number, acrossLines = false): number {
  let state: number = Tag.Name;
  for (let i = from; i < bytes.length; i++) {
    let b = bytes[i] ?? 0;
    if (b === 0x0a || b === 0x0d) {
      if (!acrossLines || !goesOnPast(bytes, i)) return ~i;
      b = 0x20;
    } else if (acrossLines && (b === 0x3c || b === 0x5c)) return ~i;
    const space = b === 0x20 || b === 0x09 || b === 0x0c;
    switch (state) {
      case Tag.Name:
        if (b === 0x3e) return i;
        if (space) state = Tag.BeforeAttributeName;
        else if (b === 0x2f) state = Tag.SelfClosing;
        break;
      case Tag.BeforeAttributeName:
        if (b === 0x3e) return i;
        if (b === 0x2f) state = Tag.SelfClosing;
        else if (!space) state = Tag.AttributeName;
        break;
      case Tag.AttributeName:
        if (b === 0x3e) return i;
        if (space) state = Tag.AfterAttributeName;
        else if (b === 0x2f) state = Tag.SelfClosing;
        else if (b === 0x3d) state = Tag.BeforeValue;
        break;
      case Tag.AfterAttributeName:
        if (b === 0x3e) return i;
        if (b === 0x2f) state = Tag.SelfClosing;
        else if (b === 0x3d) state = Tag.BeforeValue;
        else if (!space) state = Tag.AttributeName;
        break;
      case Tag.BeforeValue:
        if (b === 0x3e) return i;
        if (b === 0x22) state = Tag.DoubleQuoted;
        else if (b === 0x27) state = Tag.SingleQuoted;
        else if (!space) state = Tag.Unquoted;
        break;
      case Tag.DoubleQuoted:
        if (b === 0x22) state = Tag.AfterQuotedValue;
        break;
      case Tag.SingleQuoted:
        if (b === 0x27) state = Tag.AfterQuotedValue;
        break;
      case Tag.Unquoted:
        if (b === 0x3e) return i;
        if (space) state = Tag.BeforeAttributeName;
        break;
      case Tag.AfterQuotedValue:
        if (b === 0x3e) return i;
        state = b === 0x2f ? Tag.SelfClosing : space ? Tag.BeforeAttributeName : Tag.AttributeName;
        break;
      case Tag.SelfClosing:
        if (b === 0x3e) return i;
        if (b !== 0x2f) state = space ? Tag.BeforeAttributeName : Tag.AttributeName;
        break;
    }
  }
  return ~bytes.length;
}

// whether the line after the break at `at` goes on inside a tag in every renderer: neither blank nor starting with `>`
function goesOnPast(bytes: Uint8Array, at: number): boolean {
  let i = bytes[at] === 0x0d && bytes[at + 1] === 0x0a ? at + 2 : at + 1;
  while (bytes[i] === 0x20 || bytes[i] === 0x09) i++;
  const b = bytes[i];
  return b !== undefined && b !== 0x0a && b !== 0x0d && b !== 0x3e;
}

// the first byte an attribute name holding the `=` at `equals` may start at (the markup screen then asks whether a
// name there holds `on` or ends in a named attribute): the start of the text for a tag that runs to its end (a
// renderer's own markup may end a name anywhere in it); -1 outside every tag, and in a tag that ends on its line
// when no name the HTML tokenizer may read there is a handler's (`on…`) or a named attribute: such a tag is passed
// on byte for byte or not at all, and a name in it starts after white space, `/` or the quote that ends a value
// (`Options = {}` in a generic names no `on…`)
function attributeFrom(bytes: Buffer, spans: readonly number[], equals: number): number {
  const span = spanAt(spans, equals);
  if (span === -1) return -1;
  if (spans[2 * span + 1] === bytes.length) return 0;
  const from = (spans[2 * span] ?? 0) + 1;
  let end = equals;
  while (end > from && (isHtmlSpace(bytes[end - 1] ?? 0) || bytes[end - 1] === 0x3e)) end--;
  let start = end;
  while (start > from && !endsName(bytes[start - 1] ?? 0)) start--;
  for (let i = start; i < end; i++) {
    const quote = bytes[i - 1] === 0x22 || bytes[i - 1] === 0x27;
    if ((i === start || quote) && activeName(bytes, i, end)) return from;
  }
  return -1;
}

// the attributes the markup screen reports by name: a handler (`on…`) or `style`, `srcdoc`, `attributeName`
const on = Buffer.from('on', 'latin1');
const namedAttributes = ['style', 'srcdoc', 'attributename'].map((w) => Buffer.from(w, 'latin1'));

// whether the name from `start` to `end` is a handler's or a named attribute, ASCII case-insensitive
function activeName(bytes: Buffer, start: number, end: number): boolean {
  if (end - start >= 2 && spellsAt(bytes, start, on)) return true;
  return namedAttributes.some((w) => w.length === end - start && spellsAt(bytes, start, w));
}

function isHtmlSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d;
}

// what ends an attribute name for the HTML tokenizer: white space, `/`, `>`, `=`
function endsName(b: number): boolean {
  return isHtmlSpace(b) || b === 0x2f || b === 0x3e || b === 0x3d;
}

// whether `at` lies within one of `spans` (flat start, end pairs in order)
function inSpan(spans: readonly number[], at: number): boolean {
  return spanAt(spans, at) !== -1;
}

// which of `spans` (flat start, end pairs in order) `at` lies within, -1 for none: a binary search
function spanAt(spans: readonly number[], at: number): number {
  let low = 0;
  let high = spans.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const start = spans[2 * mid] ?? 0;
    const end = spans[2 * mid + 1] ?? 0;
    if (at < start) high = mid - 1;
    else if (at > end) low = mid + 1;
    else return mid;
  }
  return -1;
}

// a byte that ends a tag's name (white space, `/`, `>`), or the end of the text
function endsTagName(b: number | undefined): boolean {
  return (
    b === undefined || b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x2f || b === 0x3e
  );
}

function isAsciiLetter(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}
