// A text made only of CommonMark html blocks (and blank lines between them), a manual page sent as text/plain or
// markdown, is passed through by a CommonMark renderer as it stands: micromark spends 200–1,000 ns a character in its
// html flow on such a page (a libxslt manual page, 110 KB, 21–60 ms of CPU, charged 0.59 s and withheld), for output
// the text's own lines. `htmlBlocksPage` writes micromark's page of such a text without micromark, byte for byte what
// micromark with the GFM extensions writes (test/content/markdown/html-blocks-page.test.ts checks it against micromark
// on generated texts and the html pages of /usr/share/doc); the page is still read by parse5 as every page is.
//
// The blocks are recognised by CommonMark 0.31.2's seven start and end conditions (4.6), where micromark
// (micromark-core-commonmark 2, html-flow.js) reads them the same way; where the two may part, the text is not
// claimed and micromark renders it:
// - a block starts at no more than three spaces of indent (a tab makes indented code);
// - 1: `<pre`, `<script`, `<style`, `<textarea` followed by a space, a tab, `>` or the line's end, to a line holding
//   `</pre>`, `</script>`, `</style>` or `</textarea>`; 2: `<!--` to `-->`; 3: `<?` to `?>`; 4: `<!` and a letter
//   to `>`; 5: `<![CDATA[` to `]]>` (not claimed with `]]]` in it: micromark misses the end in `]]]>`); each end
//   looked for from the block's `<` on its first line, and ending the block on the line it stands on;
// - 6: `<` or `</`, a block tag name (micromark-util-html-tag-name, the spec's list), then a space, a tab, the line's
//   end, `>` or `/>`; 7: one complete open or closing tag alone on its line (spaces and tabs after it), by the spec's
//   tag grammar with spaces and tabs as white space (not claimed: a name of kind 1, where micromark takes `<pre/>` and
//   `</pre>` for kind 7 and the spec does not; an unquoted value holding `/`, which micromark ends at the `/`); both
//   end before a blank line;
// - a text holding U+0000 (micromark writes U+FFFD) or starting with U+FEFF is not claimed.
// micromark writes each block's lines with their own line endings and leaves out the blank lines between blocks; its
// GFM tag filter writes `&lt;` for the `<` of `<iframe`, `<noembed`, `<noframes`, `<plaintext`, `<script`, `<style`,
// `<title`, `<textarea`, `<xmp` (and their closing tags) followed by white space, `/` or `>` within a line (it filters
// each line's data apart from its line ending).

/** What writing a page of html blocks costs per character, calibrated ns: 15 measured on the 133 html pages of /usr/share/doc it writes (CPU time, warm, load 18; micromark 173 on them). */
export const htmlBlocksPageNanosPerChar = 30;

/** What writing a page of html blocks costs per line, calibrated ns: the line's start read and its tag filter. */
export const htmlBlocksPageNanosPerLine = 300;

/** What writing a page of html blocks costs per text, whatever its length, calibrated ns. */
export const htmlBlocksPageNanosPerCall = 2_000;

// micromark-extension-gfm-tagfilter's `reFlow`, applied to each line's data as it applies it to each htmlFlowData
const tagFilter = /<(\/?)(iframe|noembed|noframes|plaintext|script|style|title|textarea|xmp)(?=[\t\n\f\r />])/gi;

const rawNames: ReadonlySet<string> = new Set(['pre', 'script', 'style', 'textarea']);

const blockNames: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'base',
  'basefont',
  'blockquote',
  'body',
  'caption',
  'center',
  'col',
  'colgroup',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frame',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hr',
  'html',
  'iframe',
  'legend',
  'li',
  'link',
  'main',
  'menu',
  'menuitem',
  'nav',
  'noframes',
  'ol',
  'optgroup',
  'option',
  'p',
  'param',
  'search',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'track',
  'ul',
]);

// the end condition of kinds 1 to 5, looked for in a line (from the block's `<` on its first line)
const endOf: readonly (RegExp | null)[] = [null, /<\/(?:pre|script|style|textarea)>/i, /-->/, /\?>/, />/, /\]\]>/];

