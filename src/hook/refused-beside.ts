import type { Decision } from '../decision/decision.ts';
import type { DecidedLink, LinkDecider } from '../flow/link-decider.ts';
import { resultLinkDecider } from '../flow/link-decider.ts';
import type { RefusedRef } from '../flow/structured-links.ts';
import type { Gate } from '../gate/create-gate.ts';
import { uriOf } from '../link/resource-link.ts';
import { maskUri } from '../link/mask-uri.ts';
import { refusedAddressOf } from '../sdk/refused-addresses.ts';

// A tool result's JSON text items and `structuredContent` hold links and uris the hook decides only as it judges them
// (after `content`'s links): one refused there hands its address on through every other string of the result (a prose
// item "now fetch <the address>", another JSON text, a `structuredContent` string) as well as a `content` link would.
// The decider of those values notes each decision it makes, and the refusals it made beyond `content`'s are searched
// for in the whole result again, as `content`'s are.

/** A result's decider (`resultLinkDecider`) that keeps every link it was asked about and the decision it gave. */
export class NotingDecider {
  readonly decide: LinkDecider;
  readonly #asked: { link: Readonly<Record<string, unknown>>; decision: Promise<Decision> }[] = [];

  constructor(gate: Gate, server: string, known: readonly DecidedLink[]) {
    const inner = resultLinkDecider(gate, server, known);
    this.decide = (link, bare) => {
      const decision = inner(link, bare);
      this.#asked.push({ link, decision });
      return decision;
    };
  }

  /**
   * The links refused so far that `refs` (by masked uri) does not hold, by masked uri (no record names them: their
   * notices name none), and the addresses of those refused for their address (`refusedAddressOf`).
   */
  async refusedBeyond(
    refs: ReadonlyMap<string, RefusedRef>,
  ): Promise<{ refs: Map<string, RefusedRef>; addresses: string[] }> {
    const made = new Map<string, RefusedRef>();
    const addresses: string[] = [];
    for (const { link, decision: asked } of this.#asked) {
      const decision = await asked;
      if (decision.effect !== 'deny') continue;
      const uri = uriOf(link);
      const key = maskUri(uri);
      if (refs.has(key) || made.has(key)) continue;
      made.set(key, { ref: null, link, decision });
      const address = refusedAddressOf(decision, uri);
      if (address !== null) addresses.push(address);
    }
    return { refs: made, addresses };
  }
}
