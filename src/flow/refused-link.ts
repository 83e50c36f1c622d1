import type { Decision } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import { uriOf } from '../link/resource-link.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { gateNotice, shownDecision } from './gate-notice.ts';
import { type LinkStep, linkRefused } from './link-steps.ts';
import type { MessageLedger } from './message-ledger.ts';
import { recordRef } from './record-ref.ts';

// A `resource_link` refused by its link decision is not handed on as a link: any party that sees a link may read it
// (a framework's auto-read, a provider's url fetch, the host's own read tool asked again by the model, a shell or web
// fetch tool the gate does not cover). In enforce mode every front end puts this text item in its place, naming the
// link without its address; observe mode keeps the link and records the would-deny.

/**
 * The one line that stands where a refused link was (`gateNotice`): its quoted name, its scheme, the reason codes, the
 * short ref of its record (`recordRef`) and the policy; never its uri (the record keeps it, masked). `refused`: the
 * links its message refused (a name spelling one of their addresses is left out; absent: any address).
 */
export function refusedLinkNotice(
  link: unknown,
  decision: Decision,
  ref: string | null = null,
  refused?: MessageLedger,
): string {
  const name = isRecord(link) && typeof link['name'] === 'string' ? link['name'] : null;
  return gateNotice('refused the link', { name, uri: uriOf(link), ref, refused }, decision, null);
}

/** The text item that replaces a `resource_link` whose link decision is `decision` (a deny): the notice, the decision under `_meta`. */
export function refusedLinkItem(
  link: unknown,
  decision: Decision,
  ref: string | null = null,
  refused?: MessageLedger,
): Record<string, unknown> {
  const meta = { [decisionMetaKey]: shownDecision(decision, uriOf(link)) };
  return { type: 'text', text: refusedLinkNotice(link, decision, ref, refused), _meta: meta };
}

/** The item that replaces the step's link in what the host receives, or null when the link stays (allowed, or observe mode). */
export function refusedStepItem(
  step: LinkStep,
  link: unknown,
  refused?: MessageLedger,
): Record<string, unknown> | null {
  return linkRefused(step) ? refusedLinkItem(link, step.linkDecision, recordRef(step.discovered), refused) : null;
}
