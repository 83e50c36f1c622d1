// Text items: read as UTF-8 bytes (or decoded UTF-16), classified, and judged by the readers each kind reaches.
import { blankSniff, type ContentSniff, type SeenKind, type SniffOptions } from './content-sniff.ts';
import type { TextBody } from './consumers/content-consumer.ts';
import { defaultProfile, judgeTextForProfile, recognisedUnder } from './consumers/consumer-registry.ts';
import { isOwnSourceShebang } from './consumers/shell.ts';
import { isUtf8 } from 'node:buffer';
import {
  decodeText,
  hasLoneSurrogate,
  startsWithBom,
  utf16GuessSampleBytes,
  utf8TextStart,
} from './text/text-encoding.ts';
import { declaredDataKind, declaredXhtmlDocument, declaredXmlDocument, familyOf, kindOfMime } from './kinds.ts';
import { decodeWindows1252, holdsNoBinaryDataByte } from './single-byte-text.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { classifyUtf8, type MarkupReader, type SectionKind, type TextKind } from './text/text-kind.ts';
import { parseJsonText } from './text/json-syntax.ts';
import {
  isProgramSourceExtension,
  isXhtmlExtension,
  isXmlDocumentExtension,
  uriExtension,
} from './text/uri-extension.ts';
import { allInCodeBlocks } from './markdown/code-lines.ts';
import { readsAsKeyFile } from './consumers/desktop-launcher.ts';
import { mayHoldActiveMarkupUtf8, textReadingMarks } from './svg-html/markup-screen.ts';
import { actsOnTerminal, findInvisibleText, findUnsafeText } from './text/unsafe-text.ts';
import { type MarkedUtf8Findings, scanUtf8Marking } from './text/unsafe-utf8.ts';
import type { WorkBudget } from './work-budget.ts';

/**
 * Text as the checks read it: its UTF-8 bytes (past any byte order mark), searched natively, and the decoded
 * string, made only when a parser or the JSON check must read it.
 */
export interface TextView {
  utf8: Buffer;
  /** where `utf8` starts in the item's bytes (past a byte order mark); null when it is UTF-16 text encoded again */
  start: number | null;
  text: () => string;
  /** findings of the string scan (UTF-16), or null when the UTF-8 bytes are scanned */
  unsafe: string[] | null;
  issues: readonly string[];
  /** the scan of all the item's bytes (`scanUtf8Marking(bytes, 0, …)`), when it was made before the text was read */
  scanned?: MarkedUtf8Findings;
}

/**
 * Valid UTF-8 with no byte order mark and no NUL in its first 4 KiB, scanned once (`scanUtf8Marking` from byte 0):
 * the scan sees a NUL exactly when the bytes hold one, so the NUL search is not made again, and the text checks take
 * the scan's findings; null for other bytes (UTF-16 and most binary formats hold a NUL early).
 */
export function scanUtf8Early(bytes: Buffer, findInvisible: boolean): MarkedUtf8Findings | null {
  if (startsWithBom(bytes) || bytes.subarray(0, utf16GuessSampleBytes).indexOf(0) !== -1 || !isUtf8(bytes)) return null;
  return scanUtf8Marking(bytes, 0, findInvisible);
}

/** The bytes as text, or null when they are not text; UTF-8 stays bytes (a text carrier's string is reused), UTF-16 is decoded. `early` is `scanUtf8Early`'s scan of them, if made. */
export function readText(
  bytes: Buffer,
  hasNul: boolean,
  original: string | undefined,
  early: MarkedUtf8Findings | null = null,
): TextView | null {
  if (original !== undefined && !hasNul) {
    const bom = original.charCodeAt(0) === 0xfeff;
    const view: TextView = {
      utf8: bom ? bytes.subarray(3) : bytes,
      start: bom ? 3 : 0,
      text: () => (bom ? original.slice(1) : original),
      unsafe: null,
      issues: [],
    };
    if (!bom && early !== null) view.scanned = early;
    return view;
  }
  // valid UTF-8 with no byte order mark and no NUL early on is UTF-8 from its first byte (no UTF-16 pattern either)
  const from = early === null ? utf8TextStart(bytes) : 0;
  if (from !== -1) {
    const utf8 = bytes.subarray(from);
    let decoded: string | undefined;
    const view: TextView = {
      utf8,
      start: from,
      text: () => (decoded ??= utf8.toString('utf8')),
      unsafe: null,
      issues: [],
    };
    if (from === 0 && early !== null) view.scanned = early;
    return view;
  }
  const decoded = decodeText(bytes);
  if (decoded === null) return null;
  return {
    utf8: Buffer.from(decoded.text, 'utf8'),
    start: null,
    text: () => decoded.text,
    unsafe: findUnsafeText(decoded.text),
    issues: decoded.issues,
  };
}

