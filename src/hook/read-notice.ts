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
// list, searched as later tool results are); when that list is not whole, or an event of the session withheld links by
// a cap (their addresses unknown: `localhost/admin/keys` is an address no rule can tell from a name), no name is shown.

/** The notice of a read event (`what` the hook did to `step`'s link: `refused to read`, `withheld the body of`). */
export async function readNotice(
  what: string,
  step: LinkStep,
  decision: Decision,
  next: NextStep | null,
  state: SessionState,
  context: HookContext,
): Promise<string> {
  const subject = stepSubject(step);
  const nameless = gateNotice(what, { ...subject, name: null }, decision, next);
  const notice = gateNotice(what, { ...subject, refused: MessageLedger.of([subject.uri]) }, decision, next);
  // no name shown either way (none known, or it spells the link's own address): the session's list is not read
  if (notice === nameless) return notice;
  const before = await state.refusedAddresses(context.budget);
  if (!before.complete || !(await state.keptAll())) return nameless;
  const search = refusedSearch(before);
  return search === null || !search.names([subject.name, notice]) ? notice : nameless;
}
