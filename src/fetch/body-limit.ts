import type { Readable } from 'node:stream';

/** How reading a body ended: fully, cut at the cap, at the deadline/abort, or by a broken connection. */
export type BodyEnd = 'complete' | 'cap' | 'aborted' | 'error';

/** The kept bytes of a body (at most the cap) and how reading ended. */
export interface CappedBody {
  /** the bytes kept, never more than `maxBytes` */
  bytes: Buffer;
  /** true when the body went over `maxBytes` and was cut */
  truncated: boolean;
  end: BodyEnd;
  /** one lowercase line when `end` is `error` */
  error?: string;
}

/**
 * Reads `stream` while counting bytes: keeps at most `maxBytes` and destroys the stream (and its
 * socket) on the first byte past the cap or when `signal` aborts, so nothing past the cap is buffered.
 */
export function readCappedBody(stream: Readable, maxBytes: number, signal: AbortSignal): Promise<CappedBody> {
  return new Promise<CappedBody>((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let done = false;
    const finish = (end: BodyEnd, error?: string): void => {
      if (done) return;
      done = true;
      stream.off('data', onData);
      signal.removeEventListener('abort', onAbort);
      if (end !== 'complete') stream.destroy();
      const body: CappedBody = { bytes: Buffer.concat(chunks, kept), truncated: end === 'cap', end };
      if (error !== undefined) body.error = error;
      resolve(body);
    };
    const onData = (chunk: Buffer): void => {
      const room = maxBytes - kept;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        kept += Math.max(room, 0);
        finish('cap');
        return;
      }
      chunks.push(chunk);
      kept += chunk.length;
    };
    const onAbort = (): void => finish('aborted');
    if (signal.aborted) {
      finish('aborted');
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    stream.once('end', () => finish('complete'));
    stream.once('error', (error) => finish('error', `body read failed: ${error.message.toLowerCase()}`));
    stream.once('close', () => finish('error', 'connection closed before the body ended'));
  });
}

/**
 * The longest prefix of a body cut at the cap that does not end inside a character: drops an incomplete
 * trailing UTF-8 sequence (at most 3 bytes), or the odd last byte of UTF-16 behind a byte order mark, so a
 * cut text body still decodes. Bytes that are not text lose at most 3 bytes they had already lost meaning for.
 */
export function trimCutText(bytes: Buffer): Buffer {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return bytes.length % 2 === 0 ? bytes : bytes.subarray(0, bytes.length - 1);
  }
  // walk back over continuation bytes (10xxxxxx) to the lead byte of the last sequence
  let lead = bytes.length - 1;
  while (lead >= 0 && bytes.length - lead <= 3 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes;
  const first = bytes[lead] ?? 0;
  const needed = first >= 0xf0 && first <= 0xf4 ? 4 : first >= 0xe0 ? 3 : first >= 0xc2 && first <= 0xdf ? 2 : 1;
  // a complete sequence, plain ascii, or bytes that are not utf-8 at all stay as they are
  if (needed === 1 || first >= 0xf5 || bytes.length - lead >= needed) return bytes;
  return bytes.subarray(0, lead);
}
