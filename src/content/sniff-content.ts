// One pass over an item's decoded bytes: real kind, active content, unsafe text, structure problems, image size.
import { blankSniff, type ContentSniff, type SeenKind, type SniffOptions } from './content-sniff.ts';
import { fileTypeKind } from './binary-kind.ts';
import { binaryAt, type FileTypeAnswers, type NeedsFileType } from './file-type-answers.ts';
import { EMPTY_KIND, UNKNOWN_KIND } from './kinds.ts';
import { binaryFindings } from './sniff-binary.ts';
import { readSingleByteText, readText, scanUtf8Early, textFindings } from './sniff-text.ts';
import { keepingPairSites } from './text/byte-sites.ts';
import { startsWithBom } from './text/text-encoding.ts';
import { WorkBudget, WorkExhausted } from './work-budget.ts';

/** What the bytes of one item really are, and how to sniff them; defined in content-sniff.ts, named here for the sniff's callers. */
export type { ContentSniff, SniffOptions } from './content-sniff.ts';

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
    // the body's readings (the page screen, the pdf search) share one listing of its pair sites
    return keepingPairSites(() => sniffWithin(bytes, options, answers, budget, seen));
  } catch (error) {
    const why = tooComplex(error);
    if (why === null) throw error;
    const sniff = blankSniff(seen.kind, seen.textual);
    sniff.tooComplex = why;
    return sniff;
  }
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
  if (bytes.length === 0) return blankSniff(EMPTY_KIND, true);

  // text without NULs is text whatever its first bytes say: `MZ-80K notes` is not a PE file. Valid UTF-8 is scanned
  // for the text checks first, and that scan says whether it holds a NUL (no second search of the bytes). Bytes that
  // are neither UTF-8 nor UTF-16 and that no signature names are text when a browser calls them text (windows-1252)
  const early = scanUtf8Early(bytes, options.findInvisible !== false);
  const hasNul = early === null ? bytes.indexOf(0) !== -1 : early.nul;
  const binaryFirst = hasNul && !startsWithBom(bytes);
  let kind: string | null = null;
  if (binaryFirst) {
    const named = binaryAt(bytes, 0, answers);
    if (named === undefined) return { fileTypeAt: 0 };
    kind = named;
  }
  const text = kind === null ? readText(bytes, hasNul, options.text, early) : null;
  if (text === null && !binaryFirst) {
    const named = binaryAt(bytes, 0, answers);
    if (named === undefined) return { fileTypeAt: 0 };
    kind = named;
  }
  if (text !== null && kind === null) return textFindings(bytes, text, options, budget, seen);
  if (kind === null) {
    // no signature and no binary data byte (MIME Sniffing §7.2): latin-1 text, as a browser reads it
    const single = hasNul || startsWithBom(bytes) ? null : readSingleByteText(bytes, options.declaredMime ?? null);
    if (single !== null) return textFindings(bytes, single, options, budget, seen);
    return blankSniff(UNKNOWN_KIND, false);
  }
  seen.kind = kind;
  return binaryFindings(kind, bytes, options, answers, budget);
}
