// The unsafe and invisible characters of UTF-8 text found in one pass over its bytes, without decoding it: the byte
// classifier (byte-classes.ts) points at the 16-byte blocks that may hold one, a 256-entry table classes each byte of
// those, and only a byte the table marks is looked at closer. The findings are `findUnsafeText`'s and
// `findInvisibleText`'s, word for word.
import { classifyBlocks } from './byte-classes.ts';
import { findTagCharacters, terminalC0, terminalC1, terminalFindings } from './unsafe-text.ts';

/** What one pass over UTF-8 text finds: `findUnsafeText`'s findings, and `findInvisibleText`'s (null: none, or not looked for). */
export interface Utf8Findings {
  unsafe: string[];
  invisible: string | null;
}

/** `Utf8Findings`, whether the bytes hold a NUL, and whether they may hold a byte: false only for one of `classifiedMarks` they lack, or for a C0 control the scan classes (NUL, ESC, `terminalC0`'s) they lack. */
export interface MarkedUtf8Findings extends Utf8Findings {
  nul: boolean;
  mayHold: (byte: number) => boolean;
}

// the byte classes: 0 is nothing to look at (printable ASCII, TAB, LF, CR, DEL, continuation bytes, other leads)
const nul = 1;
const esc = 2;
// the C0 controls a terminal acts on other than ESC and NUL (unsafe-text.ts, `terminalC0`): single bytes in UTF-8
const control = 3;
// C1 controls U+0080–U+009F are C2 80 – C2 9F (those a terminal acts on are unsafe)
const c1Lead = 4;
// TAG characters U+E0000–U+E007F are F3 A0 80 80 – F3 A0 81 BF
const tagLead = 5;
// the leads of `findInvisibleText`'s characters: U+061C is D8 9C, U+180E is E1 A0 8E, U+FEFF is EF BB BF, and
// U+200B–U+2069 are E2 80 xx or E2 81 xx, whose third bytes the two tables below mark
const invisibleD8 = 6;
const invisibleE1 = 7;
const invisibleE2 = 8;
const invisibleEF = 9;

// the second bytes (C2 xx) of the C1 controls a terminal acts on (unsafe-text.ts, `terminalC1`)
const terminalC1Byte = new Uint8Array(256);
for (let b = 0x80; b <= 0x9f; b++) if (terminalC1.test(String.fromCharCode(b))) terminalC1Byte[b] = 1;

const unsafeClasses = new Uint8Array(256);
for (let b = 1; b < 0x20; b++) if (terminalC0.test(String.fromCharCode(b))) unsafeClasses[b] = control;
unsafeClasses[0x00] = nul;
unsafeClasses[0x1b] = esc;
unsafeClasses[0xc2] = c1Lead;
unsafeClasses[0xf3] = tagLead;
const allClasses = Uint8Array.from(unsafeClasses);
allClasses[0xd8] = invisibleD8;
allClasses[0xe1] = invisibleE1;
allClasses[0xe2] = invisibleE2;
allClasses[0xef] = invisibleEF;

const invisibleAfterE280 = new Uint8Array(256);
const invisibleAfterE281 = new Uint8Array(256);
for (let c = 0x200b; c <= 0x2069; c++) {
  if ((c >= 0x2010 && c <= 0x2029) || (c >= 0x202f && c <= 0x205f) || c === 0x2065) continue;
  const table = c < 0x2040 ? invisibleAfterE280 : invisibleAfterE281;
  table[0x80 | (c & 0x3f)] = 1;
}

/**
 * Scans valid UTF-8 `bytes` once: the unsafe characters of all of them, and (when `invisible`) the first bidi control
 * or zero-width character from byte `textFrom` on (where the text starts, past a byte order mark; a byte order mark
 * right there is not reported). Offsets in the findings count UTF-16 code units, as the string scans report them.
 */
export function scanUtf8(bytes: Buffer, textFrom: number, invisible: boolean): Utf8Findings {
  const { unsafe, invisible: found } = scanUtf8Marking(bytes, textFrom, invisible);
  return { unsafe, invisible: found };
}

