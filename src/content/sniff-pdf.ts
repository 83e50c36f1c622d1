// A PDF wherever it stands: the whole item (binary, or PDF syntax with no NUL read as text), or carried in
// the leading bytes of an image.
import type { SniffOptions } from './content-sniff.ts';
import { defaultMaxInflateBytes, scanPdf } from './pdf/pdf-active.ts';
import { siteMarks } from './text/site-marks.ts';
import type { WorkBudget } from './work-budget.ts';

/** What the PDF scan found in `bytes`: its first active name and why it cannot be inspected, each or null. */
export function pdfFindings(
  bytes: Buffer,
  options: SniffOptions,
  budget: WorkBudget,
): { active: string | null; uninterpretable: string | null } {
  const scan = scanPdf(bytes, options.maxInflateBytes ?? defaultMaxInflateBytes, undefined, budget);
  return { active: scan.active, uninterpretable: scan.uninterpretable };
}

// PDF readers look for `%PDF-` anywhere in the first KiB (Acrobat, pdf.js), so a PDF carried inside an image
// (a chunk, a comment) there opens as one. Past the first KiB pdf.js still opens it: without a header it reads the
// cross-reference from `startxref` at the end, or rebuilds it by finding every `N G obj` and the trailer anywhere
// in the file, and runs the OpenAction it finds. So an image that holds PDF structure anywhere (a header, a
// trailer, `startxref`, `%%EOF`) is read as a PDF too, whole, as pdf.js's rebuild reads it.
/** Leading bytes in which PDF readers look for the `%PDF-` header, bytes. */
const pdfHeaderSearchBytes = 1024;

/**
 * Whether text `bytes` hold what pdf.js needs to open a document with no header: an object header (`N G obj`, which
 * its rebuild indexes and a cross-reference points at) or a `trailer` keyword before a dictionary (a trailer whose
 * `/Root` is written inline needs no object at all). `startxref`, `%%EOF` or a `trailer` word in prose (`HTTP
 * trailer fields`, `trailersDistinct`) give it no catalog, so nothing in them runs; bytes with no `<<` hold no
 * dictionary at all. Each occurrence is looked at within a few bytes of it: linear in the bytes.
 */
export function holdsPdfStructure(bytes: Buffer): boolean {
  if (!bytes.includes('<<', 0, 'latin1')) return false;
  return holdsTrailerDictionary(bytes) || holdsObjectHeader(bytes);
}

// PDF white space (ISO 32000-2 §7.2.3) and delimiters: a keyword ends before one
function isPdfWhite(c: number | undefined): boolean {
  return c === 0x00 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
}
const delimiters = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
function endsPdfToken(c: number | undefined): boolean {
  return c === undefined || isPdfWhite(c) || delimiters.has(c);
}

/** Most bytes looked at after `trailer` for its dictionary, and before `obj` for its numbers; a longer gap counts as structure (the body is read as a pdf: more is inspected, never less). */
const maxGapBytes = 256;

// `trailer` as a token, then white space and comments, then `<<`
function holdsTrailerDictionary(bytes: Buffer): boolean {
  for (let at = bytes.indexOf('trailer', 0, 'latin1'); at !== -1; at = bytes.indexOf('trailer', at + 7, 'latin1')) {
    // a cross-reference table's reader finds `trailer` wherever it stands after `xref`: no token start is needed
    if (!endsPdfToken(bytes[at + 7])) continue;
    let i = at + 7;
    const stop = Math.min(bytes.length, i + maxGapBytes);
    while (i < stop) {
      if (isPdfWhite(bytes[i])) i++;
      else if (bytes[i] === 0x25) while (i < stop && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
      else break;
    }
    if (bytes[i] === 0x3c && bytes[i + 1] === 0x3c) return true;
    if (i === stop && stop < bytes.length) return true;
  }
  return false;
}

// a number as pdf.js's lexer reads one (`5`, `-0`, `+0`, `0.0`)
function isNumberByte(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e);
}

// `obj` as a token after two numbers (`12 0 obj`, `5 -0 obj`, `5 0obj`)
function holdsObjectHeader(bytes: Buffer): boolean {
  for (let at = bytes.indexOf('obj', 0, 'latin1'); at !== -1; at = bytes.indexOf('obj', at + 3, 'latin1')) {
    if (!endsPdfToken(bytes[at + 3])) continue;
    const floor = Math.max(0, at - maxGapBytes);
    let i = at;
    let numbers = 0;
    while (numbers < 2) {
      const top = i;
      while (i > floor && isPdfWhite(bytes[i - 1])) i--;
      // white space must part the two numbers; none is needed before `obj`
      if (numbers === 1 && i === top) break;
      const end = i;
      while (i > floor && isNumberByte(bytes[i - 1])) i--;
      if (i === end) break;
      numbers++;
    }
    // a run of white space or digits longer than the gap: taken for a header
    if (i === floor && floor > 0) return true;
    // a cross-reference offset may point into a token: `x1 0 obj` read from its `1` is a header
    if (numbers === 2) return true;
  }
  return false;
}

/**
 * `holdsPdfStructure` of binary bytes, where each marker's first byte occurs thousands of times: each marker is compared
 * only at the offsets where its first two bytes stand (byte-sites.ts, site-marks.ts), in the loop that also looks for a
 * stylesheet tag. The search for `<<` runs only when a marker stands: it is the second condition, not a pass of its
 * own over every image (in random bytes the first `<<` is some 64 KiB in, and none is in most small images).
 */
export function binaryHoldsPdfStructure(bytes: Buffer): boolean {
  return siteMarks(bytes).pdfMarker && bytes.includes('<<', 0, 'latin1');
}

/** The finding for a PDF carried in an image (`kind`) that holds active content, or null. */
export function pdfInside(kind: string, bytes: Buffer, options: SniffOptions, budget: WorkBudget): string | null {
  const at = bytes.subarray(0, pdfHeaderSearchBytes).indexOf('%PDF-', 0, 'latin1');
  if (at !== -1) {
    const pdf = pdfFindings(bytes.subarray(at), options, budget);
    return pdf.active === null ? null : `the ${kind} carries a pdf with ${pdf.active}`;
  }
  budget.spend('pdf', bytes.length);
  if (!binaryHoldsPdfStructure(bytes)) return null;
  const pdf = pdfFindings(bytes, options, budget);
  return pdf.active === null ? null : `the ${kind} carries pdf structure that pdf.js opens, with ${pdf.active}`;
}
