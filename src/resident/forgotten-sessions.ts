// The sessions the resident server forgot, in memory of a fixed size however many there are: a Bloom filter over a
// keyed digest of each session id (the key is made fresh at every start, so nobody can choose ids that land on the
// bits of another's). A filter never says "not forgotten" of a session it was given, so a forgotten session that comes
// back is always opened lost (fail closed); it may say "forgotten" of a session it was never given (a false positive),
// which opens that new session lost: its reads of uris its own tools did not return are refused (`hook.state-lost`),
// an over-block for that one session, never an allow. With the default size the chance of that is about 1 in 800
// million after 65 536 forgotten sessions, 1 in 1 900 after 500 000, 1 in 54 after a million and 1 in 4 after two
// million (restart the server long before: Claude Code starts again with the new secret).
import { createHmac, randomBytes } from 'node:crypto';
import { GateError } from '../errors.ts';

/** Bits of the default filter: 2^23 (1 MiB of memory). */
export const forgottenFilterBits = 2 ** 23;

/** Bits set for each session (the optimal count for about 800 000 sessions in the default filter). */
const bitsPerSession = 7;

/** A fixed-size set of forgotten session ids with no false negatives (a Bloom filter). */
export class ForgottenSessions {
  readonly #bits: Uint8Array;
  readonly #mask: number;
  readonly #key = randomBytes(32);
  #set = 0;

  /** A filter of `bits` bits: a power of two from 2^3 to 2^32. */
  constructor(bits: number = forgottenFilterBits) {
    if (!Number.isInteger(bits) || bits < 8 || bits > 2 ** 32 || (bits & (bits - 1)) !== 0)
      throw new GateError(
        'USAGE',
        `the forgotten-session filter's size \`${bits}\` is not a power of two of 8 or more`,
      );
    this.#bits = new Uint8Array(bits / 8);
    this.#mask = bits - 1;
  }

  /** Remembers that `session` was forgotten. */
  add(session: string): void {
    for (const bit of this.#positions(session)) {
      const byte = bit >>> 3;
      const flag = 1 << (bit & 7);
      if (((this.#bits[byte] as number) & flag) === 0) this.#set += 1;
      this.#bits[byte] = (this.#bits[byte] as number) | flag;
    }
  }

  /** True for every session `add` was given; for another, true with the chance `falsePositiveRate`. */
  mayHold(session: string): boolean {
    return this.#positions(session).every((bit) => (((this.#bits[bit >>> 3] as number) >> (bit & 7)) & 1) === 1);
  }

  /** The chance that a session never given is taken for a forgotten one now: the share of bits set, to the 7th. */
  get falsePositiveRate(): number {
    return (this.#set / (this.#bits.length * 8)) ** bitsPerSession;
  }

  // the bit positions of `session`: 32-bit words of its keyed digest, masked to the filter's size
  #positions(session: string): number[] {
    const digest = createHmac('sha256', this.#key).update(session, 'utf8').digest();
    const found: number[] = [];
    for (let i = 0; i < bitsPerSession; i += 1) found.push((digest.readUInt32BE(i * 4) & this.#mask) >>> 0);
    return found;
  }
}
