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
