// A PDF wherever it stands: the whole item (binary, or PDF syntax with no NUL read as text), or carried in
// the leading bytes of an image.
import type { SniffOptions } from './content-sniff.ts';
import { defaultMaxInflateBytes, scanPdf } from './pdf/pdf-active.ts';
import { pairSites } from './text/byte-sites.ts';
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

// the rare markers first: `trailer` and `startxref` are slow to search for in prose (their letters are common)
const pdfMarkers = ['%PDF-', '%%EOF', 'startxref', 'trailer'];

/**
 * Whether `bytes` hold PDF structure anywhere (a header, a trailer, `startxref`, `%%EOF`): pdf.js opens them as a PDF.
 * Bytes with no `<<` hold no dictionary (no catalog, no trailer, no action), so nothing in them can run as a PDF.
 */
export function holdsPdfStructure(bytes: Buffer): boolean {
  if (!bytes.includes('<<', 0, 'latin1')) return false;
  return pdfMarkers.some((marker) => bytes.includes(marker, 0, 'latin1'));
}

// the markers as bytes: each starts with a pair the byte-site pass lists (`%P`, `%%`, `st`, `tr`)
const pdfMarkerBytes = pdfMarkers.map((marker) => Buffer.from(marker, 'latin1'));

/** `holdsPdfStructure` of binary bytes, where each marker's first byte occurs thousands of times: each marker is compared only at the offsets where its first two bytes stand (byte-sites.ts). */
export function binaryHoldsPdfStructure(bytes: Buffer): boolean {
  if (!bytes.includes('<<', 0, 'latin1')) return false;
  // indexed loops, no closure per site: a `for…of` made an iterator result per site in a loop that runs once per body
  const sites = pairSites(bytes);
  for (let i = 0; i < sites.length; i++) {
    const at = sites[i] as number;
    const b = bytes[at];
    if ((b === 0x25 || b === 0x73 || b === 0x74) && pdfMarkerAt(bytes, at)) return true;
  }
  return false;
}

function pdfMarkerAt(bytes: Buffer, at: number): boolean {
  for (let k = 0; k < pdfMarkerBytes.length; k++)
    if (spelledExactlyAt(bytes, at, pdfMarkerBytes[k] as Buffer)) return true;
  return false;
}

function spelledExactlyAt(bytes: Buffer, at: number, word: Buffer): boolean {
  if (at + word.length > bytes.length) return false;
  for (let k = 0; k < word.length; k++) if (bytes[at + k] !== word[k]) return false;
  return true;
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
