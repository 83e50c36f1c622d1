// One pass over an item's decoded bytes: real kind, active content, unsafe text, structure problems, image size.
import { findActiveMarkupUtf8, readMarkup } from './svg-html/active-markup.ts';
import { fileTypeKind, knownSignatureKind } from './binary-kind.ts';
import { classifyCfb } from './archive/cfb-kind.ts';
import { describeExecutable } from './executable-kinds.ts';
import { readMetadata } from './image/image-metadata.ts';
import { imageStructure } from './image/image-structure.ts';
import { EMPTY_KIND, UNKNOWN_KIND } from './kinds.ts';
import { defaultMaxInflateBytes, scanPdf } from './pdf/pdf-active.ts';
import { embeddedArchive, parsesAsScript, trailingFormatWith } from './polyglot.ts';
import { decodeText, hasLoneSurrogate, startsWithBom, utf8TextStart } from './text/text-encoding.ts';
import { classifyUtf8 } from './text/text-kind.ts';
import { findInvisibleUtf8, findUnsafeText, findUnsafeUtf8 } from './text/unsafe-text.ts';
import { WorkBudget, WorkExhausted } from './work-budget.ts';
import { classifyZip } from './archive/zip-kind.ts';
import { readZipDirectory, scanLocalHeaders } from './archive/zip-entries.ts';

/** What the bytes of one item really are; findings are one-line messages, never body text. */
export interface ContentSniff {
  /** real kind id from our table, `empty`, `unknown`, or a file-type extension the table does not list */
  kind: string;
  /** true when the bytes were read as text (UTF-8, or UTF-16) */
  textual: boolean;
  /** why the bytes are executable or active, or null */
  active: string | null;
  /** script in JSON text read as text or markdown rather than as JSON data (declared other than JSON, it is active), or null */
  activeUnlessJson: string | null;
  /** script that only the raw text read as HTML holds, not the pages markdown renderers make of it (declared other than markdown, it is active), or null */
  activeUnlessMarkdown: string | null;
  /** bidi controls or zero-width characters in text (a policy may withhold them), or null (also when `findInvisible` is false) */
  invisible: string | null;
  /** unsafe characters or encodings in text (NUL, terminal escapes, UTF-16 without BOM); empty when clean */
  unsafe: readonly string[];
  /** why the bytes cannot be interpreted safely (truncated, encrypted, uninspectable), or null */
  uninterpretable: string | null;
  /** image size from its header, pixels; null when not an image or not stated */
  width: number | null;
  height: number | null;
  /** why checking the bytes ran out of its work budget (the item is withheld), or null */
  tooComplex: string | null;
}

/** Options of a sniff. */
export interface SniffOptions {
  /** the item's original text when it came as `text` (lone surrogates are lost in its utf-8 bytes) */
  text?: string;
  /** budget for inflating compressed PDF streams, bytes */
  maxInflateBytes?: number;
  /** look for bidi controls and zero-width characters (default true); a policy that does not flag them skips the search */
  findInvisible?: boolean;
  /** the item's work budget, shared by every check (default: `WorkBudget.forBytes` of the item, fresh for each attempt) */
  budget?: WorkBudget;
}

const imageKinds = new Set(['png', 'apng', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'heic']);

// a sniff that cannot go on until file-type has named the bytes from this offset on
interface NeedsFileType {
  fileTypeAt: number;
}

// file-type answers gathered so far, by offset into the item's bytes (null: it named nothing)
type FileTypeAnswers = ReadonlyMap<number, string | null>;
/** Sniffs decoded bytes once: our own signatures and file-type on the leading bytes for binary formats, our own detectors for text, markup, PDF, ZIP, CFB and images. Never executes, renders or writes anything. */
export async function sniffContent(bytes: Buffer, options: SniffOptions = {}): Promise<ContentSniff> {
  const answers = new Map<number, string | null>();
  // each round asks file-type about one more offset: the item itself, then data after an image's end
  for (;;) {
    const attempt = sniffWith(bytes, options, answers);
    if (!('fileTypeAt' in attempt)) return attempt;
    const at = attempt.fileTypeAt;
    if (answers.has(at)) throw new Error(`sniff asked twice about offset ${at}`);
    answers.set(at, await fileTypeKind(at === 0 ? bytes : bytes.subarray(at)));
  }
}

/** `sniffContent` without waiting, for bytes our own signatures and detectors can judge alone; null when file-type must be asked (then call `sniffContent`). */
export function sniffContentSync(bytes: Buffer, options: SniffOptions = {}): ContentSniff | null {
  const attempt = sniffWith(bytes, options, new Map());
  return 'fileTypeAt' in attempt ? null : attempt;
}