/**
 * Bytes that are neither UTF-8 nor UTF-16 as text, or null when they are not text: with no binary data byte (MIME
 * Sniffing §7.2) a browser calls them text and decodes them as windows-1252, and so are they read, each text check
 * applying to that reading. Declared as text (text/plain, markdown, csv, json) with no charset, a reader of that type
 * may decode them as UTF-8 instead: the bytes that are not UTF-8 become U+FFFD (inert; an ASCII byte is never taken
 * into a bad sequence, so every markup and syntax character reads the same), and what the UTF-8 sequences among them
 * spell (a C1 control, a bidi override, a tag character) is judged too: the body is withheld as unsafe text when that
 * reading holds what the text checks refuse, as its windows-1252 reading is.
 */
export function readSingleByteText(bytes: Buffer, declaredMime: string | null): TextView | null {
  if (!holdsNoBinaryDataByte(bytes)) return null;
  const decoded = decodeWindows1252(bytes);
  const declared = declaredMime === null ? undefined : kindOfMime(declaredMime);
  return {
    utf8: Buffer.from(decoded, 'utf8'),
    start: null,
    text: () => decoded,
    unsafe: findUnsafeText(decoded),
    issues: declared !== undefined && familyOf(declared.id) === 'text' ? utf8ReadingIssues(bytes, declaredMime) : [],
  };
}

// What a reader decoding the bytes as UTF-8 (U+FFFD for each bad sequence) would show that the checks refuse: what a
// terminal acts on stays the terminal consumer's finding, as in UTF-8 text
function utf8ReadingIssues(bytes: Buffer, declaredMime: string | null): string[] {
  const asUtf8 = bytes.toString('utf8');
  const invisible = findInvisibleText(asUtf8);
  const found = invisible === null ? findUnsafeText(asUtf8) : [...findUnsafeText(asUtf8), invisible];
  return found.map((finding) =>
    actsOnTerminal(finding)
      ? finding
      : `declared text ${quoteValue(declaredMime as string)} read as utf-8 (no charset named): ${finding}`,
  );
}

const replacementUtf8 = Buffer.from('\ufffd', 'utf8');

/** Judges a text item: its kind, unsafe and invisible characters, and what every consumer of the profile that reads it would make active. */
export function textFindings(
  bytes: Buffer,
  view: TextView,
  options: SniffOptions,
  budget: WorkBudget,
  seen: SeenKind,
): ContentSniff {
  budget.spend('text', bytes.length);
  const findInvisible = options.findInvisible !== false;
  // UTF-8 bytes are scanned once for both, noting which ASCII marks occur; UTF-16 text had its string scan, and its
  // invisible characters are looked for in its UTF-8
  const scanned =
    view.start === null
      ? findInvisible
        ? scanUtf8Marking(view.utf8, 0, true)
        : null
      : view.start === 0 && view.scanned !== undefined
        ? view.scanned
        : scanUtf8Marking(bytes, view.start, findInvisible);
  // the ASCII bytes the checks below search for: a mark the scan saw nowhere is not searched for, any other byte once
  // for all of them (an ASCII byte is in the item's UTF-8 bytes exactly when it is in the text past their byte order
  // mark)
  const searched = holdsByte(view.utf8);
  const mayHold = scanned === null ? searched : (byte: number) => scanned.mayHold(byte) && searched(byte);
  const unsafe = view.unsafe ?? scanned?.unsafe ?? [];
  if (view.issues.length > 0) unsafe.unshift(...view.issues.filter((issue) => !unsafe.includes(issue)));
  // the bytes are the text's UTF-8, where a lone surrogate became U+FFFD (EF BF BD): the string is searched only
  // when its bytes hold one
  if (options.text !== undefined && bytes.indexOf(replacementUtf8) !== -1 && hasLoneSurrogate(options.text))
    unsafe.push('text holds unpaired utf-16 surrogates');
  const profile = options.consumers ?? defaultProfile;
  const recognised = recognisedUnder(profile);
  // the uri's extension, read once for every check and consumer that goes by the name
  const extension = uriExtension(options.uri);
  const reader = markupReaderOf(options, extension);
  const classified = classifyUtf8(
    view.utf8,
    0,
    view.text,
    shortcutShownAsCode(view, options, budget, extension),
    // a source file whose `#!` line names its own language's interpreter is that source (consumers/shell.ts)
    (kind) => recognised(kind) && (kind !== 'shell-script' || !isOwnSourceShebang(view.utf8, extension)),
    mayHold,
    reader,
  );
  const textKind = markupRoots.has(classified) && shownAsSource(options, extension) ? 'text' : classified;
  seen.kind = textKind;
  seen.textual = true;
  const sniff = blankSniff(textKind, true);
  // what a terminal acts on is the terminal consumer's finding, made only when it is in the profile
  sniff.unsafe = unsafe.filter((finding) => !actsOnTerminal(finding));
  sniff.invisible = findInvisible ? (scanned?.invisible ?? null) : null;
  const terminalControls = unsafe.length === sniff.unsafe.length ? [] : unsafe.filter(actsOnTerminal);
  const body = textBody(
    bytes,
    view,
    textKind,
    options,
    budget,
    mayHold,
    extension,
    reader !== 'html',
    terminalControls,
  );
  judgeTextForProfile(body, profile, sniff, budget);
  return sniff;
}

