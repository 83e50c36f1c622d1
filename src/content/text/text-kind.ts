// The real kind of decoded text: formats announced by their first characters, JSON, markup roots, or inert text.
import { nextByte, spellsAt } from '../ascii-bytes.ts';
import { isJsonText } from './json-syntax.ts';

/** Leading characters looked at to find a markup root, characters. */
export const markupHeadChars = 8192;

/** Kind ids of decoded text; `pdf`, `rtf`, `postscript`, `reg`, `shell-script` and the shortcut kinds are text-encoded formats, not inert text. */
export type TextKind =
  | 'text'
  | 'json'
  | 'svg'
  | 'html'
  | 'xhtml'
  | 'xml'
  | 'hta'
  | 'shell-script'
  | 'reg'
  | 'url-shortcut'
  | 'desktop-launcher'
  | 'scf'
  | 'library-ms'
  | 'postscript'
  | 'pdf'
  | 'rtf';

/**
 * The parser that reads a body as markup, by its declared type or name: `xhtml` for an XHTML page (application/xhtml+xml,
 * `.xhtml`), `xml` for another XML document (application/xml, `.xml`, `.svg`, …), `html` for any other body.
 */
export type MarkupReader = 'html' | 'xml' | 'xhtml';

/** The kinds found by a section line (an INI group) anywhere in the text: a group shown only as code in a document may be code. */
export type SectionKind = 'url-shortcut' | 'desktop-launcher' | 'scf';

/** Classifies decoded text (without its BOM); short binary magics (`MZ`, `BM`) are deliberately not considered: printable text stays text. */
export function classifyText(text: string): TextKind {
  return classifyUtf8(Buffer.from(text, 'utf8'), 0, () => text);
}

/**
 * `classifyText` of the text that valid UTF-8 `bytes` hold from byte `from` on (past a byte order mark): the head
 * is decoded, the rest is searched as bytes; `text` decodes the whole text, asked only for text that starts like
 * JSON. `shownAsCode` is asked with the byte offsets of every `[InternetShortcut]`, `[Desktop Entry]` or `[Shell]`
 * section line when the body does not reach a shortcut reader by name: true when each is code in a document (a fenced block), not a shortcut.
 * `recognised` says which kinds to look for: a format only a consumer outside the policy's profile reads is text.
 * `mayHold` says whether the bytes hold a byte (a cheaper answer than a search, when the caller has one): the
 * searches for a byte they lack are skipped.
 * `reader` says which parser its declared type or name hands it to (`markupRoot`).
 */
export function classifyUtf8(
  bytes: Buffer,
  from: number,
  text: () => string,
  shownAsCode?: (kind: SectionKind, sections: readonly number[]) => boolean,
  recognised: (kind: TextKind) => boolean = () => true,
  mayHold: (byte: number) => boolean = () => true,
  reader: MarkupReader = 'html',
): TextKind {
  const scripts = recognised('shell-script');
  // the kernel only honours `#!` at offset 0, but a BOM-prefixed shebang is still a script to every editor and interpreter
  if (scripts && bytes[from] === 0x23 && bytes[from + 1] === 0x21) return 'shell-script';
  const head = textHead(bytes, from).trimStart();
  // behind blank lines or indentation the kernel no longer honours it, but `sh file` and editors still treat a
  // `#!/interpreter` first line as a script; the slash keeps prose such as `#! is a shebang` inert
  if (scripts && head.startsWith('#!/')) return 'shell-script';
  if (
    recognised('reg') &&
    (/^(?:REGEDIT4|Windows Registry Editor Version 5\.00)\s/i.test(head) ||
      /^(?:REGEDIT4|Windows Registry Editor Version 5\.00)$/i.test(head))
  )
    return 'reg';
  // a Windows Internet Shortcut (`.url`) is an INI file: Windows finds its section on any line; a freedesktop
  // launcher (`.desktop`) runs its `Exec=` line when opened (`gio launch`, a file manager) and a `Type=Link` entry
  // opens its `URL` (file managers), and GLib's key file reader finds the group on any line, leading white space
  // skipped; a Windows Shell Command File (`.scf`) is an INI file whose `[Shell]` section's `Command` Explorer reads
  // (and its `IconFile`, from an SMB share, as soon as the folder is shown): all found in one search for `[`
  const [sections = [], launcher = [], shell = []] = sectionLines(bytes, from, mayHold(0x5b), [
    recognised('url-shortcut') ? shortcutSection : null,
    recognised('desktop-launcher') ? desktopEntrySection : null,
    recognised('scf') ? shellSection : null,
  ]);
  if (sections.length > 0 && (shownAsCode === undefined || !shownAsCode('url-shortcut', sections)))
    return 'url-shortcut';
  if (
    launcher.length > 0 &&
    (hasKeyLine(bytes, from, execKey) || hasKeyLine(bytes, from, urlKey)) &&
    (shownAsCode === undefined || !shownAsCode('desktop-launcher', launcher))
  )
    return 'desktop-launcher';
  if (
    shell.length > 0 &&
    hasKeyLine(bytes, from, commandKey) &&
    (shownAsCode === undefined || !shownAsCode('scf', shell))
  )
    return 'scf';
  // a PostScript program must start `%!PS`; other text starting `%!` is just text
  if (recognised('postscript') && head.startsWith('%!PS')) return 'postscript';
  if (head.startsWith('%PDF-')) return 'pdf';
  if (head.startsWith('{\\rtf')) return 'rtf';
  if ((head.startsWith('{') || head.startsWith('[')) && isJsonText(text(), true)) return 'json';
  if (recognised('hta') && mayHold(0x3a) && hasHtaApplication(bytes, from)) return 'hta';
  return markupRootFor(head, recognised('library-ms'), reader) ?? 'text';
}

