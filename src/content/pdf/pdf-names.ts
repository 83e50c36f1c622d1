// PDF names (PDF 32000 §7.3.5) as the active-content scan reads them: `#xx` escapes decoded (PDF 1.2+,
// `/J#61vaScript`), found by one byte loop that looks at every byte once.
import { quoteValue } from '../../decision/quote-value.ts';
import type { WorkBudget } from '../work-budget.ts';
import { isNumericFontMatrix } from './pdf-font-matrix.ts';
import { RangeStrings, type StringSkipState } from './pdf-literal-strings.ts';
import { type StringOpener, scriptStringAt, uriTargetAfter } from './pdf-uri-target.ts';

/** Names that make a PDF active (besides a `/URI`, or a file `/F` or `/UF` pdf.js hands on as a link target, with a script target and a `/FontMatrix` that is not numbers, read where they stand): script, launch actions, attachments (the attachment stream's `/Type` is optional, so a file specification's `/EF` and a `/FileAttachment` annotation count too), rich media, XFA forms, form submission and data import. */
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
// first byte of a name that can decode to an active name, a target key or `Encrypt` (or starts with an escape)
const interestingFirst = new Uint8Array(256);
for (const c of 'JLERXSIFUB#') interestingFirst[c.charCodeAt(0)] = 1;
/** Longest written name that can decode to an active name or `Encrypt`: `EmbeddedFiles` with every letter escaped. */
const maxInterestingRawName = 3 * 'EmbeddedFiles'.length;

const nameToken = /\/((?:[^\0\s/[\]<>(){}%#]|#[0-9A-Fa-f]{2})+)/g;

/** What the name scans of one PDF share: bytes read for names, whether `/Encrypt` was seen, the work budget. */
export interface NameScanState {
  readonly work: { scannedBytes: number };
  encrypted: boolean;
  readonly budget: WorkBudget;
  /** true once a `/URI` target given by reference (`/URI 9 0 R`) was seen */
  uriByReference: boolean;
  /** the script scheme of the first string seen that starts with one (`javascript:`), or null */
  scriptString: string | null;
  /** while an encrypted file's object layer is read: how its strings decrypt (a link target is read in the clear) */
  openString?: StringOpener | undefined;
}

/** Decodes `#xx` escapes of a PDF name (without its slash). */
export function decodeName(raw: string): string {
  return raw.includes('#')
    ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : raw;
}

/** An active name found in the bytes: decoded, and as written; for a `/URI`, the script scheme of its target. */
export interface FoundName {
  name: string;
  raw: string;
  scheme?: string;
  /** what makes an otherwise inert name active (a `/FontMatrix` that is not numbers) */
  detail?: string;
}

/** The finding for an active name seen `where` (\`in the object layer\`, …), with its escaped spelling when it had one. */
export function describeName(found: FoundName, where: string): string {
  const written = found.raw !== found.name ? ` (written ${quoteValue(`/${found.raw}`)})` : '';
  const target = found.scheme === undefined ? '' : ` with a ${quoteValue(found.scheme)} target`;
  const detail = found.detail === undefined ? '' : ` ${found.detail}`;
  return `pdf active content \`/${found.name}\`${written}${target}${detail} ${where}`;
}

// the first active name in bytes [from, to), as the `nameToken` pattern would find it, or a `/URI` whose target has a
// script scheme; notes `/Encrypt`, a `/URI` target by reference and a script-scheme string on the way. One pass: every
// byte is looked at once, as part of a name or on the way to the next `/`. With `skip` (the file's object layer), a
// literal string every reader takes for one is passed over for names (pdf-literal-strings.ts)
export function findActiveName(
  b: Buffer,
  from: number,
  to: number,
  state: NameScanState,
  skip: StringSkipState | null = null,
): FoundName | null {
  if (to > from) {
    state.work.scannedBytes += to - from;
    state.budget.spend('pdf', to - from);
  }
  const strings = skip === null ? null : new RangeStrings(b, from, to, state.budget, skip);
  let i = from;
  while (i < to) {
    if (b[i] !== 0x2f) {
      // a string that may be a `/URI` target given by reference
      // (as written: an encrypted file's strings are read decrypted once such a target is seen, pdf-active.ts)
      if ((b[i] === 0x28 || b[i] === 0x3c) && state.scriptString === null)
        state.scriptString = scriptStringAt(b, i, to, state.budget);
      const end = strings === null ? -1 : strings.at(i);
      i = end === -1 ? i + 1 : passString(b, i + 1, end, state);
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
      if (name === 'FontMatrix' && !isNumericFontMatrix(b, end, to, state.budget))
        return { name, raw, detail: 'that is not an array of numbers (pdf.js before 4.2.67 runs it, CVE-2024-4367)' };
      if (name === 'URI' || name === 'F' || name === 'UF' || name === 'Base') {
        const key = name === 'URI' ? 'uri' : name === 'Base' ? 'base' : 'file';
        const target = uriTargetAfter(b, end, to, state.budget, key, state.openString);
        if (target === 'undecryptable')
          return {
            name,
            raw,
            detail: 'whose encrypted target string stands in no object, so its key is unknown',
          };
        // a target by reference may be any string of the file, read as the viewer reads it (decrypted: pdf-active.ts)
        if (target === 'reference') state.uriByReference = true;
        else if (target !== null) return { name, raw, scheme: target.scheme };
      }
    }
    i = length > 0 ? end : slash + 1;
  }
  return null;
}

// the bytes (at, end) of a literal string passed over for names: nested strings are still read as possible `/URI`
// targets by reference, and an `Encrypt` in it still notes the file as encrypted (both as before the pass); after it
function passString(b: Buffer, at: number, end: number, state: NameScanState): number {
  for (let k = at; k < end; k++) {
    if ((b[k] === 0x28 || b[k] === 0x3c) && state.scriptString === null)
      state.scriptString = scriptStringAt(b, k, end, state.budget);
  }
  if (b.subarray(at, end).includes('Encrypt', 0, 'latin1')) state.encrypted = true;
  return end;
}

/** `text` with the `#xx` escapes of every name in it decoded. */
export function decodeNamesIn(text: string): string {
  return text.replace(nameToken, (_, raw: string) => `/${decodeName(raw)}`);
}
