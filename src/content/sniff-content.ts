// One pass over an item's decoded bytes: real kind, active content, unsafe text, structure problems, image size.
import { findActiveMarkup } from './active-markup.ts';
import { binaryKind } from './binary-kind.ts';
import { classifyCfb } from './cfb-kind.ts';
import { describeExecutable } from './executable-kinds.ts';
import { imageStructure } from './image-structure.ts';
import { EMPTY_KIND, UNKNOWN_KIND } from './kinds.ts';
import { defaultMaxInflateBytes, scanPdf } from './pdf-active.ts';
import { embeddedArchive, trailingFormat } from './polyglot.ts';
import { decodeText, hasLoneSurrogate, startsWithBom, type DecodedText } from './text-encoding.ts';
import { classifyText } from './text-kind.ts';
import { findUnsafeText, findUnsafeUtf8 } from './unsafe-text.ts';
import { classifyZip } from './zip-kind.ts';
import { readZipDirectory, scanLocalHeaders } from './zip-entries.ts';

/** What the bytes of one item really are; findings are one-line messages, never body text. */
export interface ContentSniff {
  /** real kind id from our table, `empty`, `unknown`, or a file-type extension the table does not list */
  kind: string;
  /** true when the bytes were read as text (UTF-8, or UTF-16) */
  textual: boolean;
  /** why the bytes are executable or active, or null */
  active: string | null;
  /** unsafe characters or encodings in text (NUL, terminal escapes, UTF-16 without BOM); empty when clean */
  unsafe: readonly string[];
  /** why the bytes cannot be interpreted safely (truncated, encrypted, uninspectable), or null */
  uninterpretable: string | null;
  /** image size from its header, pixels; null when not an image or not stated */
  width: number | null;
  height: number | null;
}

/** Options of a sniff. */
export interface SniffOptions {
  /** the item's original text when it came as `text` (lone surrogates are lost in its utf-8 bytes) */
  text?: string;
  /** budget for inflating compressed PDF streams, bytes */
  maxInflateBytes?: number;
}

const imageKinds = new Set(['png', 'apng', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'heic']);

/** Sniffs decoded bytes once: file-type on the leading bytes for binary formats, our own detectors for text, markup, PDF, ZIP, CFB and images. Never executes, renders or writes anything. */
export async function sniffContent(bytes: Buffer, options: SniffOptions = {}): Promise<ContentSniff> {
  const out: ContentSniff = { kind: UNKNOWN_KIND, textual: false, active: null, unsafe: [], uninterpretable: null, width: null, height: null };
  if (bytes.length === 0) return { ...out, kind: EMPTY_KIND, textual: true };

  // text without NULs is text whatever its first bytes say: `MZ-80K notes` is not a PE file
  const hasNul = bytes.indexOf(0) !== -1;
  const binaryFirst = hasNul && !startsWithBom(bytes);
  let kind = binaryFirst ? await binaryKind(bytes) : null;
  const decoded = kind === null ? readText(bytes, options.text) : null;
  if (decoded === null && !binaryFirst) kind = await binaryKind(bytes);

  if (decoded !== null && kind === null) {
    const utf8 = decoded.encoding === 'utf-8' || decoded.encoding === 'utf-8-bom';
    const unsafe = [...decoded.issues, ...(utf8 ? findUnsafeUtf8(bytes) : findUnsafeText(decoded.text))];
    if (options.text !== undefined && hasLoneSurrogate(options.text)) unsafe.push('text holds unpaired utf-16 surrogates');
    const textKind = classifyText(decoded.text);
    const sniff: ContentSniff = { ...out, kind: textKind, textual: true, unsafe };
    if (textKind === 'pdf') return { ...sniff, ...pdfFindings(bytes, options) };
    const executable = describeExecutable(textKind);
    if (executable !== null) return { ...sniff, active: executable };
    if (textKind === 'svg' || textKind === 'html' || textKind === 'xml' || textKind === 'text') {
      sniff.active = findActiveMarkup(decoded.text, textKind);
    }
    return sniff;
  }
  if (kind === null) return out;
  return { ...out, ...(await binaryFindings(kind, bytes, options)) };
}

async function binaryFindings(kind: string, bytes: Buffer, options: SniffOptions): Promise<Partial<ContentSniff> & { kind: string }> {
  if (kind === 'zip' || zipBased(bytes)) {
    const listing = readZipDirectory(bytes) ?? { entries: scanLocalHeaders(bytes), start: 0 };
    const zip = classifyZip(bytes, listing);
    return { kind: zip.kind, active: zip.active ?? describeExecutable(zip.kind) };
  }
  if (kind === 'cfb' || kind === 'msi') {
    const cfb = classifyCfb(bytes);
    return { kind: cfb.kind, active: cfb.active ?? describeExecutable(cfb.kind) };
  }
  const executable = describeExecutable(kind);
  if (executable !== null) return { kind, active: executable };
  if (kind === 'pdf') {
    const pdf = pdfFindings(bytes, options);
    return { kind, ...pdf, active: pdf.active ?? polyglot(kind, bytes, 0) };
  }
  if (imageKinds.has(kind)) {
    const structure = imageStructure(kind, bytes);
    const found: Partial<ContentSniff> & { kind: string } = { kind, width: structure?.width ?? null, height: structure?.height ?? null };
    if (structure === null || structure.end === null) {
      found.uninterpretable = `truncated ${kind} image: its structure ends before the data does`;
      found.active = polyglot(kind, bytes, 0);
      return found;
    }
    const end = structure.end;
    found.active = polyglot(kind, bytes, end);
    if (found.active === null && end < bytes.length) {
      const trailing = await trailingFormat(bytes.subarray(end));
      if (trailing !== null) found.active = `${trailing} after the end of the ${kind} image (polyglot)`;
    }
    return found;
  }
  return { kind, active: null };
}

// a text carrier is already a string: reuse it instead of decoding its utf-8 bytes again
function readText(bytes: Buffer, original: string | undefined): DecodedText | null {
  if (original !== undefined && !bytes.includes(0)) {
    const text = original.charCodeAt(0) === 0xfeff ? original.slice(1) : original;
    return { text, encoding: original.charCodeAt(0) === 0xfeff ? 'utf-8-bom' : 'utf-8', issues: [] };
  }
  return decodeText(bytes);
}

function pdfFindings(bytes: Buffer, options: SniffOptions): { active: string | null; uninterpretable: string | null } {
  const scan = scanPdf(bytes, options.maxInflateBytes ?? defaultMaxInflateBytes);
  return { active: scan.active, uninterpretable: scan.uninterpretable };
}

function polyglot(kind: string, bytes: Buffer, end: number): string | null {
  const archive = embeddedArchive(bytes, end);
  return archive === null ? null : `the ${kind} is also ${archive} (polyglot)`;
}

function zipBased(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 0x03 || bytes[2] === 0x05) && (bytes[3] === 0x04 || bytes[3] === 0x06);
}
