import type { DiscoveredRecord } from '../record/discovered-record.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import type { RecordSink } from '../record/record-sink.ts';

/** A sink that keeps every record in memory, in the order written; for tests of a front end. */
export interface MemorySink extends RecordSink {
  /** link records, in the order written */
  readonly records: LinkRecord[];
  /** discovery records (a tool result's links as it was passed on), in the order written */
  readonly discovered: DiscoveredRecord[];
  /** embedded records, in the order written */
  readonly embedded: EmbeddedRecord[];
  /** true once `close` was called; a write after it is rejected */
  readonly closed: boolean;
}

/** A `RecordSink` that keeps what it is given (a write after `close` rejects, as a file sink's would). */
export function memorySink(): MemorySink {
  const records: LinkRecord[] = [];
  const embedded: EmbeddedRecord[] = [];
  const discovered: DiscoveredRecord[] = [];
  let closed = false;
  const accept = <T>(into: T[], record: T): Promise<void> => {
    if (closed) return Promise.reject(new Error('memory sink: write after close'));
    into.push(record);
    return Promise.resolve();
  };
  return {
    records,
    embedded,
    discovered,
    get closed() {
      return closed;
    },
    write: (record) => accept(records, record),
    writeEmbedded: (record) => accept(embedded, record),
    writeDiscovered: async (written) => {
      for (const record of written) await accept(discovered, record);
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
