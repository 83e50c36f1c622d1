// Strings of an encrypted PDF's object layer as a viewer reads them: every string is encrypted with the key of the
// object it stands in (ISO 32000-2 §7.6.2), so a link target (`/URI`, a GoToR file `/F`) reads as noise until it is
// decrypted with that object's number. The object is the nearest header (`N G obj`) before the string, found by one
// forward walk over the file that never looks at a byte twice, however many targets there are.
import type { WorkBudget } from '../work-budget.ts';
import type { StreamDecryptor } from './pdf-decrypt.ts';
import { endsToken } from './pdf-lexer.ts';
import { numbersBefore } from './pdf-object-header.ts';
import { readPdfValue } from './pdf-value.ts';

/** Opens the strings of one encrypted file's object layer (`s`: the file as latin1). */
export class EncryptedStrings {
  // the file is searched for headers up to here; the header before it; the next `obj` at or after it
  private searched = 0;
  private object: [number, number] | null = null;
  private nextObj = -1;

  constructor(
    private readonly s: string,
    private readonly decrypt: StreamDecryptor,
    private readonly budget: WorkBudget,
  ) {}

  /** The decrypted bytes of the string opening at `at` (`(` or `<`), or null when no object holds it, it does not parse or it does not decrypt. */
  open(at: number): Buffer | null {
    const object = this.objectAt(at);
    if (object === null) return null;
    const read = readPdfValue(this.s, at);
    if (read === null || !Buffer.isBuffer(read.value)) return null;
    this.budget.spend('pdf', read.end - at);
    return this.decrypt(read.value, object[0], object[1]);
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
