// A URI action's target (`/URI (javascript:…)`) as a viewer follows it: pdf.js hands the string on as the link's
// `unsafeUrl`, and a viewer that opens it in a browser runs a script scheme. A GoToR action's file (`/F`, a string or
// a file specification's `/F`) is handed on the same way (`javascript:…#[0 /Fit]`), and is read the same way. The string is read as pdf.js's lexer
// reads literal and hex strings (escapes, octal, a UTF-16BE byte order mark), only while it can still start with
// a script scheme: a literal string's check stops at the first byte that rules one out or at a parenthesis, a hex
// string's at `<` or `>`, so every byte is read a bounded number of times however many strings there are.

import type { WorkBudget } from '../work-budget.ts';

/** Schemes that run script where a browser opens them. */
const scriptSchemes = ['javascript:', 'vbscript:', 'livescript:'];

/** What follows a `/URI` key: a script-scheme target (its scheme), a reference to the string, an encrypted string no object holds (its key unknown), or none of these. */
export type UriTarget = { scheme: string } | 'reference' | 'undecryptable' | null;

/**
 * Decrypts one string's bytes as they are read, `unit` bytes at a time (an aes block, one byte of rc4): `next` gives
 * the plain bytes of the next unit (empty for an aes string's iv), in a view the next call may overwrite.
 */
export interface StringDecipher {
  readonly unit: number;
  next(data: Uint8Array): Uint8Array;
}

/** An encrypted string as viewers read it: decrypted as it is read, and, when `rawToo`, as written as well. */
export interface OpenedString {
  decipher: StringDecipher;
  rawToo: boolean;
}

/** How the string opening at a position of an encrypted file's object layer reads, null when no object holds it (pdf-encrypted-strings.ts). */
export type StringOpener = (at: number) => OpenedString | null;

/** Which key a target follows: `/URI`, a file (`/F`, `/UF`), or a URI dictionary's `/Base`. */
export type TargetKey = 'uri' | 'file' | 'base';

/**
 * The `/URI` value starting at `at` (after the name) in [at, to): a string with a script scheme, or a reference. For
 * a `file` key (a GoToR or Launch action's `/F`, which pdf.js hands on as the link's `unsafeUrl` too) a number is a
 * reference only when written as one (`9 0 R`): `/F` is also an annotation's flags (`/F 4`). A `base` (the catalog's
 * `/URI << /Base … >>`, which poppler and MuPDF put before every relative URI target) matches by the scheme's name
 * alone: MuPDF joins it to a target opening with `:`.
 */
export function uriTargetAfter(
  b: Buffer,
  at: number,
  to: number,
  budget: WorkBudget,
  key: TargetKey = 'uri',
  open?: StringOpener,
): UriTarget {
  const colonOptional = key === 'base';
  // white space and comments, as pdf.js's lexer skips them between a key and its value
  let i = at;
  while (i < to) {
    if (isWhite(b[i])) i++;
    else if (b[i] === 0x25) while (i < to && b[i] !== 0x0a && b[i] !== 0x0d) i++;
    else break;
  }
  budget.spend('pdf', i - at);
  const c = b[i];
  // in an encrypted file the string is read as the viewer reads it, decrypted
  if (open !== undefined && (c === 0x28 || (c === 0x3c && b[i + 1] !== 0x3c))) {
    const opened = open(i);
    if (opened === null) return 'undecryptable';
    const scheme = scriptStringAt(b, i, to, budget, opened, colonOptional);
    return scheme === null ? null : { scheme };
  }
  if (c === 0x28 || c === 0x3c) {
    const scheme = scriptStringAt(b, i, to, budget, undefined, colonOptional);
    return scheme === null ? null : { scheme };
  }
  if (c === undefined || c < 0x30 || c > 0x39) return null;
  return key !== 'file' || referenceAt(b, i, to, budget) ? 'reference' : null;
}