// A markup root (`<script setup>` opening a `.vue` component, a `.svelte` one's `<script>`, `<?php` before a tag)
// in text/plain or octet-stream named as program or template source is code: no browser sniffs those types, and a
// consumer going by the name shows code (consumers/browser.ts reads such text/plain no more as a page)
const markupRoots: ReadonlySet<TextKind> = new Set<TextKind>(['html', 'xhtml', 'xml', 'svg']);
function shownAsSource(options: SniffOptions, extension: string | null): boolean {
  const declared = declaredKindOf(options);
  return (declared === 'text' || declared === 'octet-stream') && isProgramSourceExtension(extension);
}

// The parser a body's declared type or name hands it to. An XHTML page: declared application/xhtml+xml, or named
// `.xhtml` and declared a page or nothing in particular (text/html, text/plain, octet-stream, no type: a host saving
// `report.xhtml` opens it with its XML parser). Another XML document: declared an XML type, or named as one a browser
// opens with its XML parser (`.xml`, `.svg`, …) and declared nothing in particular. Any other body: the HTML parser's.
function markupReaderOf(options: SniffOptions, extension: string | null): MarkupReader {
  const declared = declaredKindOf(options);
  const byName = options.declaredMime == null || declared === 'text' || declared === 'octet-stream';
  if (declaredXhtmlDocument(options.declaredMime) || ((byName || declared === 'html') && isXhtmlExtension(extension)))
    return 'xhtml';
  if (declaredXmlDocument(options.declaredMime) || (byName && isXmlDocumentExtension(extension))) return 'xml';
  return 'html';
}

// the kind id the item's declared type names, or undefined (none declared, or a type the table does not know)
function declaredKindOf(options: SniffOptions): string | undefined {
  return options.declaredMime === undefined || options.declaredMime === null
    ? undefined
    : kindOfMime(options.declaredMime)?.id;
}

// Whether `bytes` hold a byte: one native search per byte asked, its answer kept for the next asker.
function holdsByte(bytes: Buffer): (byte: number) => boolean {
  const known = new Map<number, boolean>();
  return (byte) => {
    let holds = known.get(byte);
    if (holds === undefined) {
      holds = bytes.indexOf(byte) !== -1;
      known.set(byte, holds);
    }
    return holds;
  };
}

// The body as the consumers see it. A notebook is JSON that its viewers render whatever it is declared as, so a
// JSON body is parsed once, on first need, and charged to the item's budget.
function textBody(
  bytes: Buffer,
  view: TextView,
  kind: TextKind,
  options: SniffOptions,
  budget: WorkBudget,
  mayHold: (mark: number) => boolean,
  extension: string | null,
  readByXml: boolean,
  terminalControls: readonly string[],
): TextBody {
  const declaredMime = options.declaredMime ?? null;
  let parsed: { value: unknown } | undefined;
  // the markdown renderers and the browser read the same text: the screen in front of their parsers runs once, and
  // not at all when none of the bytes its triggers are found at occurs in it
  let screened: boolean | undefined;
  return {
    bytes,
    utf8: view.utf8,
    text: view.text,
    mayHoldActiveMarkup: () => (screened ??= textReadingMarks.some(mayHold) && mayHoldActiveMarkupUtf8(view.utf8)),
    mayHold: view.start === null ? holdsByte(bytes) : mayHold,
    kind,
    declaredMime,
    declaredKind: declaredMime === null ? null : (kindOfMime(declaredMime)?.id ?? null),
    declaredData: declaredDataKind(declaredMime),
    uri: options.uri,
    extension,
    readByXml,
    terminalControls,
    maxInflateBytes: options.maxInflateBytes,
    json: () => {
      if (parsed === undefined) {
        budget.spend('json', view.utf8.length);
        parsed = { value: kind === 'json' ? parseJsonText(view.text()) : undefined };
      }
      return parsed.value;
    },
  };
}

// A Windows shortcut (`.url`) or a desktop launcher (`.desktop`) runs when a file of that name is opened; a body that
// reaches that reader by its name or its declared type is one wherever its group stands. Any other body showing
// the group only inside code blocks is a document about them (a how-to with an example), not one
const launcherExtensions: Readonly<Record<SectionKind, string>> = {
  'url-shortcut': 'url',
  'desktop-launcher': 'desktop',
  scf: 'scf',
};

function shortcutShownAsCode(
  view: TextView,
  options: SniffOptions,
  budget: WorkBudget,
  extension: string | null,
): (kind: SectionKind, sections: readonly number[]) => boolean {
  const declared = declaredKindOf(options);
  return (kind, sections) =>
    extension !== launcherExtensions[kind] &&
    declared !== kind &&
    allInCodeBlocks(view.utf8, view.text(), sections, budget) &&
    // GLib loads a launcher by its bytes, not its name: one shown in indented code under `#` headings still runs
    (kind !== 'desktop-launcher' || !readsAsKeyFile(view.text()));
}
