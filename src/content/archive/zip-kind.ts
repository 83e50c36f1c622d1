// What a ZIP really is: browser extension, APK, JAR, OOXML (with or without macros), OpenDocument, EPUB, or a plain archive.
import { quoteValue } from '../../decision/quote-value.ts';
import { maxZipEntries, readZipEntry, type ZipListing } from './zip-entries.ts';

/** Largest entry read to classify an archive (manifests, content types), bytes after inflating. */
export const maxMarkerEntryBytes = 1024 * 1024;

/** The kind of a ZIP and, when it carries code, why it is executable. */
export interface ZipKind {
  kind: string;
  /** one-line reason the archive is executable or active, or null */
  active: string | null;
  /** why the classification could not see all it needs (a marker entry over the cap or unreadable, too many entries), or null */
  uninterpretable: string | null;
}

/**
 * Classifies a listed ZIP by marker entries (never extracts more than `maxMarkerEntryBytes` per marker, never
 * writes anything). Every cap fails closed: a marker entry that is present but over the cap, damaged or in a
 * method we cannot inflate, and a listing cut at `maxZipEntries`, make the archive uninterpretable, never absent.
 */
export function classifyZip(bytes: Buffer, listing: ZipListing): ZipKind {
  const kind = classifyListed(bytes, listing);
  if (kind.uninterpretable === null && listing.truncated === true)
    kind.uninterpretable = `zip archive lists more than ${maxZipEntries} entries`;
  return kind;
}

function classifyListed(bytes: Buffer, listing: ZipListing): ZipKind {
  const byName = new Map<string, (typeof listing.entries)[number]>();
  for (const entry of listing.entries) byName.set(entry.name.toLowerCase(), entry);
  const has = (name: string): boolean => byName.has(name);
  // messages quote entry names as written in the archive
  const original = (lower: string): string => quoteValue(byName.get(lower)?.name ?? lower);
  let unread: string | null = null;
  const read = (name: string): string | null => {
    const entry = byName.get(name);
    if (entry === undefined) return null;
    const data = readZipEntry(bytes, entry, maxMarkerEntryBytes);
    if (data === null)
      unread ??= `zip entry ${original(name)} cannot be read (over ${maxMarkerEntryBytes} bytes inflated, damaged, or compressed by a method other than deflate)`;
    return data?.toString('utf8') ?? null;
  };
  const done = (kind: string, active: string | null): ZipKind => ({ kind, active, uninterpretable: unread });
  const names = [...byName.keys()];

  // browser extensions: Firefox signing files, legacy install manifests, WebExtension manifest.json at the root
  if (has('meta-inf/mozilla.rsa') || has('install.rdf') || has('chrome.manifest'))
    return done('xpi', 'a browser extension (firefox add-on markers)');
  const manifestJson = read('manifest.json');
  if (manifestJson !== null && /"manifest_version"\s*:/.test(manifestJson))
    return done('xpi', 'a browser extension (`manifest.json` with `manifest_version`)');
  if (has('androidmanifest.xml') || has('classes.dex'))
    return done('apk', 'an android package (`AndroidManifest.xml` or `classes.dex`)');
  const classFile = names.find((n) => n.endsWith('.class'));
  const manifest = read('meta-inf/manifest.mf');
  if (classFile !== undefined || manifest !== null) {
    const main = manifest === null ? null : /^Main-Class:\s*(\S+)/im.exec(manifest);
    const what =
      main !== null
        ? `a runnable java archive (${quoteValue(`Main-Class: ${main[1] ?? ''}`)})`
        : classFile !== undefined
          ? `a java archive (${original(classFile)})`
          : 'a java archive (`META-INF/MANIFEST.MF`)';
    return done('jar', what);
  }
  if (has('[content_types].xml')) {
    const ooxml = classifyOoxml(read('[content_types].xml') ?? '', names, original);
    return done(ooxml.kind, ooxml.active);
  }
  const mimetype = read('mimetype');
  if (mimetype !== null) {
    const declared = mimetype.trim();
    const kind =
      declared === 'application/epub+zip'
        ? 'epub'
        : declared === 'application/vnd.oasis.opendocument.text'
          ? 'odt'
          : declared === 'application/vnd.oasis.opendocument.spreadsheet'
            ? 'ods'
            : declared === 'application/vnd.oasis.opendocument.presentation'
              ? 'odp'
              : 'zip';
    const macro = names.find((n) => n.startsWith('basic/') || n.startsWith('scripts/'));
    return done(
      kind,
      macro !== undefined && kind !== 'zip' && kind !== 'epub'
        ? `an opendocument file with macros (${original(macro)})`
        : null,
    );
  }
  return done('zip', null);
}

function classifyOoxml(
  contentTypes: string,
  names: readonly string[],
  original: (lower: string) => string,
): Omit<ZipKind, 'uninterpretable'> {
  const app = names.some((n) => n.startsWith('xl/')) ? 'xls' : names.some((n) => n.startsWith('ppt/')) ? 'ppt' : 'doc';
  const vbaPart = names.find((n) => n.endsWith('vbaproject.bin'));
  const vba =
    vbaPart !== undefined
      ? original(vbaPart)
      : /vnd\.ms-office\.vbaProject/i.test(contentTypes)
        ? 'a `vbaProject` content type'
        : null;
  // a macroEnabled content type without a VBA part is a macro-enabled format, not (yet) code
  const macroEnabled = /macroEnabled/i.test(contentTypes) || vba !== null;
  return {
    kind: `${app}${macroEnabled ? 'm' : 'x'}`,
    active: vba !== null ? `an office document with a vba project (${vba})` : null,
  };
}