/** `scanUtf8`, noting on the same pass which of `classifiedMarks` (`:` `<` `=` `&` `[` `\`) and of the C0 controls it classes occur in the bytes. */
export function scanUtf8Marking(bytes: Buffer, textFrom: number, invisible: boolean): MarkedUtf8Findings {
  const classes = invisible ? allClasses : unsafeClasses;
  const found = new Found(bytes, textFrom);
  // a plain Uint8Array: V8 reads its elements faster than a Buffer's
  const u8 = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const marks = classifyBlocks(u8, invisible, (from, to) => noteMarked(found, u8, classes, from, to));
  // every C0 control other than TAB, LF and CR stops the classifier, so each one the table classes reaches `note`
  // wherever it stands: whether the bytes hold it is known without a search (a form feed: consumers/desktop-launcher.ts)
  const controls = found.controls();
  const mayHold = (byte: number) => (byte < 0x20 && classes[byte] !== 0 ? (controls & (1 << byte)) !== 0 : marks(byte));
  return { unsafe: found.unsafe(), invisible: found.invisible(), nul: found.holdsNul(), mayHold };
}

// each byte from `from` to `to` the table marks, noted
function noteMarked(found: Found, u8: Uint8Array, classes: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const c = classes[u8[i] ?? 0] ?? 0;
    if (c !== 0) found.note(c, i);
  }
}

// what the pass has seen so far: which unsafe kinds, the first ESC and the first invisible character
class Found {
  private nul = false;
  // a bit per C0 control noted (1 << its byte)
  private c0 = 0;
  private esc = -1;
  private control = false;
  private c1 = false;
  private tagLead = false;
  private firstInvisible = -1;
  private readonly bytes: Buffer;
  private readonly textFrom: number;

  constructor(bytes: Buffer, textFrom: number) {
    this.bytes = bytes;
    this.textFrom = textFrom;
  }

  note(kind: number, at: number): void {
    const bytes = this.bytes;
    if (kind === nul) {
      this.nul = true;
      this.c0 |= 1;
    } else if (kind === esc) {
      if (this.esc === -1) this.esc = at;
      this.c0 |= 1 << 0x1b;
    } else if (kind === control) {
      this.control = true;
      this.c0 |= 1 << (bytes[at] ?? 0);
    } else if (kind === c1Lead) {
      const next = bytes[at + 1] ?? 0;
      if (terminalC1Byte[next] === 1) this.c1 = true;
    } else if (kind === tagLead) {
      if (bytes[at + 1] === 0xa0) this.tagLead = true;
    } else if (this.firstInvisible === -1 && at >= this.textFrom && this.invisibleAt(kind, at))
      this.firstInvisible = at;
  }

  private invisibleAt(kind: number, at: number): boolean {
    const bytes = this.bytes;
    const second = bytes[at + 1];
    if (kind === invisibleD8) return second === 0x9c;
    if (kind === invisibleE1) return second === 0xa0 && bytes[at + 2] === 0x8e;
    // a byte order mark right at the start of the text is not reported (the string scan's `(?!^)`)
    if (kind === invisibleEF) return at > this.textFrom && second === 0xbb && bytes[at + 2] === 0xbf;
    const third = bytes[at + 2] ?? 0;
    return second === 0x80 ? invisibleAfterE280[third] === 1 : second === 0x81 && invisibleAfterE281[third] === 1;
  }

  holdsNul(): boolean {
    return this.nul;
  }

  /** A bit per C0 control noted: `1 << byte`. */
  controls(): number {
    return this.c0;
  }

  unsafe(): string[] {
    const found: string[] = [];
    if (this.nul) found.push('text holds nul characters');
    if (this.esc !== -1) {
      const next = this.bytes[this.esc + 1];
      const kind =
        next === 0x5b
          ? 'csi'
          : next === 0x5d
            ? 'osc'
            : next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f
              ? 'string-control'
              : 'esc';
      // the offset is in characters, as the string scan reports it
      const offset = this.bytes.toString('utf8', 0, this.esc).length;
      found.push(`${terminalFindings.escape} (${kind} at offset ${offset})`);
    }
    if (this.c1) found.push(terminalFindings.c1);
    if (this.control) found.push(terminalFindings.c0);
    // a tag run decides by the characters around it (an emoji flag's): decoded only when a TAG lead is there
    if (this.tagLead) {
      const tags = findTagCharacters(this.bytes.toString('utf8'));
      if (tags !== null) found.push(tags);
    }
    return found;
  }

  invisible(): string | null {
    const first = this.firstInvisible;
    if (first === -1) return null;
    const code = this.bytes.toString('utf8', first, first + 3).codePointAt(0) ?? 0;
    const offset = this.bytes.toString('utf8', this.textFrom, first).length;
    return `text holds bidi controls or zero-width characters (u+${code.toString(16).toUpperCase().padStart(4, '0')} at offset ${offset})`;
  }
}
