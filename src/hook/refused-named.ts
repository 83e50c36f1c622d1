// A later tool result may name, in prose, the address of a link the gate refused in an earlier event of the session
// (`curl http://169.254.169.254/…` after the link to it was refused): the hook keeps the addresses of the links it
// refused in the session's state (`SessionState.addRefused`) and searches each later tool result (and what a read
// hands on: hook-post-read.ts) for them with the decorator's matcher (`RefusedAddresses`: as written and read back,
// one pass whatever their number). A result naming one is withheld whole, as the decorator withholds such an answer; past the state's bound every later result is. A
// resource listing keeps what names none, as the decorator keeps it (`listingNamed`), and a refused link's notice
// never quotes a name that names one (`namelessWhereNaming`).
import { deny, reason } from '../decision/deny.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { FlowMode } from '../flow/link-steps.ts';
import { gateNotice } from '../flow/gate-notice.ts';
import { isRecord } from '../decision/json-value.ts';
import { namedNotice, RefusedAddresses } from '../sdk/refused-addresses.ts';
import { checkBudget } from './event-budget.ts';
import type { HookContext } from './hook-context.ts';
import type { HookAnswer } from './hook-event.ts';
import { maxRefusedAddresses, maxRefusedChars, type RefusedAddressList } from './session-state.ts';
import { parsedJson } from './tool-output.ts';

/**
 * The search of one event for the addresses of `refused`: null when there is nothing to search for (the list is whole
 * and empty) or nothing can be searched for (the list is not whole: every result is withheld).
 */
export function refusedSearch(refused: RefusedAddressList): RefusedAddresses | null {
  if (!refused.complete || refused.addresses.length === 0) return null;
  const search = new RefusedAddresses();
  // the forms the state kept: most of the search's cost is making them
  search.keep(refused.addresses, refused.forms);
  return search;
}

/**
 * The answer withholding a tool result of `tool` (`searched`: what of it would reach the model, its own refused links
 * already notices or left out) when it names an address of `refused`, or when `refused` is past the state's bound;
 * null when it names none or `mode` is `observe`. `search`: `refusedSearch(refused)`, when the caller has it.
 */
export function namingWithheld(
  searched: unknown,
  refused: RefusedAddressList,
  tool: string,
  mode: FlowMode,
  context: HookContext,
  search: RefusedAddresses | null = refusedSearch(refused),
): HookAnswer | null {
  const notice = namingNotice(
    searched,
    refused,
    [`the result of tool ${quoteValue(tool)}`, 'the tool result'],
    mode,
    context,
    search,
  );
  return notice === null ? null : { kind: 'replace', output: [{ type: 'text', text: notice }], reason: notice };
}

/**
 * The notice withholding `what` (its name in the notice, then in the reason) when `searched` names an address of
 * `refused`, or when `refused` is past the state's bound; null when it names none or `mode` is `observe`.
 */
export function namingNotice(
  searched: unknown,
  refused: RefusedAddressList,
  what: readonly [notice: string, reason: string],
  mode: FlowMode,
  context: HookContext,
  search: RefusedAddresses | null = refusedSearch(refused),
): string | null {
  if (mode === 'observe') return null;
  if (refused.complete && refused.addresses.length === 0) return null;
  checkBudget(context.budget);
  if (refused.complete && !search?.names(searched)) return null;
  return namingText(refused, what[0], what[1], context);
}

/** What one listing search left of a resource listing (`listingNamed`). */
export type ListingNamed =
  | { kind: 'unchanged' }
  | { kind: 'kept'; output: unknown; left: number }
  | { kind: 'withheld'; answer: HookAnswer };

/**
 * A resource listing as the host hands it on (an array of entries, or `{resources}`, either one as JSON text) searched
 * for the addresses of `refused`, as the decorator searches a `resources/list` answer
 * (`RefusedAddresses.listingWithout`): an entry whose `name`, `uri` or `uriTemplate` names one is left out (`left`
 * counts them), any other string naming one becomes a notice; the whole listing is withheld when that cannot be done
 * safely (another shape, a member outside the entries naming one) or `refused` is not whole. Unchanged in observe
 * `mode` and when it names none.
 */
export function listingNamed(
  output: unknown,
  refused: RefusedAddressList,
  mode: FlowMode,
  context: HookContext,
  search: RefusedAddresses | null = refusedSearch(refused),
): ListingNamed {
  if (mode === 'observe' || (refused.complete && refused.addresses.length === 0)) return { kind: 'unchanged' };
  checkBudget(context.budget);
  const withheld = (): ListingNamed => ({
    kind: 'withheld',
    answer: withheldNaming(refused, 'the resource listing', 'the listing', context),
  });
  if (!refused.complete || search === null) return withheld();
  const value = parsedJson(output);
  if (!search.names(value)) return { kind: 'unchanged' };
  const list = Array.isArray(value) ? value : isRecord(value) ? value['resources'] : undefined;
  if (!Array.isArray(list)) return withheld();
  const result = Array.isArray(value) ? { resources: value } : (value as Record<string, unknown>);
  const kept = search.listingWithout({ result }, 'resources/list', namedNotice)?.['result'];
  if (!isRecord(kept) || !Array.isArray(kept['resources'])) return withheld();
  const made = Array.isArray(value) ? kept['resources'] : kept;
  const left = list.length - kept['resources'].length;
  return { kind: 'kept', output: typeof output === 'string' ? JSON.stringify(made) : made, left };
}

/**
 * The notice that stands for a refused link (`notice`, built from `link`), without the link's name when the name or
 * the notice names an address `search` holds: a notice quotes the server's name for the link, and a name may carry the
 * address of another link refused in the session (its own address a notice never shows). `rebuild` makes the notice
 * for a link; the result says whether what is left still names one (the caller then searches it with the rest).
 */
export function namelessWhereNaming(
  notice: string,
  link: Readonly<Record<string, unknown>>,
  search: RefusedAddresses | null,
  rebuild: (link: Record<string, unknown>) => string,
): { notice: string; naming: boolean } {
  if (search === null || !search.names([link['name'] ?? null, notice])) return { notice, naming: false };
  const { name: _name, ...nameless } = link;
  const bare = rebuild(nameless);
  return { notice: bare, naming: search.names(bare) };
}

// the answer withholding `what` (`whose`: how its reason names it) for naming a refused address, or for `refused`
// not being whole
function withheldNaming(refused: RefusedAddressList, what: string, whose: string, context: HookContext): HookAnswer {
  const notice = namingText(refused, what, whose, context);
  return { kind: 'replace', output: [{ type: 'text', text: notice }], reason: notice };
}

// the notice withholding `what` (`whose`: how its reason names it)
function namingText(refused: RefusedAddressList, what: string, whose: string, context: HookContext): string {
  const why = refused.complete
    ? `${whose} names the address of a link the gate refused earlier in this session`
    : (refused.incomplete ?? pastBound);
  const decision = deny(context.gate.policy, reason('content.names-refused-address', 'hook', 'content', why));
  return gateNotice(`withheld ${what}`, null, decision, null);
}

const pastBound =
  `the session refused more links than its state keeps the addresses of (${maxRefusedAddresses} addresses, ` +
  `${maxRefusedChars} characters): every later tool result could name one it no longer holds`;
