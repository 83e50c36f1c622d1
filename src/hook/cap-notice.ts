import { deny, reason } from '../decision/deny.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import { gateNotice } from '../flow/gate-notice.ts';
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

const maxShownUriChars = 200;

/**
 * The notice that stands for an item the hook did not judge because one of its caps was hit: the item is withheld,
 * never passed on unjudged and never dropped silently; `what` is the notice's verb and object (`uri` names it). Null
 * in observe mode (it withholds nothing).
 */
export function capNotice(context: HookContext, uri: string, cap: HookCap, what = 'withheld'): string | null {
  if (modeOf(context) === 'observe') return null;
  // the uri of a line built to be long would push the reason out of the notice's length
  const shown = uri.length > maxShownUriChars ? `${uri.slice(0, maxShownUriChars)}…` : uri;
  return gateNotice(what, shown, deny(context.gate.policy, reason(cap.code, cap.rule, 'link', cap.message)), null);
}
