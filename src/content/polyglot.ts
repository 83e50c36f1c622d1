// Polyglots: bytes that are an image (or PDF) to one reader and an archive or program to another.
// ZIP readers find their directory from the end, so an archive appended after (or hidden inside) an
// image still opens; `java -jar` runs such a file (GIFAR, CVE-2008-… class of attacks).
import { findActiveMarkup } from './svg-html/active-markup.ts';
import { findActiveSniffedHtml } from './svg-html/active-html.ts';
import { fileTypeKind, knownSignatureKind } from './binary-kind.ts';
import { ecmaScript } from './lazy-parsers.ts';
import { decodeText, startsWithBom } from './text/text-encoding.ts';
import { classifyText } from './text/text-kind.ts';
import { classifyZip } from './archive/zip-kind.ts';
import { readZipDirectory, scanLocalHeaders } from './archive/zip-entries.ts';
import { WorkBudget } from './work-budget.ts';
import { mayRunAsSniffedPage } from './sniffed-triggers.ts';
import { findCssImport } from './svg-html/css-import.ts';
import { siteMarks } from './text/site-marks.ts';

/** Describes a ZIP archive that a ZIP reader would find in these bytes (directory at the end, or local headers after `from`); null when there is none. */
export function embeddedArchive(bytes: Buffer, from = 0, budget: WorkBudget = WorkBudget.unlimited()): string | null {
  const listing = readZipDirectory(bytes, budget);
  if (listing !== null && listing.entries.length > 0) {
    const inner = classifyZip(bytes, listing);
    return inner.active ?? `a zip archive (${plural(listing.entries.length, 'entry', 'entries')})`;
  }
  if (from > 0) {
    const local = scanLocalHeaders(bytes, from, budget);
    if (local.length > 0) {
      const inner = classifyZip(bytes, { entries: local, start: from });
      return inner.active ?? `a zip archive (${plural(local.length, 'entry', 'entries')})`;
    }
  }
  return null;
}

/**
 * What a browser that reads the whole of an image as HTML (a host that sniffs it, a page that frames it as a
 * document) finds active in it, wherever the markup starts: pixel data, metadata of any format (AVIF and HEIF items
 * too), data after the end. The bytes are read as windows-1252, as a browser reads a document without a charset;
 * null when nothing runs. Only bytes holding a trigger a browser may act on (sniffed-triggers.ts) are parsed.
 */
export function activeAsHtml(kind: string, bytes: Buffer, budget: WorkBudget = WorkBudget.unlimited()): string | null {
  budget.spend('polyglot', bytes.length);
  if (!mayRunAsSniffedPage(bytes, budget)) return null;
  const found = findActiveSniffedHtml(bytes.toString('latin1'), budget);
  return found === null ? null : `the ${kind} read as html holds ${found} (polyglot)`;
}

/**
 * What a browser that reads the whole of an image as HTML (see `activeAsHtml`) loads from elsewhere by itself: a
 * stylesheet, a `<link rel="stylesheet">` off the page's origin or a css `@import` in a `<style>` element, read as a
 * page's are (`findCssImport`); null when it loads none. Only bytes holding a `<link` or `<style` start tag are parsed.
 */
export function remoteLoadAsHtml(
  kind: string,
  bytes: Buffer,
  budget: WorkBudget = WorkBudget.unlimited(),
): string | null {
  if (!holdsStylesheetTag(bytes)) return null;
  const found = findCssImport(bytes.toString('latin1'), budget);
  return found === null ? null : `the ${kind} read as html holds ${found} (polyglot)`;
}

// a `<style` or `<link` start tag, ASCII case-insensitive, its name ended as the HTML tokenizer ends one (white space,
// `/`, `>`; a NUL or another letter makes another name, the end of the bytes no tag). Each `<` and the letter after it
// is a pair site (byte-sites.ts), so only those offsets are looked at, in the loop that also looks for PDF markers
// (site-marks.ts)
function holdsStylesheetTag(bytes: Buffer): boolean {
  return siteMarks(bytes).stylesheetTag;
}

