// Binary items: the detector table, one row per format, each judging the bytes its kinds name.
import { classifyCfb } from './archive/cfb-kind.ts';
import { readZipDirectory, scanLocalListing } from './archive/zip-entries.ts';
import { classifyZip } from './archive/zip-kind.ts';
import { blankSniff, type ContentSniff, type SniffOptions } from './content-sniff.ts';
import { describeExecutable } from './executable-kinds.ts';
import { binaryAt, type FileTypeAnswers, type NeedsFileType } from './file-type-answers.ts';
import { readMetadata } from './image/image-metadata.ts';
import { imageStructure } from './image/image-structure.ts';
import { trailingFormatWith } from './polyglot.ts';
import type { WorkBudget } from './work-budget.ts';
import { browserConsumer } from './consumers/browser.ts';
import type { BinaryBody, BinaryStep } from './consumers/content-consumer.ts';
import { binaryStep, defaultProfile, executableStep, judgeBinaryForProfile } from './consumers/consumer-registry.ts';
import { pdfReaderConsumer } from './consumers/pdf-reader.ts';
import { shellConsumer } from './consumers/shell.ts';

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
  for (let i = 0; i < binaryDetectors.length; i++) {
    const detector = binaryDetectors[i] as BinaryDetector;
    if (detector.matches(kind, bytes)) return detector.judge(kind, bytes, { options, answers, budget });
  }
  return blankSniff(kind, false);
}

// the format readers below read a body's structure; what a consumer makes active of it is judged by the consumer
// registry, by the readings each format names here, in order, for the consumers of the policy's profile
const archiveSteps = [binaryStep(shellConsumer, 'archive')];
const pdfSteps = [binaryStep(pdfReaderConsumer, 'document'), binaryStep(shellConsumer, 'appendedArchive')];
// an image is inert to its viewer; a second consumer of the profile that reads the same bytes as another format
// judges them as that format: a zip reader the archive in it, a sniffing browser its metadata as HTML and the file
// as a script, a pdf reader a pdf structure anywhere in it
const imageSteps = [
  binaryStep(shellConsumer, 'appendedArchive'),
  binaryStep(browserConsumer, 'metadata'),
  binaryStep(browserConsumer, 'script'),
  binaryStep(pdfReaderConsumer, 'carried'),
];
// the whole image read as a page comes last: what follows the image's end is named as such first
const pageSteps = [binaryStep(browserConsumer, 'page')];

function judged(
  sniff: ContentSniff,
  body: Omit<BinaryBody, 'maxInflateBytes'>,
  steps: readonly BinaryStep[],
  context: Pick<BinaryContext, 'options' | 'budget'>,
): ContentSniff {
  return judgedAs(sniff, { ...body, maxInflateBytes: context.options.maxInflateBytes }, steps, context);
}

function judgedAs(
  sniff: ContentSniff,
  body: BinaryBody,
  steps: readonly BinaryStep[],
  { options, budget }: Pick<BinaryContext, 'options' | 'budget'>,
): ContentSniff {
  judgeBinaryForProfile(body, options.consumers ?? defaultProfile, steps, sniff, budget);
  return sniff;
}

function zipFindings(_kind: string, bytes: Buffer, context: BinaryContext): ContentSniff {
  const listing = readZipDirectory(bytes, context.budget) ?? scanLocalListing(bytes, context.budget);
  const zip = classifyZip(bytes, listing);
  const sniff = judged(
    blankSniff(zip.kind, false),
    { kind: zip.kind, bytes, end: 0, carried: zip.active },
    archiveSteps,
    context,
  );
  sniff.uninterpretable = zip.uninterpretable;
  return sniff;
}

function cfbFindings(_kind: string, bytes: Buffer, context: BinaryContext): ContentSniff {
  const cfb = classifyCfb(bytes);
  const sniff = judged(
    blankSniff(cfb.kind, false),
    { kind: cfb.kind, bytes, end: 0, carried: cfb.active },
    archiveSteps,
    context,
  );
  sniff.uninterpretable = cfb.uninterpretable;
  return sniff;
}

function executableFindings(kind: string, bytes: Buffer, context: BinaryContext): ContentSniff {
  const step = executableStep(kind);
  return judged(blankSniff(kind, false), { kind, bytes, end: 0, carried: null }, step === null ? [] : [step], context);
}

function pdfDocumentFindings(kind: string, bytes: Buffer, context: BinaryContext): ContentSniff {
  return judged(blankSniff(kind, false), { kind, bytes, end: 0, carried: null }, pdfSteps, context);
}

function imageFindings(kind: string, bytes: Buffer, context: BinaryContext): ContentSniff | NeedsFileType {
  const { answers, budget } = context;
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
  // one body for both sets of steps, no closure: this runs once per image read, its fixed cost counts at 1 KiB
  const body: BinaryBody = {
    kind,
    bytes,
    end,
    carried: metadata.active,
    maxInflateBytes: context.options.maxInflateBytes,
  };
  judgedAs(sniff, body, imageSteps, context);
  if (truncated) return judgedAs(sniff, body, pageSteps, context);
  // padding between the image and appended data does not hide it: `MZ` after 16 zero bytes is still a pe to a carver
  const from = end + paddingLength(bytes, end);
  if (sniff.active === null && from < bytes.length) {
    const trailing = trailingFormatWith(bytes.subarray(from), () => binaryAt(bytes, from, answers), budget);
    if (trailing === undefined) return { fileTypeAt: from };
    if (trailing !== null) sniff.active = `${trailing} after the end of the ${kind} image (polyglot)`;
  }
  return judgedAs(sniff, body, pageSteps, context);
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
