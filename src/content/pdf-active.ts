// PDF active content (DESIGN §5): the names below anywhere in the object layer, also `#xx`-escaped
// (PDF 1.2+ name escapes, `/J#61vaScript`) and inside FlateDecode object streams (PDF 1.5+ ObjStm).
import { constants, inflateSync } from 'node:zlib';

/** Names that make a PDF active: script, launch actions, attachments, rich media, XFA forms, form submission and data import. */
export const activePdfNames: ReadonlySet<string> = new Set([
  'JavaScript',
  'JS',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'RichMedia',
  'XFA',
  'SubmitForm',
  'ImportData',
]);

/** Default budget for inflating one PDF's streams, bytes (all streams together). */
export const defaultMaxInflateBytes = 64 * 1024 * 1024;

/** What a PDF scan found: the first active name, or why the file cannot be checked. */
export interface PdfScan {
  /** decoded active name (`JavaScript`) and where it was seen, or null */
  active: string | null;
  /** why the PDF cannot be inspected (truncated, encrypted, stream over budget), or null */
  uninterpretable: string | null;
}

const nameToken = /\/((?:[^\s\/\[\]<>(){}%#]|#[0-9A-Fa-f]{2})+)/g;

/** Scans PDF bytes for active content without rendering: object layer, then inflated non-image streams; never throws. */
export function scanPdf(bytes: Buffer, maxInflateBytes: number = defaultMaxInflateBytes): PdfScan {
  const s = bytes.toString('latin1');
  const out: PdfScan = { active: null, uninterpretable: null };
  let budget = maxInflateBytes;
  let pos = 0;
  let encrypted = false;

  const scanNames = (text: string, where: string): boolean => {
    for (const m of text.matchAll(nameToken)) {
      const name = decodeName(m[1] ?? '');
      if (activePdfNames.has(name)) {
        out.active = `pdf active content \`/${name}\`${m[1] !== name ? ` (written \`/${m[1]}\`)` : ''} ${where}`;
        return true;
      }
      if (name === 'Encrypt') encrypted = true;
    }
    return false;
  };

  for (;;) {
    const at = findStreamKeyword(s, pos);
    const outside = s.slice(pos, at === -1 ? s.length : at);
    if (scanNames(outside, 'in the object layer')) return out;
    if (at === -1) break;
    const dict = decodeNamesIn(dictBefore(s, at, pos));
    let dataStart = at + 6;
    if (s.charCodeAt(dataStart) === 0x0d) dataStart++;
    if (s.charCodeAt(dataStart) === 0x0a) dataStart++;
    const dataEnd = streamEnd(s, dataStart, dict);
    const data = bytes.subarray(dataStart, dataEnd);
    const verdict = inspectStream(dict, data, budget);
    budget -= verdict.inflated;
    if (verdict.uninterpretable !== null && out.uninterpretable === null) out.uninterpretable = verdict.uninterpretable;
    if (verdict.text !== null && scanNames(verdict.text, 'inside a compressed stream')) return out;
    const after = s.indexOf('endstream', dataEnd);
    pos = after === -1 ? s.length : after + 9;
  }
  if (encrypted && out.uninterpretable === null) out.uninterpretable = 'encrypted pdf: strings and streams cannot be inspected';
  const tail = s.slice(Math.max(0, s.length - 1024));
  if (!tail.includes('%%EOF') && out.uninterpretable === null) out.uninterpretable = 'truncated pdf: no `%%EOF` marker';
  return out;
}

/** Decodes `#xx` escapes of a PDF name (without its slash). */
export function decodeName(raw: string): string {
  return raw.includes('#') ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : raw;
}

function decodeNamesIn(text: string): string {
  return text.replace(nameToken, (_, raw: string) => `/${decodeName(raw)}`);
}

// `stream` as a keyword: after the dictionary's `>>` and followed by an end of line (PDF 32000 §7.3.8.1)
function findStreamKeyword(s: string, from: number): number {
  let i = s.indexOf('stream', from);
  while (i !== -1) {
    const before = s.slice(Math.max(from, i - 16), i).trimEnd();
    const next = s.charCodeAt(i + 6);
    if (before.endsWith('>>') && (next === 0x0a || next === 0x0d)) return i;
    i = s.indexOf('stream', i + 6);
  }
  return -1;
}

// the stream dictionary: from the matching `<<` back from the `>>` that precedes the keyword
function dictBefore(s: string, streamAt: number, floor: number): string {
  let end = streamAt;
  while (end > floor && /\s/.test(s[end - 1] ?? '')) end--;
  let depth = 0;
  for (let i = end - 1; i > floor; i--) {
    if (s[i] === '>' && s[i - 1] === '>') {
      depth++;
      i--;
    } else if (s[i] === '<' && s[i - 1] === '<') {
      depth--;
      i--;
      if (depth === 0) return s.slice(i, end);
    }
  }
  return s.slice(floor, end);
}

// trust a direct /Length only when `endstream` follows it; otherwise search for the keyword
function streamEnd(s: string, dataStart: number, dict: string): number {
  const length = /\/Length\s+(\d{1,12})(?!\s+\d+\s+R)/.exec(dict);
  if (length !== null) {
    const end = dataStart + Number(length[1]);
    if (end <= s.length && /^\s*endstream/.test(s.slice(end, end + 32))) return end;
  }
  const found = s.indexOf('endstream', dataStart);
  if (found === -1) return s.length;
  let end = found;
  if (s.charCodeAt(end - 1) === 0x0a) end--;
  if (s.charCodeAt(end - 1) === 0x0d) end--;
  return Math.max(dataStart, end);
}

interface StreamVerdict {
  text: string | null;
  inflated: number;
  uninterpretable: string | null;
}

function inspectStream(dict: string, data: Buffer, budget: number): StreamVerdict {
  const skip: StreamVerdict = { text: null, inflated: 0, uninterpretable: null };
  // pixel data and font programs are not PDF syntax; scanning them only yields chance matches
  if (/\/Subtype\s*\/Image\b/.test(dict) || /\/Length[123]\b/.test(dict) || /\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)\b/.test(dict)) return skip;
  if (/\/Type\s*\/XRef\b/.test(dict)) return skip;
  const objectStream = /\/Type\s*\/ObjStm\b/.test(dict) || (/\/N\s+\d/.test(dict) && /\/First\s+\d/.test(dict));
  const filters = filterNames(dict);
  if (filters.length === 0) return objectStream ? { text: data.toString('latin1'), inflated: 0, uninterpretable: null } : skip;
  if (filters.length !== 1 || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) {
    return objectStream ? { ...skip, uninterpretable: `pdf object stream with filter \`${filters.join(' ')}\` cannot be inspected` } : skip;
  }
  const predictor = /\/Predictor\s+(\d+)/.exec(dict);
  if (predictor !== null && Number(predictor[1]) > 1) {
    return objectStream ? { ...skip, uninterpretable: 'pdf object stream with a predictor cannot be inspected' } : skip;
  }
  if (budget <= 0) return { ...skip, uninterpretable: 'pdf streams inflate past the inspection budget' };
  try {
    // Z_SYNC_FLUSH keeps what a truncated stream yields instead of throwing it away
    const inflated = inflateSync(data, { maxOutputLength: budget, finishFlush: constants.Z_SYNC_FLUSH });
    return { text: inflated.toString('latin1'), inflated: inflated.length, uninterpretable: null };
  } catch (error) {
    if (error instanceof RangeError) return { ...skip, uninterpretable: 'pdf streams inflate past the inspection budget' };
    return objectStream ? { ...skip, uninterpretable: 'pdf object stream does not inflate' } : skip;
  }
}

function filterNames(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[^\s\/\[\]<>()]+)/.exec(dict);
  if (m === null) return [];
  return [...(m[1] ?? '').matchAll(/\/([^\s\/\[\]<>()]+)/g)].map((x) => x[1] ?? '');
}
