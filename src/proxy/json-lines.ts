/** Bytes of an oversize line kept for `onOversize`, so its JSON-RPC id can still be read. */
export const oversizeHeadBytes = 64 * 1024;

/** What a line splitter reports: each complete line (with its newline, so it can be written on as one buffer), and the head of each line over the cap. */
export interface LineHandlers {
  onLine(line: Buffer): void;
  /** a line passed `maxLineBytes`: its first `oversizeHeadBytes`; the rest of the line is discarded as it arrives */
  onOversize(head: Buffer): void;
}

/** Splits a byte stream into newline-delimited lines, buffering at most `maxLineBytes` bytes (≥ 1) of one line. */
export interface LineSplitter {
  push(chunk: Buffer): void;
  /** bytes of an unterminated last line, if any (the peer closed mid-message) */
  rest(): Buffer | null;
}

/** A splitter for stdio JSON-RPC framing: lines end at LF; a line over the cap is reported once and skipped, never buffered. */
export function lineSplitter(maxLineBytes: number, handlers: LineHandlers): LineSplitter {
  let parts: Buffer[] = [];
  let size = 0;
  let discarding = false;
  const overflow = (tail: Buffer) => {
    const head = Buffer.concat([...parts, tail.subarray(0, oversizeHeadBytes)]).subarray(0, oversizeHeadBytes);
    parts = [];
    size = 0;
    discarding = true;
    handlers.onOversize(head);
  };
  return {
    push(chunk) {
      let start = 0;
      while (start <= chunk.length) {
        const end = chunk.indexOf(10, start);
        if (end === -1) {
          const tail = chunk.subarray(start);
          if (discarding || tail.length === 0) return;
          if (size + tail.length > maxLineBytes) return overflow(tail);
          parts.push(tail);
          size += tail.length;
          return;
        }
        // the newline stays on the line: JSON.parse skips it, and the line is forwarded in one write
        const piece = chunk.subarray(start, end + 1);
        start = end + 1;
        if (discarding) {
          discarding = false;
          continue;
        }
        if (size + piece.length - 1 > maxLineBytes) {
          overflow(piece);
          discarding = false;
          continue;
        }
        const line = parts.length === 0 ? piece : Buffer.concat([...parts, piece], size + piece.length);
        parts = [];
        size = 0;
        handlers.onLine(line);
      }
    },
    rest: () => (parts.length === 0 ? null : Buffer.concat(parts, size)),
  };
}
