import type { LinkRecord } from './link-record.ts';

/**
 * The record a front end writes for a link when it passes on the tool result that lists it, before any read
 * (`kind: "discovered"`): what the link decision said, as a `link-only` record. A later record of the same link (its
 * read, its refusal, or `link-only` at shutdown) supersedes it; one a process never wrote (killed first) leaves this.
 */
export interface DiscoveredRecord extends LinkRecord {
  readonly kind: 'discovered';
}

/** The discovery record of a link, from the `link-only` record its link decision gives before any read. */
export function discoveredRecord(record: LinkRecord): DiscoveredRecord {
  return { kind: 'discovered', ...record };
}
