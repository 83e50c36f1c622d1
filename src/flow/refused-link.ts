import type { Decision } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { uriOf } from '../link/resource-link.ts';
import { linkDeniedNext } from '../record/judge-verdict.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { gateNotice } from './gate-notice.ts';
import { type LinkStep, linkRefused } from './link-steps.ts';

// A `resource_link` refused by its link decision is not handed on as a link: any party that sees a link may read it
// (a framework's auto-read, a provider's url fetch, the host's own read tool asked again by the model). In enforce mode
// every front end puts this text item in its place; observe mode keeps the link and records the would-deny.

/** The one line that stands where a refused link was: its name and masked uri, and why (the flow's `gateNotice`). */
export function refusedLinkNotice(link: unknown, decision: Decision): string {
  const name = isRecord(link) && typeof link['name'] === 'string' ? link['name'] : '';
  return gateNotice(`refused the link ${quoteValue(name)} at`, uriOf(link), decision, linkDeniedNext(decision));
}

/** The text item that replaces a `resource_link` whose link decision is `decision` (a deny): the notice, the decision under `_meta`. */
export function refusedLinkItem(link: unknown, decision: Decision): Record<string, unknown> {
  return { type: 'text', text: refusedLinkNotice(link, decision), _meta: { [decisionMetaKey]: decision } };
}

/** The item that replaces the step's link in what the host receives, or null when the link stays (allowed, or observe mode). */
export function refusedStepItem(step: LinkStep, link: unknown): Record<string, unknown> | null {
  return linkRefused(step) ? refusedLinkItem(link, step.linkDecision) : null;
}