// one attempt at the whole item within its work budget: a check that runs out (or, as a last line, overflows the
// stack) withholds the item as too complex, under the kind found so far
function sniffWith(bytes: Buffer, options: SniffOptions, answers: FileTypeAnswers): ContentSniff | NeedsFileType {
  const budget = options.budget ?? WorkBudget.forBytes(bytes.length);
  const seen: SeenKind = { kind: UNKNOWN_KIND, textual: false };
  try {
    return sniffWithin(bytes, options, answers, budget, seen);
  } catch (error) {
    const why = tooComplex(error);
    if (why === null) throw error;
    const sniff = sniffOf(seen.kind, seen.textual);
    sniff.tooComplex = why;
    return sniff;
  }
}

interface SeenKind {
  kind: string;
  textual: boolean;
}

function tooComplex(error: unknown): string | null {
  if (error instanceof WorkExhausted) return error.message;
  // the engine's own limit: deep recursion in a parser is the same too-much-work, caught rather than crashing
  if (error instanceof RangeError && /call stack/i.test(error.message))
    return 'checking the body nested deeper than the stack allows';
  return null;
}

function sniffWithin(
  bytes: Buffer,
  options: SniffOptions,
  answers: FileTypeAnswers,
  budget: WorkBudget,
  seen: SeenKind,
): ContentSniff | NeedsFileType {
  if (bytes.length === 0) return sniffOf(EMPTY_KIND, true);

  // text without NULs is text whatever its first bytes say: `MZ-80K notes` is not a PE file
  const hasNul = bytes.indexOf(0) !== -1;
  const binaryFirst = hasNul && !startsWithBom(bytes);
  let kind: string | null = null;
  if (binaryFirst) {
    const named = binaryAt(bytes, 0, answers);
    if (named === undefined) return { fileTypeAt: 0 };
    kind = named;
  }
  const text = kind === null ? readText(bytes, hasNul, options.text) : null;
  if (text === null && !binaryFirst) {
    const named = binaryAt(bytes, 0, answers);
    if (named === undefined) return { fileTypeAt: 0 };
    kind = named;
  }
  if (text !== null && kind === null) return textFindings(bytes, text, options, budget, seen);
  if (kind === null) return sniffOf(UNKNOWN_KIND, false);
  seen.kind = kind;
  return binaryFindings(kind, bytes, options, answers, budget);
}

// the binary kind of the bytes from `at` on: our signatures, else file-type's answer if it was asked (undefined: not yet)
function binaryAt(bytes: Buffer, at: number, answers: FileTypeAnswers): string | null | undefined {
  return knownSignatureKind(at === 0 ? bytes : bytes.subarray(at)) ?? answers.get(at);
}

function sniffOf(kind: string, textual: boolean): ContentSniff {
  return {
    kind,
    textual,
    active: null,
    activeUnlessJson: null,
    activeUnlessMarkdown: null,
    invisible: null,
    unsafe: [],
    uninterpretable: null,
    width: null,
    height: null,
    tooComplex: null,
  };
}

// what one binary format's checks need besides the bytes
interface BinaryContext {
  options: SniffOptions;
  answers: FileTypeAnswers;
  budget: WorkBudget;
}

/**
 * The binary detector table: the first row whose `matches` holds judges the bytes. A new binary format is a
 * folder under `src/content/` (its structure walk, its active-content check) and one row here; `kinds.ts`
 * names its kind and mime types, `binary-kind.ts` its signature.
 */
interface BinaryDetector {
  /** the format, for readers of this table */
  format: string;
  matches: (kind: string, bytes: Buffer) => boolean;
  judge: (kind: string, bytes: Buffer, context: BinaryContext) => ContentSniff | NeedsFileType;
}

const binaryDetectors: readonly BinaryDetector[] = [
  {
    format: 'zip-based archives (archive/)',
    matches: (kind, bytes) => kind === 'zip' || zipBased(bytes),
    judge: zipFindings,
  },
  { format: 'compound files (archive/)', matches: (kind) => kind === 'cfb' || kind === 'msi', judge: cfbFindings },
  { format: 'executables', matches: (kind) => describeExecutable(kind) !== null, judge: executableFindings },
  { format: 'pdf (pdf/)', matches: (kind) => kind === 'pdf', judge: pdfDocumentFindings },
  { format: 'raster images (image/)', matches: (kind) => imageKinds.has(kind), judge: imageFindings },
];

function binaryFindings(
  kind: string,
  bytes: Buffer,
  options: SniffOptions,
  answers: FileTypeAnswers,
  budget: WorkBudget,
): ContentSniff | NeedsFileType {
  const detector = binaryDetectors.find((row) => row.matches(kind, bytes));
  return detector === undefined ? sniffOf(kind, false) : detector.judge(kind, bytes, { options, answers, budget });
}

