// LZWDecode and RunLengthDecode (ISO 32000-2 §7.4.4, §7.4.5), undone as pdf.js's `LZWStream` and `RunLengthStream`
// undo them, each within a byte budget checked as it writes: an LZW code may stand for up to 4 KiB, so a small
// stream can expand far, and stops at the budget like zlib's `maxOutputLength`.

/** What one decoding stage made: its bytes, or null with why (over the budget). */
export interface StageOutput {
  data: Buffer | null;
  /** bytes produced, the whole budget when it ran out */
  produced: number;
}

const maxCodes = 4096;

/** LZW with 9- to 12-bit codes, 256 clearing the table and 257 ending the data; `earlyChange` 1 (the default) widens codes one code early. */
export function lzwDecode(data: Buffer, earlyChange: number, budget: number): StageOutput {
  const prefix = new Uint16Array(maxCodes);
  const suffix = new Uint8Array(maxCodes);
  const lengths = new Uint16Array(maxCodes);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    lengths[i] = 1;
  }
  let out = Buffer.alloc(Math.min(budget, Math.max(1024, data.length * 4)));
  let n = 0;
  let next = 258;
  let width = 9;
  let previous = -1;
  let sequence = Buffer.alloc(maxCodes);
  let sequenceLength = 0;
  let bits = 0;
  let cached = 0;
  let at = 0;
  for (;;) {
    while (bits < width && at < data.length) {
      cached = ((cached << 8) | (data[at++] ?? 0)) >>> 0;
      bits += 8;
    }
    if (bits < width) break;
    const code = (cached >>> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    cached &= (1 << bits) - 1;
    const hasPrevious = sequenceLength > 0;
    if (code < 256) {
      sequence[0] = code;
      sequenceLength = 1;
    } else if (code >= 258) {
      if (code < next) {
        sequenceLength = lengths[code] ?? 0;
        for (let j = sequenceLength - 1, q = code; j >= 0; j--) {
          sequence[j] = suffix[q] ?? 0;
          q = prefix[q] ?? 0;
        }
      } else {
        // a code not yet in the table (KwKwK): the previous sequence and its own first byte, as pdf.js takes it
        if (sequenceLength >= sequence.length) sequence = Buffer.concat([sequence, Buffer.alloc(sequence.length)]);
        sequence[sequenceLength++] = sequence[0] ?? 0;
      }
    } else if (code === 256) {
      width = 9;
      next = 258;
      sequenceLength = 0;
      continue;
    } else {
      break;
    }
    if (hasPrevious && next < maxCodes && previous >= 0) {
      prefix[next] = previous;
      lengths[next] = (lengths[previous] ?? 0) + 1;
      suffix[next] = sequence[0] ?? 0;
      next++;
      const edge = next + earlyChange;
      if ((edge & (edge - 1)) === 0) width = Math.min(Math.floor(Math.log2(edge)) + 1, 12);
    }
    previous = code;
    if (n + sequenceLength > budget) return { data: null, produced: budget };
    if (n + sequenceLength > out.length) {
      const grown = Buffer.alloc(Math.min(budget, Math.max(out.length * 2, n + sequenceLength)));
      out.copy(grown, 0, 0, n);
      out = grown;
    }
    sequence.copy(out, n, 0, sequenceLength);
    n += sequenceLength;
  }
  return { data: out.subarray(0, n), produced: n };
}

/** RunLength: a length byte n copies n + 1 bytes (n < 128), repeats the next byte 257 − n times (n > 128), or ends the data (128). */
export function runLengthDecode(data: Buffer, budget: number): StageOutput {
  const parts: Buffer[] = [];
  let produced = 0;
  let at = 0;
  while (at < data.length) {
    const n = data[at++] ?? 128;
    if (n === 128) break;
    const piece = n < 128 ? data.subarray(at, at + n + 1) : Buffer.alloc(257 - n, data[at] ?? 0);
    at += n < 128 ? n + 1 : 1;
    produced += piece.length;
    if (produced > budget) return { data: null, produced: budget };
    parts.push(piece);
  }
  return { data: Buffer.concat(parts), produced };
}
