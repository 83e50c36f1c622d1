// What two readers of an image's pair sites (byte-sites.ts) look for, found in one loop over the sites: a PDF marker
// (`%PDF-`, `%%EOF`, `startxref`, `trailer`: sniff-pdf.ts reads the image as a PDF) and a `<style` or `<link` start tag
// (polyglot.ts: a stylesheet a page made of the image loads). Each loop read every site of the body (5,900 in 8 MiB of
// random bytes, most of them a cache miss), and neither decides anything by its own answer alone: the answers are
// made once for the sites the body's sniff keeps (`keepingPairSites`), and whichever reader asks first pays the loop.
// Both are pure answers of the bytes (no budget is spent), so the order the readers ask in changes nothing.
import { spellsAt } from '../ascii-bytes.ts';
import { answerOfSites } from './byte-sites.ts';

/** Whether a body's pair sites hold a PDF marker and a stylesheet start tag (see `siteMarks`). */
export interface SiteMarks {
  /** `%PDF-`, `%%EOF`, `startxref` or `trailer`, byte for byte, at a site */
  pdfMarker: boolean;
  /** a `<style` or `<link` start tag, ASCII case-insensitive, its name ended as the HTML tokenizer ends one */
  stylesheetTag: boolean;
}

// what marks PDF structure in an image's bytes; each starts with a pair the byte-site pass lists (`%P`, `%%`, `st`, `tr`)
const pdfMarkers: readonly string[] = ['%PDF-', '%%EOF', 'startxref', 'trailer'];
const pdfMarkerBytes = pdfMarkers.map((marker) => Buffer.from(marker, 'latin1'));
const styleName = Buffer.from('style', 'latin1');
const linkName = Buffer.from('link', 'latin1');

/**
 * The PDF markers and stylesheet start tags at the pair sites of `bytes`, looked at in one indexed loop (no closure
 * per site) that stops once both are found; made once per body while its sites are kept (`answerOfSites`).
 */
export function siteMarks(bytes: Uint8Array): SiteMarks {
  return answerOfSites(bytes, marksAt);
}

function marksAt(bytes: Uint8Array, sites: Int32Array): SiteMarks {
  let pdfMarker = false;
  let stylesheetTag = false;
  for (let i = 0; i < sites.length && !(pdfMarker && stylesheetTag); i++) {
    const at = sites[i] as number;
    const b = bytes[at];
    if (b === 0x3c) {
      if (!stylesheetTag) stylesheetTag = stylesheetTagAt(bytes, at);
    } else if (!pdfMarker && (b === 0x25 || b === 0x73 || b === 0x74)) pdfMarker = pdfMarkerAt(bytes, at);
  }
  return { pdfMarker, stylesheetTag };
}

// `<style` or `<link` at `at`, ASCII case-insensitive, its name ended by white space, `/` or `>` (a NUL or another
// letter makes another name, the end of the bytes no tag)
function stylesheetTagAt(bytes: Uint8Array, at: number): boolean {
  const first = (bytes[at + 1] ?? 0) | 0x20;
  const name = first === 0x73 ? styleName : first === 0x6c ? linkName : null;
  return name !== null && spellsAt(bytes, at + 1, name) && endsTagName(bytes[at + 1 + name.length]);
}

function endsTagName(b: number | undefined): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x2f || b === 0x3e;
}

function pdfMarkerAt(bytes: Uint8Array, at: number): boolean {
  for (let k = 0; k < pdfMarkerBytes.length; k++)
    if (spelledExactlyAt(bytes, at, pdfMarkerBytes[k] as Buffer)) return true;
  return false;
}

function spelledExactlyAt(bytes: Uint8Array, at: number, word: Buffer): boolean {
  if (at + word.length > bytes.length) return false;
  for (let k = 0; k < word.length; k++) if (bytes[at + k] !== word[k]) return false;
  return true;
}