// the first `markupHeadChars` UTF-16 code units of the text: every code unit takes at most three UTF-8 bytes (a
// surrogate pair four for two), so four times as many bytes hold them all. Decoding all of those was a tenth of an
// 8 MiB text read's decision (V8 decodes UTF-8 that is not ASCII at a few hundred MB/s where the call is not hot), so a
// quarter more bytes than code units are decoded first (enough for text mostly in ASCII), and the four times only when
// they hold fewer code units. Each decode stops before a byte that starts a character or is ASCII, where a decoder
// stands between characters (an unfinished sequence before it is one U+FFFD either way), so the shorter decode is the
// start of the longer one and the head is the same (test/read/scanner-differential.test.ts)
/** The first `markupHeadChars` code units of the text valid UTF-8 `bytes` hold from byte `from` on. */
export function textHead(bytes: Buffer, from: number): string {
  const first = decodedUpTo(bytes, from, markupHeadChars + (markupHeadChars >> 2));
  if (first.text.length >= markupHeadChars || first.end === bytes.length) return first.text.slice(0, markupHeadChars);
  return decodedUpTo(bytes, from, 4 * markupHeadChars).text.slice(0, markupHeadChars);
}

// the text of at most `count` bytes from `from`, cut back to a byte that continues no character
function decodedUpTo(bytes: Buffer, from: number, count: number): { text: string; end: number } {
  let end = Math.min(bytes.length, from + count);
  while (end < bytes.length && end > from && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: bytes.toString('utf8', from, end), end };
}

const shortcutSection = Buffer.from('[internetshortcut]', 'latin1');
const desktopEntrySection = Buffer.from('[desktop entry]', 'latin1');
const shellSection = Buffer.from('[shell]', 'latin1');
const execKey = Buffer.from('exec', 'latin1');
const urlKey = Buffer.from('url', 'latin1');
const commandKey = Buffer.from('command', 'latin1');

// `^[ \t]*\[Section\][ \t]*\r?$` in multiline mode, ASCII case-insensitive, over the bytes: a line is ended by
// LF, CR, U+2028 or U+2029 (E2 80 A8 / E2 80 A9), as the pattern's `^` and `$` read it; the offsets of each section's
// lines (none for a null section), all found in one search for `[`
function sectionLines(
  bytes: Buffer,
  from: number,
  mayHoldBracket: boolean,
  sections: readonly (Buffer | null)[],
): number[][] {
  const found = sections.map((): number[] => []);
  if (!mayHoldBracket || sections.every((section) => section === null)) return found;
  for (let at = nextByte(bytes, 0x5b, from); at !== -1; at = nextByte(bytes, 0x5b, at + 1)) {
    // each section's name starts with a letter after its `[` (8 MiB of `[` costs a loop, not a search per byte)
    const first = (bytes[at + 1] ?? 0) | 0x20;
    for (let i = 0; i < sections.length; i++) {
      const section = sections[i];
      if (section != null && section[1] === first && sectionLineAt(bytes, from, at, section)) found[i]?.push(at);
    }
  }
  return found;
}

