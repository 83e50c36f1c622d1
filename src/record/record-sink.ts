import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { GateError } from '../errors.ts';
import type { EmbeddedRecord } from './embedded-record.ts';
import type { LinkRecord } from './link-record.ts';

/**
 * Where records go; `write` resolves when the record is accepted, `flush` (when present) once every record accepted so
 * far is stored (a file: handed to the OS), `close` flushes and releases. `writeEmbedded`, when present, receives the
 * record of each embedded resource judged (a sink without it keeps link records only).
 */
export interface RecordSink {
  write(record: LinkRecord): Promise<void>;
  writeEmbedded?(record: EmbeddedRecord): Promise<void>;
  flush?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A sink that hands every link record to `onRecord` and every embedded record to `onEmbedded` (when given); a throwing
 * callback rejects the write, never the flow's decision.
 */
export function callbackSink(
  onRecord: (record: LinkRecord) => void | Promise<void>,
  onEmbedded?: (record: EmbeddedRecord) => void | Promise<void>,
): RecordSink {
  const sink: RecordSink = {
    async write(record) {
      await onRecord(record);
    },
    async close() {},
  };
  if (onEmbedded !== undefined)
    sink.writeEmbedded = async (record) => {
      await onEmbedded(record);
    };
  return sink;
}

/** A sink that appends one JSON object per line to `file` (created when absent, never truncated), link and embedded records alike. */
export function jsonLinesSink(file: string): RecordSink {
  const stream = createWriteStream(file, { flags: 'a', encoding: 'utf8' });
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  let closed = false;
  // settles once the last line accepted is written to the file (the stream writes lines in order)
  let lastWritten: Promise<void> = Promise.resolve();
  const writeLine = async (record: LinkRecord | EmbeddedRecord) => {
    // an i/o fault is rethrown as node raised it (it names the file and errno)
    if (failure !== undefined) throw failure;
    if (closed) throw new GateError('USAGE', `record sink \`${file}\` is closed`);
    let room = true;
    lastWritten = new Promise<void>((resolve) => {
      room = stream.write(`${JSON.stringify(record)}\n`, () => resolve());
    });
    if (!room) await once(stream, 'drain');
  };
  return {
    write: writeLine,
    writeEmbedded: writeLine,
    async flush() {
      await lastWritten;
      if (failure !== undefined) throw failure;
    },
    async close() {
      if (closed) return;
      closed = true;
      stream.end();
      if (!stream.closed) await once(stream, 'close');
      if (failure !== undefined) throw failure;
    },
  };
}
