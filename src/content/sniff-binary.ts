// Binary items: the detector table, one row per format, each judging the bytes its kinds name.
import { classifyCfb } from './archive/cfb-kind.ts';
import { readZipDirectory, scanLocalListing } from './archive/zip-entries.ts';
import { classifyZip } from './archive/zip-kind.ts';
import { blankSniff, type ContentSniff, type SniffOptions } from './content-sniff.ts';
import { describeExecutable } from './executable-kinds.ts';
import { binaryAt, type FileTypeAnswers, type NeedsFileType } from './file-type-answers.ts';
import { readMetadata } from './image/image-metadata.ts';
import { imageStructure } from './image/image-structure.ts';
import { activeAsHtml, embeddedArchive, parsesAsScript, trailingFormatWith } from './polyglot.ts';
import { pdfFindings, pdfInside } from './sniff-pdf.ts';
import type { WorkBudget } from './work-budget.ts';
import type { ConsumerId } from './consumers/content-consumer.ts';
import { binaryConsumerOf, defaultProfile } from './consumers/consumer-registry.ts';

const imageKinds = new Set(['png', 'apng', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'heic']);

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

/** Judges binary bytes of `kind` by the first detector row that matches them; a kind no row names has no findings. */
export function binaryFindings(
  kind: string,
  bytes: Buffer,
  options: SniffOptions,
  answers: FileTypeAnswers,
  budget: WorkBudget,
): ContentSniff | NeedsFileType {
  const detector = binaryDetectors.find((row) => row.matches(kind, bytes));
  return detector === undefined ? blankSniff(kind, false) : detector.judge(kind, bytes, { options, answers, budget });
}

// a consumer of the policy's profile reads the bytes: its findings count, others' do not
function protects(options: SniffOptions, consumer: ConsumerId | null): boolean {
  return consumer !== null && (options.consumers ?? defaultProfile).has(consumer);
}

function zipFindings(_kind: string, bytes: Buffer, { budget, options }: BinaryContext): ContentSniff {
  const listing = readZipDirectory(bytes, budget) ?? scanLocalListing(bytes, budget);
  const zip = classifyZip(bytes, listing);
  const sniff = blankSniff(zip.kind, false);
  // code an archive carries runs in an interpreter (`java -jar`, a browser's extension installer, an office macro host)
  if (protects(options, 'shell')) sniff.active = zip.active ?? describeExecutable(zip.kind);
  sniff.uninterpretable = zip.uninterpretable;
  return sniff;
}

function cfbFindings(_kind: string, bytes: Buffer, { options }: BinaryContext): ContentSniff {
  const cfb = classifyCfb(bytes);
  const sniff = blankSniff(cfb.kind, false);
  if (protects(options, 'shell')) sniff.active = cfb.active ?? describeExecutable(cfb.kind);
  sniff.uninterpretable = cfb.uninterpretable;
  return sniff;
}

function executableFindings(kind: string, _bytes: Buffer, { options }: BinaryContext): ContentSniff {
  const sniff = blankSniff(kind, false);
  if (protects(options, binaryConsumerOf(kind))) sniff.active = describeExecutable(kind);
  return sniff;
}

function pdfDocumentFindings(kind: string, bytes: Buffer, { options, budget }: BinaryContext): ContentSniff {
  const sniff = blankSniff(kind, false);
  if (protects(options, 'pdf-reader')) {
    const pdf = pdfFindings(bytes, options, budget);
    sniff.active = pdf.active;
    sniff.uninterpretable = pdf.uninterpretable;
  }
  if (sniff.active === null && protects(options, 'shell')) sniff.active = polyglot(kind, bytes, 0, budget);
  return sniff;
}

function imageFindings(
  kind: string,
  bytes: Buffer,
  { options, answers, budget }: BinaryContext,
): ContentSniff | NeedsFileType {
  const sniff = blankSniff(kind, false);
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
  // an image is inert to its viewer; a second consumer of the profile that reads the same bytes as another format
  // judges them as that format: a zip reader the archive in it, a sniffing browser its metadata as HTML and the
  // file as a script, a pdf reader a pdf structure anywhere in it
  const readings: readonly [ConsumerId, () => string | null][] = [
    ['shell', () => polyglot(kind, bytes, end, budget)],
    ['browser', () => metadata.active],
    ['browser', () => scriptPolyglot(kind, bytes, budget)],
    ['pdf-reader', () => pdfInside(kind, bytes, options, budget)],
  ];
  for (const [consumer, read] of readings) {
    if (sniff.active === null && protects(options, consumer)) sniff.active = read();
  }
  // the whole image read as a page comes last: what follows the image's end is named as such first
  const asPage = (): ContentSniff => {
    if (sniff.active === null && protects(options, 'browser')) sniff.active = activeAsHtml(kind, bytes, budget);
    return sniff;
  };
  if (truncated) return asPage();
  // padding between the image and appended data does not hide it: `MZ` after 16 zero bytes is still a pe to a carver
  const from = end + paddingLength(bytes, end);
  if (sniff.active === null && from < bytes.length) {
    const trailing = trailingFormatWith(bytes.subarray(from), () => binaryAt(bytes, from, answers), budget);
    if (trailing === undefined) return { fileTypeAt: from };
    if (trailing !== null) sniff.active = `${trailing} after the end of the ${kind} image (polyglot)`;
  }
  return asPage();
}

function polyglot(kind: string, bytes: Buffer, end: number, budget: WorkBudget): string | null {
  const archive = embeddedArchive(bytes, end, budget);
  return archive === null ? null : `the ${kind} is also ${archive} (polyglot)`;
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
