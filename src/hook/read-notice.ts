import type { Decision } from '../decision/decision.ts';
import { gateNotice, stepSubject } from '../flow/gate-notice.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { MessageLedger } from '../flow/message-ledger.ts';
import type { NextStep } from '../record/link-record.ts';
import type { HookContext } from './hook-context.ts';
import { refusedSearch } from './refused-named.ts';
import type { SessionState } from './session-state.ts';

// A read event refuses one link (its own) or withholds its body: its notice names the link by the name a tool result
// gave it, worded with the event's ledger (that uri) as the tool result's notices are (hook-discovery.ts), so an
// ordinary name is shown. A name spelling an address the session refused earlier is left out as well (the state's
// list, searched as later tool results are, and read only for a name that spells an address); when that list is not
// whole, such a name is not shown at all, and where an event of the session withheld links by a cap no name is. Its
// reasons are shown by their codes, each with its message only where the policy is its source: gateNotice's one rule
// (`showsMessage`, every front end's), as any other message may quote what the server sent (a withheld page's
// stylesheet href, a zip entry's name, an attribute or element name, a declared type, a `resultType`, an error's text).

/** The notice of a read event (`what` the hook did to `step`'s link: `refused to read`, `withheld the body of`). */
export async function readNotice(
  what: string,
  step: LinkStep,
  decision: Decision,
  next: NextStep | null,
  read: { state: SessionState; context: HookContext },
  keptAll: boolean,
): Promise<string> {
  const subject = stepSubject(step);
  const nameless = gateNotice(what, { ...subject, name: null }, decision, next);
  // a session whose links were not all kept (a cap withheld some unjudged, their addresses on no list) names no link,
  // as the capped event's own notices name none (`MessageLedger.unknown`): a name may spell such a link's address in
  // a form no rule for 'any address' sees (`localhost/admin/keys`); `keptAll` comes from the read's one listing
  if (!keptAll) return nameless;
  // worded with no ledger, a notice shows no name that spells any address at all
  const broad = gateNotice(what, subject, decision, next);
  const notice = gateNotice(what, { ...subject, refused: MessageLedger.of([subject.uri]) }, decision, next);
  // the same words (a name spelling no address, or its own): the session's list is not read (a read's one listing)
  if (notice === broad) return notice;
  const before = await read.state.refusedAddresses(read.context.budget);
  // a list that is not whole cannot say which addresses the name may not spell
  if (!before.complete) return nameless;
  const search = refusedSearch(before);
  return search === null || !search.names([subject.name, notice]) ? notice : nameless;
}
