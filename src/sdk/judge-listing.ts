import { isRecord } from '../decision/json-value.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { resultLinkDecider } from '../flow/link-decider.ts';
import type { FoundLink } from './found-links.ts';
import { gateError } from './gate-answers.ts';
import type { TransportSession } from './transport-session.ts';

/** Most entries of one `resources/list` or `resources/templates/list` page the gate judges; a longer page is withheld. */
export const maxListedEntries = 10_000;

/**
 * A `resources/list` or `resources/templates/list` answer without the entries whose uri the link decision refuses (a
 * host hands its listing to the model: Claude Code's ListMcpResourcesTool), each uri judged as a link of this server
 * (its address: declared types and sizes stop reads, not listings); a template by its uri with every `{…}` expression
 * empty. The same message when none is refused.
 */
export async function judgedListing(s: TransportSession, m: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = m['result'];
  if (!isRecord(result)) return m;
  // both arrays, whichever the method: a host's SDK passes a key it does not expect on, and a host hands it on too
  const keys = listingKeys.filter((key) => Array.isArray(result[key]));
  const lists = keys.map((key) => result[key] as unknown[]);
  // each entry costs a link decision: a longer listing (a server pages it with `nextCursor`) is not judged at all
  if (lists.reduce((n, entries) => n + entries.length, 0) > maxListedEntries)
    return gateError(
      m['id'] as JsonRpcId,
      `linkgate withheld the listing: more than ${maxListedEntries} entries in one page (the server can page it)`,
    );
  const decide = resultLinkDecider(s.gate, s.server);
  const refusedIn = await Promise.all(
    lists.map((entries) =>
      Promise.all(
        entries.map(async (entry) => {
          if (!isRecord(entry)) return false;
          const template = entry['uriTemplate'];
          const uri = typeof template === 'string' ? template.replace(/\{[^{}]*\}/g, '') : entry['uri'];
          // the address alone: a declared type or size would stop a read, not the listing of its address
          return (await decide({ type: 'resource_link', uri, name: 'listed' }, true)).effect === 'deny';
        }),
      ),
    ),
  );
  if (!refusedIn.some((refused) => refused.includes(true))) return m;
  // each entry left out gets its record (refused, never read), before the listing goes on
  const at = s.now();
  const left: FoundLink[] = [];
  keys.forEach((key, k) =>
    (lists[k] ?? []).forEach((entry, i) => {
      if (refusedIn[k]?.[i] !== true || !isRecord(entry)) return;
      const uri = key === 'resourceTemplates' ? entry['uriTemplate'] : entry['uri'];
      const name = typeof entry['name'] === 'string' ? entry['name'] : 'listed';
      const link = { type: 'resource_link', uri, name };
      left.push({ link, contentIndex: i, tool: null, responseId: m['id'] as JsonRpcId, at, read: true });
    }),
  );
  await s.recordUnread(left, 'left out of the listing');
  const kept = { ...result };
  keys.forEach((key, k) => {
    kept[key] = (lists[k] ?? []).filter((_, i) => refusedIn[k]?.[i] !== true);
  });
  return { ...m, result: kept };
}

// the arrays of a `resources/list` and a `resources/templates/list` answer
const listingKeys = ['resources', 'resourceTemplates'] as const;