/** Names what data after an image's end parses as (a binary format, a text format, or script markup); null for padding or unrecognizable bytes. */
export async function trailingFormat(trailing: Buffer): Promise<string | null> {
  const known = (): string | null | undefined => knownSignatureKind(trailing);
  const quick = trailingFormatWith(trailing, known);
  if (quick !== undefined) return quick;
  const kind = await fileTypeKind(trailing);
  return trailingFormatWith(trailing, () => knownSignatureKind(trailing) ?? kind) ?? null;
}

/**
 * `trailingFormat` without waiting: `binaryKindOfTrailing` answers the binary kind of the trailing bytes
 * synchronously (null: nothing recognizes them), or undefined when only file-type can tell, in which case
 * this returns undefined too.
 */
export function trailingFormatWith(
  trailing: Buffer,
  binaryKindOfTrailing: () => string | null | undefined,
  budget: WorkBudget = WorkBudget.unlimited(),
): string | null | undefined {
  budget.spend('polyglot', trailing.length);
  if (trailing.length === 0 || isPadding(trailing)) return null;
  // the same order as a whole item: text behind a BOM or without NULs is text, whatever its first bytes look like
  const textFirst = startsWithBom(trailing) || trailing.indexOf(0) === -1;
  const decodedFirst = textFirst ? decodeText(trailing) : null;
  if (decodedFirst === null) {
    const kind = binaryKindOfTrailing();
    if (kind === undefined) return undefined;
    if (kind !== null) return `\`${kind}\` data`;
  }
  const decoded = decodedFirst ?? decodeText(trailing);
  if (decoded === null) return null;
  const textKind = classifyText(decoded.text);
  if (textKind !== 'text' && textKind !== 'json') return `\`${textKind}\` text`;
  const active = findActiveMarkup(decoded.text, 'text', budget);
  return active === null ? null : `text with ${active}`;
}

/**
 * Steps one character of a whole-file script parse costs, steps: acorn builds a tree, about as much work as all
 * the other checks of a byte together, so a file whose probe parses is read whole only while its budget allows
 * (up to about a MiB); a larger one is withheld as too complex rather than parsed once per reading.
 */
export const scriptStepsPerChar = 64;

/** Characters of a file parsed first as script; a syntax error well inside them ends the check without decoding the rest. */
export const scriptProbeChars = 4096;

/**
 * True when the whole file parses as a JavaScript program (`GIF89a/*…*\/=alert(1)//`): a page that loads it with
 * `<script src>` runs it. Browsers decode a script as UTF-8 or as the page's legacy encoding, so it is read as
 * UTF-8, Latin-1, windows-1252 (the legacy default: `0x8A` is `Š`, a letter) and as any single-byte legacy
 * encoding that makes every byte past ASCII a letter. Real images fail within their first bytes; only the
 * first `scriptProbeChars` characters are parsed unless the error lies near their end.
 */
export function parsesAsScript(bytes: Buffer, budget: WorkBudget = WorkBudget.unlimited()): boolean {
  return scriptReadings.some((read) => {
    if (!mayStartScriptIn(bytes, read)) return false;
    const head = read(bytes, scriptProbeChars);
    // the probe is a fixed cost, covered by the budget's base
    budget.spend('script', head.length);
    const headError = scriptError(head);
    if (bytes.length <= scriptProbeChars) return headError === null;
    // an error caused by the cut (near its end, or a comment, string or template the cut leaves open) says
    // nothing about the whole file
    if (headError !== null && !headError.unterminated && headError.pos < head.length - 256) return false;
    budget.spend('script', bytes.length * scriptStepsPerChar);
    return scriptError(read(bytes, bytes.length)) === null;
  });
}

// windows-1252 for 0x80–0x9F (WHATWG Encoding index; the five unassigned bytes stay C1 controls), Latin-1 above.
// Node's TextDecoder('windows-1252') decodes as Latin-1, so the table is written out here
const cp1252High =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** `bytes` up to `chars` characters decoded as windows-1252. */
export function windows1252(bytes: Buffer, chars: number): string {
  const text = bytes.toString('latin1', 0, chars);
  if (text.length > 256) return text.replace(/[\u0080-\u009f]/g, (c) => cp1252High[c.charCodeAt(0) - 0x80] ?? c);
  // a probe's head: its few bytes 0x80–0x9F mapped in one pass, without a pattern and a callback per match
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80 || c > 0x9f) continue;
    out += text.slice(from, i) + cp1252High.charAt(c - 0x80);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

