// Our own table of kinds: declared and real types are compared as kinds, never as raw mime strings.

/** A family of kinds: what the bytes are for, which decides how they are checked. */
export type KindFamily =
  | 'text'
  | 'image'
  | 'document'
  | 'archive'
  | 'office'
  | 'media'
  | 'executable'
  | 'markup'
  | 'binary';

/** One entry of our own table of kinds; `mimes[0]` is the canonical mime type. */
export interface Kind {
  readonly id: string;
  readonly family: KindFamily;
  readonly mimes: readonly string[];
}

/** Kind ids the sniffer reports besides table entries: no bytes, or bytes nobody can name. */
export const EMPTY_KIND = 'empty';
/** Real kind of binary bytes no detector recognizes. */
export const UNKNOWN_KIND = 'unknown';

const k = (id: string, family: KindFamily, ...mimes: string[]): Kind =>
  Object.freeze({ id, family, mimes: Object.freeze(mimes) });

const table: readonly Kind[] = [
  // inert text; `text` is their safe supertype
  k('text', 'text', 'text/plain'),
  k('markdown', 'text', 'text/markdown', 'text/x-markdown'),
  k('csv', 'text', 'text/csv'),
  k('tsv', 'text', 'text/tab-separated-values'),
  // Jupyter's own type for a notebook is JSON: the notebook viewers judge it as they judge the same bytes as JSON
  k('json', 'text', 'application/json', 'text/json', 'application/x-ipynb+json'),
  k('vtt', 'text', 'text/vtt'),
  k('calendar', 'text', 'text/calendar'),
  k('vcard', 'text', 'text/vcard', 'text/x-vcard'),
  // raster images
  k('png', 'image', 'image/png'),
  k('apng', 'image', 'image/apng', 'image/vnd.mozilla.apng'),
  k('jpeg', 'image', 'image/jpeg', 'image/jpg', 'image/pjpeg'),
  k('gif', 'image', 'image/gif'),
  k('webp', 'image', 'image/webp'),
  k('bmp', 'image', 'image/bmp', 'image/x-ms-bmp', 'image/x-bmp'),
  k('avif', 'image', 'image/avif'),
  k('tiff', 'image', 'image/tiff'),
  k('ico', 'image', 'image/x-icon', 'image/vnd.microsoft.icon'),
  k('heic', 'image', 'image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence'),
  k('jxl', 'image', 'image/jxl'),
  k('psd', 'image', 'image/vnd.adobe.photoshop'),
  // markup
  k('svg', 'markup', 'image/svg+xml'),
  k('html', 'markup', 'text/html', 'application/xhtml+xml'),
  // an XHTML page: a page an XML parser reads (declared application/xhtml+xml, named `.xhtml`, or an xml document whose
  // root is in the xhtml namespace); its declared type is html's and it is admitted as html is (`realKindAllowed`)
  k('xhtml', 'markup'),
  k('xml', 'markup', 'application/xml', 'text/xml'),
  // documents
  k('pdf', 'document', 'application/pdf', 'application/x-pdf'),
  k('rtf', 'document', 'application/rtf', 'text/rtf'),
  k('epub', 'document', 'application/epub+zip'),
  // archives
  k('zip', 'archive', 'application/zip', 'application/x-zip-compressed'),
  k('gzip', 'archive', 'application/gzip', 'application/x-gzip'),
  k('tar', 'archive', 'application/x-tar'),
  k('7z', 'archive', 'application/x-7z-compressed'),
  k('rar', 'archive', 'application/vnd.rar', 'application/x-rar-compressed'),
  k('bzip2', 'archive', 'application/x-bzip2'),
  k('xz', 'archive', 'application/x-xz'),
  k('zstd', 'archive', 'application/zstd'),
  k('cab', 'archive', 'application/vnd.ms-cab-compressed'),
  k('dmg', 'archive', 'application/x-apple-diskimage'),
  k('asar', 'archive', 'application/x-asar'),
  k('ar', 'archive', 'application/x-unix-archive'),
  k('cpio', 'archive', 'application/x-cpio'),
  // office documents (macro-enabled formats are office too; a VBA project inside makes them executable)
  k('docx', 'office', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
  k('xlsx', 'office', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
  k('pptx', 'office', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'),
  k('docm', 'office', 'application/vnd.ms-word.document.macroenabled.12'),
  k('xlsm', 'office', 'application/vnd.ms-excel.sheet.macroenabled.12'),
  k('pptm', 'office', 'application/vnd.ms-powerpoint.presentation.macroenabled.12'),
  k('doc', 'office', 'application/msword'),
  k('xls', 'office', 'application/vnd.ms-excel'),
  k('ppt', 'office', 'application/vnd.ms-powerpoint'),
  k('cfb', 'office', 'application/x-cfb', 'application/x-ole-storage'),
  k('odt', 'office', 'application/vnd.oasis.opendocument.text'),
  k('ods', 'office', 'application/vnd.oasis.opendocument.spreadsheet'),
  k('odp', 'office', 'application/vnd.oasis.opendocument.presentation'),
  k('sqlite', 'office', 'application/vnd.sqlite3', 'application/x-sqlite3'),
  // audio and video
  k('mp3', 'media', 'audio/mpeg'),
  k('mp4', 'media', 'video/mp4', 'audio/mp4'),
  k('wav', 'media', 'audio/wav', 'audio/x-wav'),
  k('ogg', 'media', 'audio/ogg', 'video/ogg', 'application/ogg'),
  k('webm', 'media', 'video/webm'),
  k('quicktime', 'media', 'video/quicktime'),
  // executable or active content: always denied by the content rules
  k(
    'pe',
    'executable',
    'application/x-msdownload',
    'application/vnd.microsoft.portable-executable',
    'application/x-dosexec',
    'application/x-msdos-program',
  ),
  k('elf', 'executable', 'application/x-elf', 'application/x-executable', 'application/x-sharedlib'),
  k('macho', 'executable', 'application/x-mach-binary', 'application/x-mach-o-executable'),
  k('java-class', 'executable', 'application/java-vm', 'application/x-java-class'),
  k('jar', 'executable', 'application/java-archive', 'application/x-java-archive'),
  k('apk', 'executable', 'application/vnd.android.package-archive'),
  k('dex', 'executable', 'application/x-dex'),
  k('wasm', 'executable', 'application/wasm'),
  k('msi', 'executable', 'application/x-msi', 'application/x-ms-installer'),
  k('deb', 'executable', 'application/vnd.debian.binary-package', 'application/x-deb'),
  k('rpm', 'executable', 'application/x-rpm'),
  k('lnk', 'executable', 'application/x.ms.shortcut', 'application/x-ms-shortcut'),
  k('chm', 'executable', 'application/vnd.ms-htmlhelp'),
  k('swf', 'executable', 'application/x-shockwave-flash', 'application/vnd.adobe.flash.movie'),
  k('reg', 'executable', 'application/x-ms-regedit', 'text/x-ms-regedit'),
  k('url-shortcut', 'executable', 'application/x-mswinurl', 'application/internet-shortcut'),
  k('desktop-launcher', 'executable', 'application/x-desktop', 'application/x-gnome-app-info'),
  k('scf', 'executable'),
  k('library-ms', 'executable', 'application/windows-library+xml', 'application/windows-search-connector+xml'),
  k('postscript', 'executable', 'application/postscript', 'application/eps'),
  k('crx', 'executable', 'application/x-google-chrome-extension', 'application/x-chrome-extension'),
  k('xpi', 'executable', 'application/x-xpinstall'),
  k('hta', 'executable', 'application/hta'),
  k('shell-script', 'executable', 'application/x-sh', 'text/x-shellscript', 'application/x-shellscript', 'text/x-sh'),
  k(
    'javascript',
    'executable',
    'text/javascript',
    'application/javascript',
    'application/x-javascript',
    'application/ecmascript',
  ),
  k('python', 'executable', 'text/x-python', 'application/x-python', 'text/x-script.python'),
  // generic binary: the label of bytes nobody vouches for
  k('octet-stream', 'binary', 'application/octet-stream'),
];

const byMime = new Map<string, Kind>();
const byId = new Map<string, Kind>();
for (const kind of table) {
  byId.set(kind.id, kind);
  for (const mime of kind.mimes) byMime.set(mime, kind);
}

// file-type 21 extensions whose kind id differs from the extension
const fileTypeExtToKind: Readonly<Record<string, string>> = {
  jpg: 'jpeg',
  gz: 'gzip',
  'tar.gz': 'gzip',
  bz2: 'bzip2',
  zst: 'zstd',
  exe: 'pe',
  class: 'java-class',
  ps: 'postscript',
  eps: 'postscript',
  mov: 'quicktime',
  tif: 'tiff',
  cur: 'ico',
  heic: 'heic',
  m4a: 'mp4',
  m4v: 'mp4',
  oga: 'ogg',
  ogv: 'ogg',
  ogx: 'ogg',
  opus: 'ogg',
};

/** Lower-cases a mime type and drops its parameters (`text/plain; charset=utf-8` → `text/plain`). */
export function normalizeMime(mime: string): string {
  if (isNormalMime(mime)) return mime;
  return (mime.split(';', 1)[0] ?? '').trim().toLowerCase();
}

// most declared types are already lower-case printable ascii without parameters: nothing to cut, trim or fold
function isNormalMime(mime: string): boolean {
  for (let i = 0; i < mime.length; i++) {
    const c = mime.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x3b || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}

/** The kind a mime type names, or undefined when the table does not know it. */
export function kindOfMime(mime: string): Kind | undefined {
  return byMime.get(normalizeMime(mime));
}

/** True when the table knows this mime type (policy `content.allow` entries must be known). */
export function isKnownMime(mime: string): boolean {
  return byMime.has(normalizeMime(mime));
}

/** True when a declared mime type names a kind that the `allow` list (mime types) admits. */
export function declaredTypeAllowed(allow: readonly string[], mimeType: string): boolean {
  const kind = kindOfMime(mimeType);
  if (kind === undefined) return false;
  return allow.some((m) => kindOfMime(m)?.id === kind.id);
}

// text kinds whose consumers parse them as data (JSON, tables, subtitles, calendar and contact records), never as
// prose a markdown renderer reads
const dataKinds: ReadonlySet<string> = new Set(['json', 'csv', 'tsv', 'vtt', 'calendar', 'vcard']);

/** The data kind (`json`, `csv`, `tsv`, `vtt`, `calendar`, `vcard`) a declared mime type names, or null (no type, or not a data type): such a body is not rendered as markdown. */
export function declaredDataKind(mimeType: string | null | undefined): string | null {
  if (mimeType === null || mimeType === undefined) return null;
  const id = kindOfMime(mimeType)?.id;
  return id !== undefined && dataKinds.has(id) ? id : null;
}

/** The table entry with this id, or undefined (`empty`, `unknown` and unlisted file-type ids have none). */
export function kindById(id: string): Kind | undefined {
  return byId.get(id);
}

/** The family of a kind id; `binary` for ids the table does not list (`unknown`, rare file-type formats). */
export function familyOf(id: string): KindFamily {
  if (id === EMPTY_KIND) return 'text';
  return byId.get(id)?.family ?? 'binary';
}

/** Maps a file-type result (`ext`, `mime`) to a kind id: the table's id when known, else the extension itself. */
export function kindOfFileType(ext: string, mime: string): string {
  const mapped = fileTypeExtToKind[ext];
  if (mapped !== undefined) return mapped;
  if (byId.has(ext)) return ext;
  return kindOfMime(mime)?.id ?? ext;
}

// the kinds that are pages: an XHTML page is an HTML page to the type checks (declared as one, admitted as one); only
// its reader differs (an XML parser, consumers/browser.ts)
const pageKinds: ReadonlySet<string> = new Set(['html', 'xhtml']);

/** True when content of kind `real` may be delivered under a label of kind `label`: same kind, PNG ⇄ APNG, a page under a page label, an XHTML page under an xml label, inert text or markup under a text label (xml, svg; a page under text/plain or markdown only). */
export function kindCovers(label: string, real: string): boolean {
  if (label === real) return true;
  // text/html and application/xhtml+xml both name a page, whichever parser reads it
  if (pageKinds.has(label) && pageKinds.has(real)) return true;
  // an XHTML page is an xml document (its admission as a page is `pageAdmitted`'s)
  if (label === 'xml' && real === 'xhtml') return true;
  // application/octet-stream names no type, so no bytes contradict it (it is still only as allowed as the policy says)
  if (label === 'octet-stream') return true;
  // APNG is a PNG: every PNG decoder shows its first frame
  if ((label === 'png' && real === 'apng') || (label === 'apng' && real === 'png')) return true;
  // text/plain is the safe supertype of inert text (markdown, csv, json, …); bytes cannot tell inert text formats apart
  if (familyOf(label) === 'text' && familyOf(real) === 'text') return true;
  // xml or svg under a text label is shown as text (no browser sniffs text/plain as an image or a page) or rendered
  // by whatever the label names; markup has no magic bytes to contradict the label (DESIGN §5 names magic bytes)
  if (familyOf(label) === 'text' && (real === 'xml' || real === 'svg')) return true;
  // a page only under the text labels a host may render as markdown (text/plain, markdown; octet-stream above): the
  // browser reads its markup for script and the markdown renderers read it too, which count refreshes, frames, forms
  // and `base` in it as active. Under another text label (csv, json, a source type) only the browser would read it,
  // for script alone: a page declared text/csv holding a meta refresh is a mismatch, as before (reading13 F9)
  if ((label === 'text' || label === 'markdown') && pageKinds.has(real)) return true;
  return false;
}

/**
 * True when the declared type names a page, which takes any text as its document: `text/html` (the HTML parser renders
 * a bare `<p>x</p>` or prose as a page, and never refuses input as malformed) and `application/xhtml+xml`, whose type
 * check is the page's: browsers read it with their XML parser (text that is no XML document is an error page), and
 * the browser consumer reads it with both parsers, whatever its root.
 */
export function readsAnyTextAsDocument(declaredMime: string): boolean {
  return kindOfMime(declaredMime)?.id === 'html';
}

/** True when a declared type names an XHTML page (`application/xhtml+xml`), which browsers read with their XML parser. */
export function declaredXhtmlDocument(declaredMime: string | null | undefined): boolean {
  return declaredMime !== null && declaredMime !== undefined && normalizeMime(declaredMime) === 'application/xhtml+xml';
}

/** False when an xml label covers an XHTML page the allowed kinds do not admit as a page (a page is admitted only as a page); true otherwise. */
export function pageAdmitted(allowed: ReadonlySet<string>, label: string, real: string): boolean {
  return label !== 'xml' || real !== 'xhtml' || realKindAllowed(allowed, real);
}

/** True when a declared type is read by an XML parser: `application/xml`, `text/xml` and `application/xhtml+xml` (which browsers parse as XML, not HTML). */
export function declaredXmlDocument(declaredMime: string | null | undefined): boolean {
  if (declaredMime === null || declaredMime === undefined) return false;
  return kindOfMime(declaredMime)?.id === 'xml' || declaredXhtmlDocument(declaredMime);
}

/** Kind ids that an `allow` list of mime types admits (unknown mime types admit nothing); a policy computes it once when built (`Policy.allowedKinds`). */
export function allowedKindIds(allow: readonly string[]): ReadonlySet<string> {
  const out = new Set<string>();
  for (const mime of allow) {
    const kind = kindOfMime(mime);
    if (kind !== undefined) out.add(kind.id);
  }
  return out;
}

/** True when content of kind `real` is admitted by the allowed kind ids: listed, PNG ⇄ APNG, an XHTML page as html, or inert text when `text` is listed. */
export function realKindAllowed(allowed: ReadonlySet<string>, real: string): boolean {
  if (allowed.has(real)) return true;
  if (real === 'xhtml' && allowed.has('html')) return true;
  if (real === 'apng' && allowed.has('png')) return true;
  if (real === 'png' && allowed.has('apng')) return true;
  return allowed.has('text') && familyOf(real) === 'text';
}
