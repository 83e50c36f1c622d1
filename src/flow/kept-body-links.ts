import type { Decision } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import { uriOf } from '../link/resource-link.ts';

// The one rule of which links of a read's JSON body a front end keeps, and as whose (the sdk's `FoundLinks`, the
// hook's `SessionState.addSeen`): every `resource_link` object the body holds, allowed or refused, and every refused
// uri string, as a link the server that answered the read returned, as a tool result's `resource_link`s are. A later
// read of its uri from another server is then `server.mismatch` (`links.requireSameServer`), and from that server it
// is judged as this link (its declared type and size). An allowed uri string is an address in data, as a string of a
// tool result's `structuredContent` is: not kept. A uri the body holds more than once is kept once, as its first
// refusing link when one refused it, else as its first link.

/** One link the judgement of a read's JSON body found: the link, its decision, and whether it was a bare uri string. */
export interface BodyLink {
  /** the link object (a bare uri string: a `resource_link` of it) */
  link: unknown;
  decision: Decision;
  /** a uri string in the body, not a `resource_link` object */
  bare: boolean;
}

/** A link of a read's body a front end keeps: the link, its decision, and the server whose link it is (the answering one). */
export interface KeptBodyLink {
  link: Record<string, unknown>;
  decision: Decision;
  /** the server that answered the read */
  server: string;
}

/** Told of the links of a read's JSON bodies to keep (`keptBodyLinks`), before the read's answer goes anywhere. */
export type KeepBodyLinks = (kept: readonly KeptBodyLink[]) => void;

/** The links of a read's JSON bodies (in body order, one per uri) that are kept as links of `server`, the answering one. */
export function keptBodyLinks(found: readonly BodyLink[], server: string): KeptBodyLink[] {
  const byUri = new Map<string, KeptBodyLink>();
  for (const { link, decision, bare } of found) {
    const refused = decision.effect === 'deny';
    if ((bare && !refused) || !isRecord(link)) continue;
    const uri = uriOf(link);
    const kept = byUri.get(uri);
    if (kept !== undefined && (kept.decision.effect === 'deny' || !refused)) continue;
    // a refusing link of the uri takes the place of an allowed one kept before it (in its place)
    byUri.set(uri, { link, decision, server });
  }
  return [...byUri.values()];
}
