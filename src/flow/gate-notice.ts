import type { Decision } from '../decision/decision.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { maskUri } from '../link/mask-uri.ts';
import type { NextStep } from '../record/link-record.ts';

/** Longest notice a front end writes for the model, characters (hosts cap hook output near 10,000). */
export const maxNoticeChars = 1500;

/**
 * One line for the model saying what the gate did and why: the masked uri, each reason code with its message, the
 * policy, and the boundary to check next; every front end words what it withheld, refused or could not finish with it
 * (the hook's answers, the decorator's and the proxy's -32080 errors, withheld embedded resources). Reason messages
 * quote user values already (`quoteValue`).
 */
export function gateNotice(what: string, uri: string, decision: Decision, next: NextStep | null): string {
  const reasons = decision.reasons.map((r) => `${r.code} (${r.message})`).join('; ');
  const policy = `policy \`${decision.policy.id}\` ${decision.policy.version}`;
  const where = next === null ? '' : `; next boundary: ${next.boundary}: ${next.hint}`;
  const text = `linkgate ${what} ${quoteValue(maskUri(uri))}: ${reasons === '' ? decision.effect : reasons} [${policy}]${where}`;
  return text.length > maxNoticeChars ? `${text.slice(0, maxNoticeChars - 1)}…` : text;
}
