import { closeSync } from 'node:fs';
import { GateError } from '../errors.ts';
import type { DiscoveredRecord } from './discovered-record.ts';
import type { EmbeddedRecord } from './embedded-record.ts';
import type { LinkRecord } from './link-record.ts';
import { openRecordsFile, writeAll } from './records-file.ts';

/**
 * Where records go; `write` resolves when the record is accepted, `flush` (when present) once every record accepted so
 * far is stored (a file: handed to the OS), `close` flushes and releases. `writeEmbedded`, when present, receives the
 * record of each embedded resource judged; `writeDiscovered`, when present, the discovery records of one tool result's
 * links as it is passed on (a sink without them keeps link records only).
 */
export interface RecordSink {
  write(record: LinkRecord): Promise<void>;
  /** several link records as one write, in order (a file: one `write(2)`); without it, `write` takes each */
  writeMany?(records: readonly LinkRecord[]): Promise<void>;
  writeEmbedded?(record: EmbeddedRecord): Promise<void>;
  writeDiscovered?(records: readonly DiscoveredRecord[]): Promise<void>;
  flush?(): Promise<void>;
  close(): Promise<void>;
  /** false when a link record written now would go nowhere (no sink behind, no telemetry): absent means it goes somewhere */
  keepsRecords?(): boolean;
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

/**
 * A sink that appends one JSON object per line to `file` (created when absent, never truncated): link, discovery and
 * embedded records alike. Every write is handed to the OS before it resolves (a process killed after it loses
 * nothing), the lines of one call in one `write(2)`. Throws GateError `USAGE` at once when `file` cannot be written
 * (its folder is missing, it is not a regular file, permission).
 */
export function jsonLinesSink(file: string): RecordSink {
  const fd = openRecordsFile(file);
  let closed = false;
  const writeLines = async (records: readonly (LinkRecord | EmbeddedRecord)[]) => {
    if (closed) throw new GateError('USAGE', `record sink \`${file}\` is closed`);
    if (records.length === 0) return;
    // an i/o fault is rethrown as node raised it (it names the errno)
    writeAll(fd, Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8'));
  };
  return {
    write: (record) => writeLines([record]),
    writeMany: writeLines,
    writeEmbedded: (record) => writeLines([record]),
    writeDiscovered: writeLines,
    async flush() {},
    async close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}
