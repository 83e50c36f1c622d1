import { isRecord } from '../decision/json-value.ts';

/**
 * What one line of a records file is, by its `kind` field: `link` (a link record has none), `discovered` (a link's
 * record written when the tool result listing it was passed on, superseded by a later record of the same link),
 * `requested` (a hook's record of a read it let through, superseded by the record of the read's outcome),
 * `embedded` (an embedded resource's record), `summary` (the probe's last line), `unknown` (another kind, or not an
 * object).
 */
export type RecordKind = 'link' | 'discovered' | 'requested' | 'embedded' | 'summary' | 'unknown';

/** The kind of one parsed records-file line; only the `kind` field is looked at, the rest is the reader's to check. */
export function recordKindOf(line: unknown): RecordKind {
  if (!isRecord(line)) return 'unknown';
  const kind = line['kind'];
  if (kind === undefined) return 'link';
  return kind === 'embedded' || kind === 'summary' || kind === 'discovered' || kind === 'requested' ? kind : 'unknown';
}

/** Whether a parsed records-file line is an embedded resource's record (`kind: "embedded"`), not a link record. */
export function isEmbeddedRecordLine(line: unknown): boolean {
  return recordKindOf(line) === 'embedded';
}