const latin1Reading = (b: Buffer, n: number): string => b.toString('latin1', 0, n);
const lettersReading = (b: Buffer, n: number): string => b.toString('latin1', 0, n).replace(/[\u0080-\u00ff]/g, 'a');

/** The readings a browser may give a script's bytes (UTF-8, Latin-1, windows-1252, any all-letters legacy encoding). */
export const scriptReadings: readonly ((bytes: Buffer, chars: number) => string)[] = [
  latin1Reading,
  (b, n) => b.toString('utf8', 0, n),
  windows1252,
  lettersReading,
];

// What a byte past ASCII decides in a reading that makes one character of each byte (`scriptStartDecider` of that
// character): 0 a control character (Latin-1's C1 controls, windows-1252's five unassigned bytes), -1 nothing (a
// printable character or a letter). Read from the bytes, no string is made of the head (a fixed cost of every image).
const singleByteHigh: ReadonlyMap<(bytes: Buffer, chars: number) => string, (b: number) => 0 | -1> = new Map([
  [latin1Reading, (b: number) => (b < 0xa0 ? 0 : -1)],
  [windows1252, (b: number) => ((cp1252High.charCodeAt(b - 0x80) || 0xa0) < 0xa0 ? 0 : -1)],
  [lettersReading, () => -1],
] as const);

// a script's text before its first comment, string, template or regular expression can only hold printable
// characters and white space (identifiers, punctuators, numbers): a control character there, or an invalid
// byte decoded as U+FFFD, is a syntax error, so the parser need not be asked (every real image's magic
// bytes have one within their first few bytes)
/** `mayStartScript(read(bytes, 256))`, from the first 16 bytes alone when they decide (a real image's magic bytes do). */
export function mayStartScriptIn(bytes: Buffer, read: (bytes: Buffer, chars: number) => string): boolean {
  const high = singleByteHigh.get(read);
  if (high !== undefined) {
    // one character per byte: the first 256 bytes are the 256 characters
    const end = Math.min(bytes.length, 256);
    for (let i = 0; i < end; i++) {
      const c = bytes[i] as number;
      if (opensScript(c)) return true;
      if (c < 0x20 ? c < 0x09 || c > 0x0d : c === 0x7f || (c >= 0x80 && high(c) === 0)) return false;
    }
    return true;
  }
  const short = read(bytes, 16);
  const at = scriptStartDecider(short);
  // the short reading is the start of the longer one, but for its last character: a UTF-8 sequence the cut leaves
  // open ends it as U+FFFD
  if (at !== -1 && at < short.length - 1) return opensScript(short.charCodeAt(at));
  return mayStartScript(read(bytes, 256));
}

/** Whether `head` may start a classic script: no control character or U+FFFD before its first comment, string, template or regular expression. */
export function mayStartScript(head: string): boolean {
  const at = scriptStartDecider(head);
  return at === -1 || opensScript(head.charCodeAt(at));
}

// the offset of the first character that decides `mayStartScript`, -1 when none does
function scriptStartDecider(head: string): number {
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (opensScript(c)) return i;
    if (c < 0x20 ? c < 0x09 || c > 0x0d : (c >= 0x7f && c < 0xa0) || c === 0xfffd) return i;
  }
  return -1;
}

// `/`, `"`, `'` or a backtick: a comment, string, template or regular expression starts, where anything may follow
function opensScript(c: number): boolean {
  return c === 0x2f || c === 0x22 || c === 0x27 || c === 0x60;
}

// where the text stops parsing as a classic script (acorn's error position, and whether something was left
// open), or null when it parses
function scriptError(text: string): { pos: number; unterminated: boolean } | null {
  try {
    ecmaScript().parse(text, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true });
    return null;
  } catch (error) {
    const { pos, message } = error as { pos?: unknown; message?: unknown };
    return {
      pos: typeof pos === 'number' ? pos : 0,
      unterminated: typeof message === 'string' && /unterminated/i.test(message),
    };
  }
}

// encoders pad with zeros or 0xFF; whitespace and newlines come from text-mode transfers
function isPadding(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x00 && b !== 0xff && b !== 0x0a && b !== 0x0d && b !== 0x20 && b !== 0x09) return false;
  }
  return true;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
