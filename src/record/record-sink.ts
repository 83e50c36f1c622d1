import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { GateError } from '../gate-error.ts';
import type { LinkRecord } from './link-record.ts';

/** Where records go; `write` resolves when the record is accepted, `close` flushes and releases. */
export interface RecordSink {
  write(record: LinkRecord): Promise<void>;
  close(): Promise<void>;
}

/** A sink that hands every record to `onRecord`; a throwing callback rejects `write`, never the flow's decision. */
export function callbackSink(onRecord: (record: LinkRecord) => void | Promise<void>): RecordSink {
  return {
    async write(record) {
      await onRecord(record);
    },
    async close() {},
  };
}

/** A sink that appends one JSON object per line to `file` (created when absent, never truncated). */
export function jsonLinesSink(file: string): RecordSink {
  const stream = createWriteStream(file, { flags: 'a', encoding: 'utf8' });
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  let closed = false;
  return {
    async write(record) {
      // an i/o fault is rethrown as node raised it (it names the file and errno)
      if (failure !== undefined) throw failure;
      if (closed) throw new GateError('USAGE', `record sink \`${file}\` is closed`);
      if (!stream.write(`${JSON.stringify(record)}\n`)) await once(stream, 'drain');
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
