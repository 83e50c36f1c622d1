import type { Decision } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import { uriOf } from '../link/resource-link.ts';
import { decideLinkLine } from './guard-gate.ts';

// One tool result may name the same link in `content`, in `structuredContent` and in a JSON text item that mirrors it.
// The link is decided once: a link object equal to one already decided (its content item, say) takes that decision,
// and a bare uri string (no name, type or size of its own: it stands for the address alone) takes the decision of a
// link with its uri, the refusing one when they differ. Anything else is decided once through the guarded gate and
// kept for the rest of the result.

/** The link decision of a link found in a tool result; `bare` for a uri string, not a link object. */
export type LinkDecider = (link: Readonly<Record<string, unknown>>, bare: boolean) => Promise<Decision>;

/** A link already decided for this tool result (a `content` link, from the front end's ledger), and its decision. */
export interface DecidedLink {
  readonly link: unknown;
  /** the decision, or how to get it (asked only when a value of the result needs a decision) */
  readonly decision: Decision | Promise<Decision> | (() => Promise<Decision>);
}

/**
 * The decider of one tool result from `server`: `known` links (decided elsewhere, e.g. the ledger's steps) are never
 * decided again, and each other link or uri is decided once (`decideLinkLine`: never throws, a failing gate denies).
 */
export function resultLinkDecider(
  gate: Gate,
  server: string,
  known: readonly DecidedLink[] = [],
  onDecided?: DecidedHere,
): LinkDecider {
  const byItem = new Map<string, Promise<Decision>>();
  const byUri = new Map<string, Promise<Decision>[]>();
  const keep = (link: unknown, decision: Promise<Decision>) => {
    byItem.set(itemKey(link), decision);
    const uri = uriOf(link);
    byUri.set(uri, [...(byUri.get(uri) ?? []), decision]);
  };
  // the known links are keyed at the first decision asked for: a result with no JSON text or structured content
  // asks for none and pays nothing
  let keyed = false;
  const keyKnown = () => {
    keyed = true;
    for (const k of known) {
      if (byItem.has(itemKey(k.link))) continue;
      const decision = Promise.resolve(typeof k.decision === 'function' ? k.decision() : k.decision);
      // a known decision no value here asks for is never awaited: its failure is the caller's to see, not unhandled
      decision.catch(() => {});
      keep(k.link, decision);
    }
  };
  const bareDecisions = new Map<string, Promise<Decision>>();
  return (link, bare) => {
    if (!keyed) keyKnown();
    const uri = uriOf(link);
    if (bare) {
      let decided = bareDecisions.get(uri);
      if (decided === undefined) {
        const same = byUri.get(uri);
        decided = same === undefined ? decide(gate, server, link, onDecided) : strictest(same);
        bareDecisions.set(uri, decided);
      }
      return decided;
    }
    const key = itemKey(link);
    const decided = byItem.get(key);
    if (decided !== undefined) return decided;
    const made = decide(gate, server, link, onDecided);
    keep(link, made);
    return made;
  };
}

/**
 * Told of each decision a result's decider makes itself (never of a known link's), before anyone awaiting it hears
 * it: a front end notes the refused ones (`RefusedAddresses.noteDecided`).
 */
export type DecidedHere = (uri: string, decision: Decision) => void;

function decide(gate: Gate, server: string, link: unknown, onDecided?: DecidedHere): Promise<Decision> {
  const made = Promise.resolve(decideLinkLine(gate, { stage: 'link', server, readFrom: server, link }));
  if (onDecided === undefined) return made;
  return made.then((decision) => {
    onDecided(uriOf(link), decision);
    return decision;
  });
}

// the first refusing decision among those of one uri, else the first
async function strictest(decisions: readonly Promise<Decision>[]): Promise<Decision> {
  const all = await Promise.all(decisions);
  return all.find((d) => d.effect === 'deny') ?? (all[0] as Decision);
}

// a link object is the same link only when every member is (its name, type and size are decided on too)
function itemKey(link: unknown): string {
  return JSON.stringify(link) ?? '';
}