// `N G R` at `at`: a number, white space, a number, white space and `R` (the bytes read are spent from `budget`)
function referenceAt(b: Buffer, at: number, to: number, budget: WorkBudget): boolean {
  let i = at;
  const digits = (): boolean => {
    const from = i;
    while (i < to && i - from < 12 && (b[i] ?? 0) >= 0x30 && (b[i] ?? 0) <= 0x39) i++;
    return i > from;
  };
  const space = (): boolean => {
    const from = i;
    while (i < to && i - from < 64 && isWhite(b[i])) i++;
    return i > from;
  };
  const found = digits() && space() && digits() && space() && b[i] === 0x52;
  budget.spend('pdf', i - at);
  return found;
}

/** The script scheme the string opening at `at` (`(` or `<`, not `<<`) starts with, or null; the bytes read are spent from `budget`. `opened`: the string is encrypted and read as viewers decrypt it; `colonOptional`: the scheme's name alone matches. */
export function scriptStringAt(
  b: Buffer,
  at: number,
  to: number,
  budget: WorkBudget,
  opened?: OpenedString,
  colonOptional = false,
): string | null {
  const c = b[at];
  if (c !== 0x28 && (c !== 0x3c || b[at + 1] === 0x3c)) return null;
  const prefix = opened === undefined ? new SchemePrefix(colonOptional) : new OpenedPrefix(opened, colonOptional);
  const read = c === 0x28 ? literalScheme(b, at, to, prefix) : hexScheme(b, at, to, prefix);
  if (read === null) return null;
  budget.spend('pdf', read.read);
  return read.scheme;
}

// PDF white space (PDF 32000 §7.2.3)
function isWhite(c: number | undefined): boolean {
  return c === 0x00 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
}

/** A string's decoded bytes fed one at a time: the scheme once matched, false once none can match, true while one still may. */
interface Prefix {
  push(byte: number): string | boolean;
}

// the decoded bytes of a string, fed one at a time, as WHATWG URL reads a scheme: leading C0 controls and spaces
// dropped, tabs and newlines removed anywhere, case folded; a string with a byte order mark as the readers decode it:
// UTF-16BE by its low bytes (pdf.js, poppler, MuPDF), UTF-16LE and UTF-8 (MuPDF, and pdf.js for a file's UTF-8).
// `colonOptional`: the scheme's name alone matches (a `/URI /Base` that MuPDF joins to a target opening with `:`)
class SchemePrefix implements Prefix {
  private text = '';
  private fed = 0;
  private bom: 'be' | 'le' | 'utf8' | null = null;
  private encoding: 'utf16be' | 'utf16le' | 'utf8' | 'bytes' = 'bytes';

  constructor(private readonly colonOptional = false) {}

  /** The scheme once matched, false once none can match, true while one still may. */
  push(byte: number): string | boolean {
    const index = this.fed++;
    if (index === 0 && (byte === 0xfe || byte === 0xff || byte === 0xef)) {
      this.bom = byte === 0xfe ? 'be' : byte === 0xff ? 'le' : 'utf8';
      return true;
    }
    if (index === 1 && this.bom !== null) {
      // a lone 0xFE, 0xFF or 0xEF is a character no scheme starts with
      if (this.bom === 'be' && byte === 0xff) this.encoding = 'utf16be';
      else if (this.bom === 'le' && byte === 0xfe) this.encoding = 'utf16le';
      else if (this.bom === 'utf8' && byte === 0xbb) return true;
      else return false;
      return true;
    }
    if (index === 2 && this.bom === 'utf8' && this.encoding === 'bytes') {
      if (byte !== 0xbf) return false;
      this.encoding = 'utf8';
      return true;
    }
    if (this.encoding === 'utf16be') return index % 2 === 0 ? byte === 0 : this.unit(byte);
    if (this.encoding === 'utf16le') return index % 2 === 0 ? this.unit(byte) : byte === 0;
    return this.unit(byte);
  }

