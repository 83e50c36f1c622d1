// Strings of an encrypted PDF's object layer as a viewer reads them: every string is encrypted with the key of the
// object it stands in (ISO 32000-2 §7.6.2), so a link target (`/URI`, a GoToR file `/F`) reads as noise until it is
// decrypted with that object's number. The object is the nearest header (`N G obj`) before the string, found by one
// forward walk over the file that never looks at a byte twice, however many strings there are. The string's bytes
// are decrypted as they are read (pdf-uri-target.ts), only as far as a script scheme may still start them.
import type { WorkBudget } from '../work-budget.ts';
import type { StringCipher } from './pdf-decrypt.ts';
import { endsToken } from './pdf-lexer.ts';
import { numbersBefore } from './pdf-object-header.ts';
import { type OpenedString, scriptStringAt } from './pdf-uri-target.ts';

/**
 * Parser time charged per string read decrypted, calibrated nanoseconds: a decipher set up and a block decrypted (400 000
 * strings of an 11 MB file took 1.8–2.1 s at load 14 on 2 cores, about 5 µs each), so a file of nothing but strings
 * is withheld as too complex rather than read for seconds.
 */
export const decryptedStringNanos = 2_000;

/** Opens the strings of one encrypted file's object layer (`s`: the file as latin1). */
export class EncryptedStrings {
  // the file is searched for headers up to here; the header before it; the next `obj` at or after it
  private searched = 0;
  private object: [number, number] | null = null;
  private nextObj = -1;

  constructor(
    private readonly s: string,
    private readonly cipher: StringCipher,
    private readonly budget: WorkBudget,
  ) {}

  /** How the string opening at `at` reads: the decipher of the object holding it (and whether its bytes as written are a reading too), or null when no object holds it. */
  open(at: number): OpenedString | null {
    const object = this.objectAt(at);
    if (object === null) return null;
    return { decipher: this.cipher.open(object[0], object[1]), rawToo: this.cipher.rawToo };
  }

  /**
   * The script scheme of the first string in the file `b` that reads as one decrypted (a target given by reference
   * may be any of them: every `(`, and every `<` not part of `<<`, is read as a string may open there), or null. One
   * forward walk; every string is read only while a scheme may still start it.
   */
  firstScriptString(b: Buffer): string | null {
    this.budget.spend('pdf', b.length);
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      if (c !== 0x28 && (c !== 0x3c || b[i + 1] === 0x3c || b[i - 1] === 0x3c)) continue;
      const opened = this.open(i);
      if (opened !== null) this.budget.spendTime('pdf strings', decryptedStringNanos);
      const scheme = scriptStringAt(b, i, b.length, this.budget, opened ?? undefined);
      if (scheme !== null) return scheme;
    }
    return null;
  }

  // the number and generation of the nearest object header before `at`
  private objectAt(at: number): [number, number] | null {
    if (at < this.searched) {
      // a walk that went back (never in one forward scan): start again, every byte still spent
      this.searched = 0;
      this.object = null;
      this.nextObj = -1;
    }
    let i = this.nextObj >= this.searched ? this.nextObj : this.find(this.searched);
    while (i < at) {
      if (endsToken(this.s.charCodeAt(i + 3))) {
        const numbers = numbersBefore(this.s, Math.max(0, i - 48), i);
        if (numbers !== null) this.object = numbers;
      }
      i = this.find(i + 3);
    }
    this.nextObj = i;
    this.searched = at;
    return this.object;
  }

  // the next `obj` at or after `from` (the file's end when none), the bytes looked at spent
  private find(from: number): number {
    const found = this.s.indexOf('obj', from);
    const next = found === -1 ? this.s.length : found;
    this.budget.spend('pdf', next - from + 1);
    return next;
  }
}
