import { createHash } from 'node:crypto';
import type { DiscoveredStage } from '../record/link-record.ts';

/** The facts of a discovered stage a record ref is made of: where the link was found, and its masked uri. */
export type RecordRefFacts = Pick<DiscoveredStage, 'server' | 'responseId' | 'contentIndex' | 'uri'>;

/**
 * A short reference to a link's record (10 hex digits): made from the record's own discovered stage (server, response
 * id, content index, masked uri), so a notice can name the record without naming the uri, and anyone holding the
 * records finds it again (`recordRef(record.stages.discovered)`).
 */
export function recordRef(facts: RecordRefFacts): string {
  const text = JSON.stringify([facts.server, facts.responseId, facts.contentIndex, facts.uri]);
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}