  private unit(u: number): string | boolean {
    if (u === 0x09 || u === 0x0a || u === 0x0d) return true;
    if (this.text === '' && u <= 0x20) return true;
    this.text += String.fromCharCode(u).toLowerCase();
    for (const scheme of scriptSchemes) {
      if (this.text === scheme || (this.colonOptional && `${this.text}:` === scheme)) return scheme;
      if (scheme.startsWith(this.text)) return true;
    }
    return false;
  }
}

// an encrypted string's bytes as written, decrypted a unit at a time as they come and read as a scheme; with
// `rawToo` read as written too
class OpenedPrefix implements Prefix {
  private plain: SchemePrefix | null;
  private raw: SchemePrefix | null;
  private readonly unit: Uint8Array;
  private filled = 0;

  constructor(
    private readonly opened: OpenedString,
    colonOptional: boolean,
  ) {
    this.plain = new SchemePrefix(colonOptional);
    this.raw = opened.rawToo ? new SchemePrefix(colonOptional) : null;
    this.unit = new Uint8Array(opened.decipher.unit);
  }

  push(byte: number): string | boolean {
    if (this.raw !== null) {
      const state = this.raw.push(byte);
      if (typeof state === 'string') return state;
      if (!state) this.raw = null;
    }
    if (this.plain !== null) {
      this.unit[this.filled++] = byte;
      if (this.filled === this.unit.length) {
        this.filled = 0;
        for (const plain of this.opened.decipher.next(this.unit)) {
          const state = this.plain.push(plain);
          if (typeof state === 'string') return state;
          if (!state) {
            this.plain = null;
            break;
          }
        }
      }
    }
    return this.plain !== null || this.raw !== null;
  }
}

// what one string check found, and how many bytes it read
interface Read {
  scheme: string | null;
  read: number;
}

// a literal string, escapes undone and balanced parentheses kept as pdf.js's `Lexer.getString` does (no scheme holds
// one, so in the clear the first ends the check; an encrypted string's bytes go on)
function literalScheme(b: Buffer, at: number, to: number, prefix: Prefix): Read {
  let depth = 1;
  for (let i = at + 1; i < to; i++) {
    let c = b[i] ?? 0;
    if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return { scheme: null, read: i - at };
    else if (c === 0x5c) {
      const e = b[++i] ?? 0;
      const simple = escapes.get(e);
      if (simple !== undefined) c = simple;
      else if (e >= 0x30 && e <= 0x37) {
        let v = e & 0x0f;
        for (let k = 0; k < 2 && isOctal(b[i + 1]); k++) v = (v << 3) | ((b[++i] ?? 0) & 0x0f);
        c = v & 0xff;
      } else if (e === 0x0d || e === 0x0a) {
        if (e === 0x0d && b[i + 1] === 0x0a) i++;
        continue;
      } else c = e;
    }
    const state = prefix.push(c);
    if (typeof state === 'string') return { scheme: state, read: i - at };
    if (!state) return { scheme: null, read: i - at };
  }
  return { scheme: null, read: to - at };
}

const escapes: ReadonlyMap<number, number> = new Map([
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
  [0x62, 0x08],
  [0x66, 0x0c],
]);

function isOctal(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x37;
}

// a hex string: digits in pairs, other bytes skipped as pdf.js skips them, `>` or `<` ends the check
function hexScheme(b: Buffer, at: number, to: number, prefix: Prefix): Read {
  let high = -1;
  for (let i = at + 1; i < to; i++) {
    const c = b[i] ?? 0;
    if (c === 0x3e || c === 0x3c) return { scheme: null, read: i - at };
    const digit = hexDigit(c);
    if (digit < 0) continue;
    if (high < 0) {
      high = digit;
      continue;
    }
    const state = prefix.push((high << 4) | digit);
    high = -1;
    if (typeof state === 'string') return { scheme: state, read: i - at };
    if (!state) return { scheme: null, read: i - at };
  }
  return { scheme: null, read: to - at };
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
