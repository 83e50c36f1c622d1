import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';

/**
 * A callback sink's `onRecord` that keeps the finished link records only: `gateTransport` (and the proxy over it)
 * also hands a sink without `writeDiscovered` each link's discovery record (`kind: "discovered"`) as the tool result
 * listing it is passed on, which a later record of the link supersedes.
 */
export function finishedInto(records: LinkRecord[]): (record: LinkRecord) => void {
  return (record) => {
    if (recordKindOf(record) !== 'discovered') records.push(record);
  };
}