function sectionLineAt(bytes: Buffer, from: number, at: number, section: Buffer): boolean {
  if (!spellsAt(bytes, at, section)) return false;
  let before = at - 1;
  while (before >= from && (bytes[before] === 0x20 || bytes[before] === 0x09)) before--;
  if (before >= from && !endsLineBreak(bytes, before, from)) return false;
  let after = at + section.length;
  while (bytes[after] === 0x20 || bytes[after] === 0x09) after++;
  return after >= bytes.length || startsLineBreak(bytes, after);
}

// a `key` (lower-case ASCII, matched case-blind) at the start of a line: white space before it, `[locale]`, white
// space or `=` after it (`Exec=`, `URL[$e]=`, `Command=`)
function hasKeyLine(bytes: Buffer, from: number, key: Buffer): boolean {
  const lower = key[0] ?? 0;
  const upper = lower - 0x20;
  for (let at = from; at < bytes.length; at++) {
    const b = bytes[at];
    if (b !== lower && b !== upper) continue;
    if (!spellsAt(bytes, at, key)) continue;
    let before = at - 1;
    while (before >= from && (bytes[before] === 0x20 || bytes[before] === 0x09)) before--;
    if (before >= from && !endsLineBreak(bytes, before, from)) continue;
    const next = bytes[at + key.length];
    if (next === 0x3d || next === 0x5b || next === 0x20 || next === 0x09) return true;
  }
  return false;
}

// a line break ends at byte `at` (LF, CR, or the last byte of U+2028 or U+2029)
function endsLineBreak(bytes: Buffer, at: number, from: number): boolean {
  const b = bytes[at];
  if (b === 0x0a || b === 0x0d) return true;
  return at - 2 >= from && bytes[at - 2] === 0xe2 && bytes[at - 1] === 0x80 && (b === 0xa8 || b === 0xa9);
}

function startsLineBreak(bytes: Buffer, at: number): boolean {
  const b = bytes[at];
  if (b === 0x0a || b === 0x0d) return true;
  return b === 0xe2 && bytes[at + 1] === 0x80 && (bytes[at + 2] === 0xa8 || bytes[at + 2] === 0xa9);
}

const htaApplication = Buffer.from('<hta:application', 'latin1');

// `<hta:application\b`, ASCII case-insensitive, anywhere in the bytes
function hasHtaApplication(bytes: Buffer, from: number): boolean {
  for (let at = bytes.indexOf(0x3a, from); at !== -1; at = bytes.indexOf(0x3a, at + 1)) {
    const start = at - 4;
    if (start < from || !spellsAt(bytes, start, htaApplication)) continue;
    if (!isWordByte(bytes[start + htaApplication.length] ?? 0x20)) return true;
  }
  return false;
}

function isWordByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
}

// the roots of a Windows library description (`.library-ms`) and a search connector (`.searchConnector-ms`), which
// Explorer reads when the folder holding them is shown (their locations are opened: CVE-2025-24054), and their
// namespaces
const windowsLibraryRoots: ReadonlySet<string> = new Set(['librarydescription', 'searchconnectordescription']);
const windowsLibraryNamespace = /\bschemas\.microsoft\.com\/windows\/2009\/(?:library|searchconnector)\b/i;

// The kind a markup root makes of the text for `reader`. An XHTML page's type check is the page's: its root is named
// as an HTML page's is, and a page is an xhtml one (what its name or type hands to an XML parser is judged by one,
// consumers/browser.ts). To another XML reader a root is xml, or an xhtml page when it is in the xhtml namespace.
function markupRootFor(
  head: string,
  libraries: boolean,
  reader: MarkupReader,
): 'svg' | 'html' | 'xhtml' | 'xml' | 'library-ms' | null {
  if (reader === 'html') return markupRoot(head, libraries, false);
  if (reader === 'xhtml') {
    const page = markupRoot(head, libraries, false);
    return page === 'html' ? 'xhtml' : page;
  }
  return markupRoot(head, libraries, true);
}

