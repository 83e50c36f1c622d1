import type { Readable } from 'node:stream';

/** One input line: its text, or `tooLong` when it passed `maxLineBytes` (its bytes were discarded unread). */
export type InputLine =
  | { kind: 'line'; text: string; number: number }
  | { kind: 'too-long'; bytes: number; number: number };

/**
 * Splits a stream into lines (LF or CRLF) without ever holding more than `maxLineBytes` of one line:
 * past the limit the rest of the line is skipped and reported as `too-long` (1-based `number`).
 */
export async function* readLines(input: Readable, maxLineBytes: number): AsyncGenerator<InputLine> {
  let parts: Buffer[] = [];
  let held = 0;
  let skipping = false;
  let skipped = 0;
  let number = 0;
  const finish = (): InputLine => {
    number += 1;
    if (skipping) {
      const line: InputLine = { kind: 'too-long', bytes: skipped, number };
      skipping = false;
      skipped = 0;
      return line;
    }
    let buf = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, held);
    if (buf.length > 0 && buf[buf.length - 1] === 0x0d) buf = buf.subarray(0, buf.length - 1);
    parts = [];
    held = 0;
    return { kind: 'line', text: buf.toString('utf8'), number };
  };
  for await (const chunk of input) {
    const data: Buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    let start = 0;
    while (start < data.length) {
      const nl = data.indexOf(0x0a, start);
      const end = nl === -1 ? data.length : nl;
      const piece = data.subarray(start, end);
      if (skipping) {
        skipped += piece.length;
      } else if (held + piece.length > maxLineBytes) {
        skipping = true;
        skipped = held + piece.length;
        parts = [];
        held = 0;
      } else if (piece.length > 0) {
        // copy: the stream may reuse its chunk buffers
        parts.push(Buffer.from(piece));
        held += piece.length;
      }
      if (nl === -1) break;
      yield finish();
      start = nl + 1;
    }
  }
  if (held > 0 || skipping) yield finish();
}