function zipFindings(_kind: string, bytes: Buffer, { budget }: BinaryContext): ContentSniff {
  const listing = readZipDirectory(bytes, budget) ?? { entries: scanLocalHeaders(bytes, 0, budget), start: 0 };
  const zip = classifyZip(bytes, listing);
  const sniff = sniffOf(zip.kind, false);
  sniff.active = zip.active ?? describeExecutable(zip.kind);
  return sniff;
}

function cfbFindings(_kind: string, bytes: Buffer): ContentSniff {
  const cfb = classifyCfb(bytes);
  const sniff = sniffOf(cfb.kind, false);
  sniff.active = cfb.active ?? describeExecutable(cfb.kind);
  return sniff;
}

function executableFindings(kind: string): ContentSniff {
  const sniff = sniffOf(kind, false);
  sniff.active = describeExecutable(kind);
  return sniff;
}

function pdfDocumentFindings(kind: string, bytes: Buffer, { options, budget }: BinaryContext): ContentSniff {
  const sniff = sniffOf(kind, false);
  const pdf = pdfFindings(bytes, options, budget);
  sniff.active = pdf.active ?? polyglot(kind, bytes, 0, budget);
  sniff.uninterpretable = pdf.uninterpretable;
  return sniff;
}

function imageFindings(
  kind: string,
  bytes: Buffer,
  { options, answers, budget }: BinaryContext,
): ContentSniff | NeedsFileType {
  const sniff = sniffOf(kind, false);
  budget.spend('image', bytes.length);
  const structure = imageStructure(kind, bytes, budget);
  sniff.width = structure?.width ?? null;
  sniff.height = structure?.height ?? null;
  const metadata = readMetadata(kind, bytes);
  const truncated = structure === null || structure.end === null;
  const end = structure?.end ?? 0;
  sniff.uninterpretable = truncated
    ? `truncated ${kind} image: its structure ends before the data does`
    : (structure.malformed ?? metadata.uninterpretable);
  sniff.active =
    polyglot(kind, bytes, end, budget) ??
    metadata.active ??
    scriptPolyglot(kind, bytes, budget) ??
    pdfInside(kind, bytes, options, budget);
  if (truncated) return sniff;
  // padding between the image and appended data does not hide it: `MZ` after 16 zero bytes is still a pe to a carver
  const from = end + paddingLength(bytes, end);
  if (sniff.active === null && from < bytes.length) {
    const trailing = trailingFormatWith(bytes.subarray(from), () => binaryAt(bytes, from, answers), budget);
    if (trailing === undefined) return { fileTypeAt: from };
    if (trailing !== null) sniff.active = `${trailing} after the end of the ${kind} image (polyglot)`;
  }
  return sniff;
}

// Text as the checks read it: its UTF-8 bytes (past any byte order mark), searched natively, and the decoded
// string, made only when a parser or the JSON check must read it
interface TextView {
  utf8: Buffer;
  text: () => string;
  /** findings of the string scan (UTF-16), or null when the UTF-8 bytes are scanned */
  unsafe: string[] | null;
  issues: readonly string[];
}

// UTF-8 stays bytes (a text carrier is already a string: it is reused, not decoded again); UTF-16 is decoded
function readText(bytes: Buffer, hasNul: boolean, original: string | undefined): TextView | null {
  if (original !== undefined && !hasNul) {
    const bom = original.charCodeAt(0) === 0xfeff;
    return {
      utf8: bom ? bytes.subarray(3) : bytes,
      text: () => (bom ? original.slice(1) : original),
      unsafe: null,
      issues: [],
    };
  }
  const from = utf8TextStart(bytes);
  if (from !== -1) {
    const utf8 = bytes.subarray(from);
    let decoded: string | undefined;
    return { utf8, text: () => (decoded ??= utf8.toString('utf8')), unsafe: null, issues: [] };
  }
  const decoded = decodeText(bytes);
  if (decoded === null) return null;
  return {
    utf8: Buffer.from(decoded.text, 'utf8'),
    text: () => decoded.text,
    unsafe: findUnsafeText(decoded.text),
    issues: decoded.issues,
  };
}