// skips the prolog (xml declaration, processing instructions, comments, doctype) and names the root element; a
// Windows library root in Microsoft's namespace is `library-ms` when `libraries` are recognised. Without a prolog, a
// root that names no html or svg is xml only to a reader the declared type names (`declaredXml`: an XML parser takes
// `<feed>` as the document's root, the XML declaration is optional); to any other it may be a fragment or prose. To
// an XML parser a root is a page (`xhtml`) when it is in the xhtml namespace (`<html>`, `<div>`, `<h:body>`), and xml
// otherwise, `<html>` in no namespace included: its elements are xhtml only by their namespace (`<x:script>` runs
// under any root)
function markupRoot(
  head: string,
  libraries: boolean,
  declaredXml: boolean,
): 'svg' | 'html' | 'xhtml' | 'xml' | 'library-ms' | null {
  let rest = head;
  let prolog = false;
  let doctype = '';
  for (let guard = 0; guard < 64; guard++) {
    rest = rest.trimStart();
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end === -1) return prolog || rest.startsWith('<?xml') ? 'xml' : null;
      prolog = true;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      // a comment past the head: an XML parser reads on to the root behind it
      if (end === -1) return declaredXml ? 'xml' : null;
      rest = rest.slice(end + 3);
    } else if (/^<!doctype\b/i.test(rest)) {
      const end = doctypeEnd(rest);
      doctype = rest.slice(0, end === -1 ? rest.length : end).toLowerCase();
      // an internal subset longer than the head (a 60 KB entity) is still a prolog: the document is xml
      prolog = true;
      if (end === -1) break;
      rest = rest.slice(end);
    } else {
      break;
    }
  }
  if (!declaredXml && /^<!doctype\s+html\b/.test(doctype)) return 'html';
  const root = /^<\s*(?:([a-z0-9_.-]+):)?([a-z][a-z0-9_.-]*)/i.exec(rest);
  if (root === null) {
    if (prolog) return doctype.includes('svg') ? 'svg' : 'xml';
    // more comments and instructions than the loop reads: markup to an XML parser, which reads on
    return declaredXml && rest.startsWith('<') ? 'xml' : null;
  }
  const name = (root[2] ?? '').toLowerCase();
  if (name === 'svg') return 'svg';
  if (libraries && windowsLibraryRoots.has(name) && windowsLibraryNamespace.test(head)) return 'library-ms';
  if (
    !declaredXml &&
    (name === 'html' ||
      name === 'head' ||
      name === 'body' ||
      name === 'frameset' ||
      name === 'script' ||
      name === 'iframe')
  )
    return 'html';
  // to an XML parser, a root in the xhtml namespace makes a page: a browser renders it as html elements (`<div
  // xmlns=…xhtml>` as application/xml: Chromium's page, its forms live, no xml tree view), whatever its name
  if (declaredXml && inXhtmlNamespace(rest, root[1])) return 'xhtml';
  return prolog || declaredXml ? 'xml' : null;
}

const xhtmlNamespace = 'http://www.w3.org/1999/xhtml';

// whether the start tag `tag` opens (`<html …>`, `<h:html …>`) declares its own element in the xhtml namespace:
// `xmlns` (or `xmlns:prefix`) set to it, character references read; a value naming an entity (`&ns;`) may name it too
function inXhtmlNamespace(tag: string, prefix: string | undefined): boolean {
  const attributes = tag.slice(0, startTagEnd(tag));
  for (const declared of attributes.matchAll(namespaceAttribute)) {
    if (declared[1] !== prefix) continue;
    const value = declared[2] ?? declared[3] ?? '';
    if (/&(?!#|(?:amp|lt|gt|quot|apos);)/.test(value)) return true;
    if (decodeCharacterReferences(value).trim() === xhtmlNamespace) return true;
  }
  return false;
}

const namespaceAttribute = /\sxmlns(?::([A-Za-z0-9_.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

// where the start tag opening `tag` ends (its `>` outside quoted values), or the text's length
function startTagEnd(tag: string): number {
  let quote = '';
  for (let i = 1; i < tag.length; i++) {
    const c = tag[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return tag.length;
}

const predefinedEntities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

// numeric character references and XML's five predefined entities, as an XML parser reads an attribute value
function decodeCharacterReferences(value: string): string {
  return value.replace(
    /&(?:#x([0-9a-f]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/gi,
    (whole, hex?: string, dec?: string, name?: string) => {
      if (name !== undefined) return predefinedEntities[name] ?? whole;
      const code = Number.parseInt(hex ?? dec ?? '', hex === undefined ? 10 : 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    },
  );
}

// a doctype may carry an internal subset in brackets, which may itself hold `>`
function doctypeEnd(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === '>' && depth === 0) return i + 1;
  }
  return -1;
}
