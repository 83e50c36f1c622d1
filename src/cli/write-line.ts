import type { Writable } from 'node:stream';

/** Writes one line and waits for the stream to drain when its buffer is full (bounded memory). */
export async function writeLine(out: Writable, line: string): Promise<void> {
  if (!out.write(`${line}\n`)) {
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        out.off('drain', done);
        out.off('error', done);
        if (error) reject(error);
        else resolve();
      };
      out.once('drain', done);
      out.once('error', done);
    });
  }
}
