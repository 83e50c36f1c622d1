import { deny, reason } from '../decision/deny.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import type { Decision } from '../decision/decision.ts';
import { gateNotice, type NoticeSubject } from '../flow/gate-notice.ts';
import { type HookContext, modeOf } from './hook-context.ts';

/** A cap of the hook's own work per event: the reason code it withholds with, the setting it names, why. */
export interface HookCap {
  code: Extract<
    ReasonCode,
    'content.too-complex' | 'content.too-many-items' | 'content.shape' | 'read.result-type-unknown'
  >;
  rule: string;
  message: string;
}

/**
 * The notice that stands for an item the hook did not judge because one of its caps was hit: the item is withheld,
 * never passed on unjudged and never dropped silently; `what` is the notice's verb and object, `subject` the link it
 * names (by name and scheme, never its uri), null for a whole tool result. Null in observe mode (it withholds nothing).
 */
export function capNotice(
  context: HookContext,
  subject: NoticeSubject | null,
  cap: HookCap,
  what = 'withheld the link',
): string | null {
  if (modeOf(context) === 'observe') return null;
  return gateNotice(what, subject, capDecision(context, cap), null);
}

/** The deny a cap stands for: its reason code, the setting it names and why. */
export function capDecision(context: HookContext, cap: HookCap): Decision {
  return deny(context.gate.policy, reason(cap.code, cap.rule, 'link', cap.message));
}
