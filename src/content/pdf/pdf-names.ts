// PDF names (PDF 32000 §7.3.5) as the active-content scan reads them: `#xx` escapes decoded (PDF 1.2+,
// `/J#61vaScript`), found by one byte loop that looks at every byte once.
import { quoteValue } from '../../decision/quote-value.ts';
import type { WorkBudget } from '../work-budget.ts';

/** Names that make a PDF active: script, launch actions, attachments (the attachment stream's `/Type` is optional, so a file specification's `/EF` and a `/FileAttachment` annotation count too), rich media, XFA forms, form submission and data import. */
export const activePdfNames: ReadonlySet<string> = new Set([
  'JavaScript',
  'JS',
  'Launch',
  'EmbeddedFile',
  'EmbeddedFiles',
  'EF',
  'FileAttachment',
  'RichMedia',
  'XFA',
  'SubmitForm',
  'ImportData',
]);

/**
 * 1 for a byte that ends a name: PDF delimiters and white space (PDF 32000 §7.2.3: NUL, TAB, LF, FF, CR, space; VT
 * and NBSP too, as the former `\s` class had them); `#` ends it unless two hex digits follow.
 */
export const nameEnd = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]) nameEnd[c] = 1;
for (const c of '/[]<>(){}%') nameEnd[c.charCodeAt(0)] = 1;
const isHex = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') isHex[c.charCodeAt(0)] = 1;
// first byte of a name that can decode to an active name or `Encrypt` (or starts with an escape)
const interestingFirst = new Uint8Array(256);
for (const c of 'JLERXSIF#') interestingFirst[c.charCodeAt(0)] = 1;
/** Longest written name that can decode to an active name or `Encrypt`: `EmbeddedFiles` with every letter escaped. */
const maxInterestingRawName = 3 * 'EmbeddedFiles'.length;

const nameToken = /\/((?:[^\0\s/[\]<>(){}%#]|#[0-9A-Fa-f]{2})+)/g;

/** What the name scans of one PDF share: bytes read for names, whether `/Encrypt` was seen, the work budget. */
export interface NameScanState {
  readonly work: { scannedBytes: number };
  encrypted: boolean;
  readonly budget: WorkBudget;
}

/** Decodes `#xx` escapes of a PDF name (without its slash). */
export function decodeName(raw: string): string {
  return raw.includes('#')
    ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : raw;
}

/** An active name found in the bytes: decoded, and as written. */
export interface FoundName {
  name: string;
  raw: string;
}

/** The finding for an active name seen `where` (\`in the object layer\`, …), with its escaped spelling when it had one. */
export function describeName(found: FoundName, where: string): string {
  return `pdf active content \`/${found.name}\`${found.raw !== found.name ? ` (written ${quoteValue(`/${found.raw}`)})` : ''} ${where}`;
}

// the first active name in bytes [from, to), as the `nameToken` pattern would find it; notes `/Encrypt` on the
// way. One pass: every byte is looked at once, as part of a name or on the way to the next `/`
export function findActiveName(b: Buffer, from: number, to: number, state: NameScanState): FoundName | null {
  if (to > from) {
    state.work.scannedBytes += to - from;
    state.budget.spend('pdf', to - from);
  }
  let i = from;
  while (i < to) {
    if (b[i] !== 0x2f) {
      i++;
      continue;
    }
    const slash = i;
    let end = slash + 1;
    while (end < to) {
      const c = b[end] ?? 0;
      if (nameEnd[c] === 1) break;
      if (c === 0x23) {
        if (end + 2 < to && isHex[b[end + 1] ?? 0] === 1 && isHex[b[end + 2] ?? 0] === 1) end += 3;
        else break;
      } else {
        end++;
      }
    }
    const length = end - slash - 1;
    if (length > 0 && length <= maxInterestingRawName && interestingFirst[b[slash + 1] ?? 0] === 1) {
      const raw = b.toString('latin1', slash + 1, end);
      const name = decodeName(raw);
      if (activePdfNames.has(name)) return { name, raw };
      if (name === 'Encrypt') state.encrypted = true;
    }
    i = length > 0 ? end : slash + 1;
  }
  return null;
}

/** `text` with the `#xx` escapes of every name in it decoded. */
export function decodeNamesIn(text: string): string {
  return text.replace(nameToken, (_, raw: string) => `/${decodeName(raw)}`);
}
