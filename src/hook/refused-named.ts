// A later tool result may name, in prose, the address of a link the gate refused in an earlier event of the session
// (`curl http://169.254.169.254/…` after the link to it was refused): the hook keeps the addresses of the links it
// refused in the session's state (`SessionState.addRefused`) and searches each later tool result for them with the
// decorator's matcher (`RefusedAddresses`: as written and read back, one pass whatever their number). A result naming
// one is withheld whole, as the decorator withholds such an answer; past the state's bound every later result is.
import { deny, reason } from '../decision/deny.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { FlowMode } from '../flow/link-steps.ts';
import { gateNotice } from '../flow/gate-notice.ts';
import { RefusedAddresses } from '../sdk/refused-addresses.ts';
import { checkBudget } from './event-budget.ts';
import type { HookContext } from './hook-context.ts';
import type { HookAnswer } from './hook-event.ts';
import { maxRefusedAddresses, maxRefusedChars, type RefusedAddressList } from './session-state.ts';

/**
 * The answer withholding a tool result of `tool` (`searched`: what of it would reach the model, its own refused links
 * already notices or left out) when it names an address of `refused`, or when `refused` is past the state's bound;
 * null when it names none or `mode` is `observe`.
 */
export function namingWithheld(
  searched: unknown,
  refused: RefusedAddressList,
  tool: string,
  mode: FlowMode,
  context: HookContext,
): HookAnswer | null {
  if (mode === 'observe') return null;
  if (refused.complete && refused.addresses.length === 0) return null;
  checkBudget(context.budget);
  let why: string;
  if (!refused.complete) why = refused.incomplete ?? pastBound;
  else {
    const kept = new RefusedAddresses();
    kept.keep(refused.addresses);
    if (!kept.names(searched)) return null;
    why = 'the tool result names the address of a link the gate refused earlier in this session';
  }
  const decision = deny(context.gate.policy, reason('content.names-refused-address', 'hook', 'content', why));
  const notice = gateNotice(`withheld the result of tool ${quoteValue(tool)}`, null, decision, null);
  return { kind: 'replace', output: [{ type: 'text', text: notice }], reason: notice };
}

const pastBound =
  `the session refused more links than its state keeps the addresses of (${maxRefusedAddresses} addresses, ` +
  `${maxRefusedChars} characters): every later tool result could name one it no longer holds`;
