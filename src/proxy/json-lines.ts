import { isAscii } from 'node:buffer';
import type { Brackets } from '../flow/json-scan.ts';
import { holedLineBytes } from './blob-holes.ts';

/** Bytes of an oversize line kept for `onOversize`, so its JSON-RPC id can still be read. */
export const oversizeHeadBytes = 64 * 1024;

/** One complete line: its bytes as they arrived (newline included; a line over chunks joined once) and its text. */
export interface Line {
  /** the line's bytes in arrival order; written on as they are, they are the line */
  readonly parts: readonly Buffer[];
  /** total bytes of `parts` */
  readonly size: number;
  /** the line decoded as UTF-8, newline included (decoded once: when its last byte is in, or a long line when first read) */
  readonly text: string;
  /** the text the line was parsed from when its long base64 strings were cut out of it (`holedLine`: same member names) */
  cut?: string | undefined;
  /** where its containers open and close, when the transport's member-name scan found them (a judged answer's splice) */
  brackets?: Brackets | undefined;
}

/** What a line splitter reports: each complete line, and the head of each line over the cap. */
export interface LineHandlers {
  onLine(line: Line): void;
  /** a line passed `maxLineBytes`: its first `oversizeHeadBytes`; the rest of the line is discarded as it arrives */
  onOversize(head: Buffer): void;
  /** that line ended: its last `oversizeHeadBytes` (an SDK server writes the answer's `id` last) */
  onOversizeEnd?(tail: Buffer): void;
}

/** Splits a byte stream into newline-delimited lines, buffering at most `maxLineBytes` bytes (≥ 1) of one line. */
export interface LineSplitter {
  push(chunk: Buffer): void;
  /** bytes of an unterminated last line, if any (the peer closed mid-message) */
  rest(): Buffer | null;
}

/**
 * A splitter for stdio JSON-RPC framing: lines end at LF; a line over the cap is reported once and skipped, never
 * buffered. A line that spans chunks is kept as its chunks until its last byte is in, then joined and decoded once:
 * no string is made per chunk (an 11 MB answer in 64 KB chunks made 170 strings the young generation copied and
 * promoted, and a join copied them again), and the line is one buffer to forward.
 */
export function lineSplitter(maxLineBytes: number, handlers: LineHandlers): LineSplitter {
  let parts: Buffer[] = [];
  let size = 0;
  let discarding = false;
  const reset = () => {
    parts = [];
    size = 0;
  };
  // the last bytes of the line being discarded
  let dropped = Buffer.alloc(0);
  const keepLast = (bytes: Buffer) => {
    const joined = bytes.length >= oversizeHeadBytes ? bytes : Buffer.concat([dropped, bytes]);
    dropped = Buffer.from(joined.subarray(Math.max(0, joined.length - oversizeHeadBytes)));
  };
  const overflow = (tail: Buffer) => {
    const head = Buffer.concat([...parts, tail.subarray(0, oversizeHeadBytes)]).subarray(0, oversizeHeadBytes);
    dropped = Buffer.alloc(0);
    // only the parts that reach into the last bytes are copied
    let from = parts.length;
    for (let bytes = tail.length; from > 0 && bytes < oversizeHeadBytes; from -= 1)
      bytes += parts[from - 1]?.length ?? 0;
    for (const part of parts.slice(from)) keepLast(part);
    keepLast(tail);
    reset();
    discarding = true;
    handlers.onOversize(head);
  };
  const endDropped = () => {
    discarding = false;
    const last = dropped;
    dropped = Buffer.alloc(0);
    handlers.onOversizeEnd?.(last);
  };
  return {
    push(chunk) {
      let start = 0;
      while (start <= chunk.length) {
        const end = chunk.indexOf(10, start);
        if (end === -1) {
          const tail = chunk.subarray(start);
          if (discarding) return keepLast(tail);
          if (tail.length === 0) return;
          if (size + tail.length > maxLineBytes) return overflow(tail);
          parts.push(tail);
          size += tail.length;
          return;
        }
        // the newline stays on the line: JSON.parse skips it, and the line is forwarded as it came
        const piece = chunk.subarray(start, end + 1);
        start = end + 1;
        if (discarding) {
          keepLast(piece);
          endDropped();
          continue;
        }
        if (size + piece.length - 1 > maxLineBytes) {
          overflow(piece);
          endDropped();
          continue;
        }
        if (parts.length === 0) handlers.onLine(lineOfBytes(piece));
        else {
          parts.push(piece);
          const joined = Buffer.concat(parts, size + piece.length);
          parts = [];
          size = 0;
          handlers.onLine(lineOfBytes(joined));
        }
      }
    },
    rest: () => (parts.length === 0 ? null : Buffer.concat(parts, size)),
  };
}

// one complete line; a long one's text is made when something reads it (a read answer parsed from its bytes
// with its blob cut out never needs the 11 MB string)
function lineOfBytes(bytes: Buffer): Line {
  if (bytes.length < holedLineBytes) return { parts: [bytes], size: bytes.length, text: decoded(bytes) };
  let text: string | undefined;
  return {
    parts: [bytes],
    size: bytes.length,
    get text() {
      text ??= decoded(bytes);
      return text;
    },
  };
}

// a line's text: ASCII bytes (every JSON-RPC line that escapes its non-ASCII text, a base64 blob) read as Latin-1, which
// is the same text made without UTF-8's validation and transcoding (an 11 MB line: ~8 -> ~3 ms of CPU), else as UTF-8
function decoded(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