function textFindings(
  bytes: Buffer,
  view: TextView,
  options: SniffOptions,
  budget: WorkBudget,
  seen: SeenKind,
): ContentSniff {
  budget.spend('text', bytes.length);
  const unsafe = view.unsafe ?? findUnsafeUtf8(bytes);
  if (view.issues.length > 0) unsafe.unshift(...view.issues);
  if (options.text !== undefined && hasLoneSurrogate(options.text))
    unsafe.push('text holds unpaired utf-16 surrogates');
  const textKind = classifyUtf8(view.utf8, 0, view.text);
  seen.kind = textKind;
  seen.textual = true;
  const sniff = sniffOf(textKind, true);
  sniff.unsafe = unsafe;
  sniff.invisible = options.findInvisible === false ? null : findInvisibleUtf8(view.utf8);
  if (textKind === 'pdf') {
    const pdf = pdfFindings(bytes, options, budget);
    sniff.active = pdf.active;
    sniff.uninterpretable = pdf.uninterpretable;
    return sniff;
  }
  const executable = describeExecutable(textKind);
  if (executable !== null) {
    sniff.active = executable;
    return sniff;
  }
  if (textKind === 'svg' || textKind === 'xml') {
    const markup = readMarkup(view.text(), textKind, budget);
    // XML also reaches readers that never parse it as XML: XML declared as text reaches markdown renderers and
    // HTML parsers, and SVG is inlined into HTML pages; both read comments, CDATA sections and processing
    // instructions the HTML way (`<!--><img onerror=…>-->` holds a live element), so they judge it too
    sniff.active =
      markup.active ?? findActiveMarkupUtf8(view.utf8, textKind === 'svg' ? 'html' : 'text', view.text, budget);
    // an image/svg+xml reader stops at the first error; what a lenient reader makes of the rest is unknown
    if (textKind === 'svg' && markup.malformed !== null)
      sniff.uninterpretable = `svg is not well-formed xml: ${markup.malformed}`;
  } else if (textKind === 'html') {
    sniff.active = findActiveMarkupUtf8(view.utf8, 'html', view.text, budget);
  } else if (textKind === 'text') {
    // markdown is what its renderers make of it (a `<script>` shown in a code block is text); other text may
    // reach a reader that takes the raw text as HTML (judgeContent decides by the declared type)
    sniff.active = findActiveMarkupUtf8(view.utf8, 'markdown', view.text, budget);
    if (sniff.active === null) sniff.activeUnlessMarkdown = findActiveMarkupUtf8(view.utf8, 'html', view.text, budget);
  } else if (textKind === 'json') {
    // JSON is data to a JSON consumer, but text or markdown to a renderer: `["<script>…</script>"]` declared
    // text/markdown renders the script (judgeContent decides by the declared type)
    sniff.activeUnlessJson = findActiveMarkupUtf8(view.utf8, 'text', view.text, budget);
  }
  return sniff;
}

function pdfFindings(
  bytes: Buffer,
  options: SniffOptions,
  budget: WorkBudget,
): { active: string | null; uninterpretable: string | null } {
  const scan = scanPdf(bytes, options.maxInflateBytes ?? defaultMaxInflateBytes, undefined, budget);
  return { active: scan.active, uninterpretable: scan.uninterpretable };
}

function polyglot(kind: string, bytes: Buffer, end: number, budget: WorkBudget): string | null {
  const archive = embeddedArchive(bytes, end, budget);
  return archive === null ? null : `the ${kind} is also ${archive} (polyglot)`;
}

// PDF readers look for `%PDF-` anywhere in the first KiB (Acrobat, pdf.js), so a PDF carried inside an image
// (a chunk, a comment) there opens as one; later in the file it is data to them
/** Leading bytes in which PDF readers look for the `%PDF-` header, bytes. */
const pdfHeaderSearchBytes = 1024;

function pdfInside(kind: string, bytes: Buffer, options: SniffOptions, budget: WorkBudget): string | null {
  const at = bytes.subarray(0, pdfHeaderSearchBytes).indexOf('%PDF-', 0, 'latin1');
  if (at === -1) return null;
  const pdf = pdfFindings(bytes.subarray(at), options, budget);
  return pdf.active === null ? null : `the ${kind} carries a pdf with ${pdf.active}`;
}

// a header that opens a script comment (`GIF89a/*`) and script after the image's end marker
function scriptPolyglot(kind: string, bytes: Buffer, budget: WorkBudget): string | null {
  return parsesAsScript(bytes, budget) ? `the ${kind} is also a javascript program (polyglot)` : null;
}

// encoders pad with zeros or 0xFF; white space comes from text-mode transfers
function paddingLength(bytes: Buffer, from: number): number {
  let i = from;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b !== 0x00 && b !== 0xff && b !== 0x0a && b !== 0x0d && b !== 0x20 && b !== 0x09) break;
    i++;
  }
  return i - from;
}

function zipBased(bytes: Buffer): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    (bytes[2] === 0x03 || bytes[2] === 0x05) &&
    (bytes[3] === 0x04 || bytes[3] === 0x06)
  );
}