// a tag name right after `<` or `</`, and what follows it
const tagName = /[A-Za-z][A-Za-z0-9-]*/y;
// kind 7: a complete open tag (the spec's attribute grammar with spaces and tabs as white space; an unquoted value
// holds no `/`, where micromark ends it) or closing tag, read from its `<` (spaces and tabs alone may follow it)
const openTag =
  /<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^ \t"'=<>`/]+|'[^']*'|"[^"]*"))?)*[ \t]*\/?>/y;
const closingTag = /<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>/y;

// The kind (1–7) of the html block `line` starts at `at` (its `<`), 0 when it starts none, -1 when the spec and
// micromark may read it apart (the text is not claimed).
function startKind(line: string, at: number): number {
  const next = line.charCodeAt(at + 1);
  if (next === 0x21 /* ! */) {
    if (line.startsWith('<!--', at)) return 2;
    if (line.startsWith('<![CDATA[', at)) return 5;
    const letter = line.charCodeAt(at + 2) | 0x20;
    return letter >= 0x61 && letter <= 0x7a ? 4 : 0;
  }
  if (next === 0x3f /* ? */) return 3;
  const closing = next === 0x2f; /* / */
  tagName.lastIndex = at + (closing ? 2 : 1);
  const name = tagName.exec(line);
  if (name === null) return 0;
  const lower = name[0].toLowerCase();
  const after = tagName.lastIndex;
  const c = line.charCodeAt(after);
  const ends = Number.isNaN(c) || c === 0x20 || c === 0x09 || c === 0x3e; /* space, tab, > */
  if (rawNames.has(lower)) return !closing && ends ? 1 : -1;
  if (blockNames.has(lower) && (ends || line.startsWith('/>', after))) return 6;
  const tag = closing ? closingTag : openTag;
  tag.lastIndex = at;
  return tag.test(line) && isBlank(line.slice(tag.lastIndex)) ? 7 : 0;
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return true;
}

/** micromark's page (with the GFM extensions, raw html kept) of `text` when the text is CommonMark html blocks and blank lines only, written without micromark; null when it is anything else, or when micromark and the spec may read it apart (then micromark renders it). Linear in the text. */
export function htmlBlocksPage(text: string): string | null {
  const page: string[] = [];
  return readHtmlBlocks(text, page) === 0 ? null : page.join('');
}

/** Whether `htmlBlocksPage` writes a page of `text` (micromark does not run on it), and then its lines; 0 when it does not. Linear in the text. */
export function htmlBlocksLines(text: string): number {
  return readHtmlBlocks(text, null);
}

/** What `htmlBlocksPage` costs on a text of `chars` characters and `lines` lines, calibrated ns. */
export function htmlBlocksPageNanos(chars: number, lines: number): number {
  return htmlBlocksPageNanosPerCall + htmlBlocksPageNanosPerChar * chars + htmlBlocksPageNanosPerLine * lines;
}

// the text's lines when it is html blocks only (its page pushed to `page`, line by line), 0 when not
function readHtmlBlocks(text: string, page: string[] | null): number {
  if (text.length === 0 || text.charCodeAt(0) === 0xfeff || text.includes('\0')) return 0;
  // the kind of the open block, 0 between blocks
  let open = 0;
  let blocks = 0;
  let lines = 0;
  let start = 0;
  // the next carriage return, searched again only once passed (a text with none is searched once, not per line)
  let cr = text.indexOf('\r');
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
    if (end === -1) end = text.length;
    if (cr !== -1 && cr < end) end = cr;
    const next = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1;
    const line = text.slice(start, end);
    lines++;
    start = next;
    if (open === 6 || open === 7) {
      if (isBlank(line)) {
        open = 0;
        continue;
      }
    } else if (open === 0) {
      if (isBlank(line)) continue;
      let at = 0;
      while (at < 3 && line.charCodeAt(at) === 0x20) at++;
      if (line.charCodeAt(at) !== 0x3c /* < */) return 0;
      const kind = startKind(line, at);
      if (kind <= 0 || (kind === 5 && line.includes(']]]'))) return 0;
      blocks++;
      open = kind;
      if (kind <= 5 && (endOf[kind] as RegExp).test(at === 0 ? line : line.slice(at))) open = 0;
    } else {
      if (open === 5 && line.includes(']]]')) return 0;
      if ((endOf[open] as RegExp).test(line)) open = 0;
    }
    page?.push(line.replace(tagFilter, '&lt;$1$2'), text.slice(end, Math.min(next, text.length)));
  }
  return blocks === 0 ? 0 : lines;
}
