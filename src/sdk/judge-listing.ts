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
 * (its address: declared types and sizes stop reads, not listings); a template by what its expansions can reach
 * (`templateJudged`). The same message when none is refused.
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
          if (typeof template === 'string') {
            const judged = templateJudged(template);
            if (judged === null) return false;
            const decision = await decide({ type: 'resource_link', uri: judged.uri, name: 'listed' }, true);
            return decision.effect === 'deny' && (judged.origin || decision.reasons.some(isSchemeRefusal));
          }
          // the address alone: a declared type or size would stop a read, not the listing of its address
          return (await decide({ type: 'resource_link', uri: entry['uri'], name: 'listed' }, true)).effect === 'deny';
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

// a uri template's expression (RFC 6570 level 4: `{var}`, `{+var}`, `{?a,b}`, …)
const expression = /\{[^{}]*\}/g;

/**
 * How a listed uri template is judged, by what its expansions can reach: when its host is fixed (no expression in the
 * authority but its port), as the uri with each expression expanded (a scheme's to `http`, the scheme that reaches
 * network addresses; a port's to `1`; any other to one plain segment), so its origin and address are judged as any
 * listed uri's (`origin: true`: any refusal leaves it out); when an expression sits in the host (`https://{host}/…`),
 * the origin is the expansion's, judged at the read of each expanded uri, so the template is judged by its fixed scheme
 * only (`origin: false`: only a refused scheme leaves it out); null when it fixes neither (`{+url}`).
 */
export function templateJudged(template: string): { uri: string; origin: boolean } | null {
  const parts = /^([^:/?#]*):(?:\/\/([^/?#]*))?/.exec(template);
  if (parts === null) return null;
  const scheme = parts[1] ?? '';
  const authority = parts[2] ?? '';
  const schemeVaries = scheme.includes('{');
  // the host: the authority without its userinfo and its port
  const host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:(?:\d|\{[^{}]*\})*$/, '');
  if (!host.includes('{')) {
    const head = `${schemeVaries ? 'http' : scheme}:`;
    const rest = template.slice(scheme.length + 1);
    const port = /^\/\/[^/?#]*/.exec(rest)?.[0] ?? '';
    const uri = head + port.replace(expression, '1') + rest.slice(port.length).replace(expression, 'x');
    return { uri, origin: true };
  }
  if (schemeVaries) return null;
  return { uri: `${scheme}://x/`, origin: false };
}

const isSchemeRefusal = (r: { code: string }) => r.code === 'uri.scheme-not-allowed';
