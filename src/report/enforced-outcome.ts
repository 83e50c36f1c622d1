/** How far a record's link got, as a report counts it: verdict, `next`, and the stages reached after discovery. */
export interface CountedOutcome {
  verdict: 'body-obtained' | 'partially-interpreted' | 'link-only' | 'unverifiable';
  next: { boundary: string; hint: string } | null;
  requested: boolean;
  received: boolean;
  delivered: boolean;
}

/** A decision as the report reads it: its effect and its reasons as `` `rule` (code) `` pairs, joined. */
export interface DecisionSummary {
  effect: string;
  described: string;
}

/**
 * What enforcing would have done with an observe-mode record (DESIGN §2 verdicts): observe mode reads and delivers
 * everything, so the record's own verdict says what happened; the decisions say what the gate would have stopped.
 * A denied link would not have been read, a denied read not delivered, a partial one delivered in part; a read that
 * failed stays `unverifiable` (enforcing would have failed it too).
 */
export function wouldBeEnforced(
  recorded: CountedOutcome,
  link: DecisionSummary,
  read: DecisionSummary | null,
): CountedOutcome {
  if (link.effect === 'deny')
    return {
      verdict: 'link-only',
      next: { boundary: 'policy', hint: `would not be delivered: the link would be denied by ${link.described}` },
      requested: false,
      received: false,
      delivered: false,
    };
  if (recorded.verdict === 'unverifiable' || read === null) return recorded;
  if (read.effect === 'deny')
    return {
      ...recorded,
      verdict: 'link-only',
      next: { boundary: 'policy', hint: `would not be delivered: the read would be denied by ${read.described}` },
      delivered: false,
    };
  if (read.effect === 'partial' && recorded.verdict === 'body-obtained')
    return {
      ...recorded,
      verdict: 'partially-interpreted',
      next: { boundary: 'context-assembly', hint: `would be delivered in part: ${read.described}` },
    };
  return recorded;
}

// the catalogue's hints are worded for enforce mode; in observe mode nothing was withheld, so they say what would be
const observeWording: readonly [RegExp, string][] = [
  [/\bare never delivered\b/g, 'would not be delivered (observe mode delivered them)'],
  [/\bare never allowed\b/g, 'would never be allowed'],
  [/\bis denied on purpose\b/g, 'would be denied on purpose'],
  [/\bare denied on purpose\b/g, 'would be denied on purpose'],
  [/\bit was withheld\b/g, 'it would be withheld'],
];

/** A reason code's `checkNext` or `means` hint reworded for observe mode: what enforcing would have done, not what was done. */
export function observeHint(text: string): string {
  return observeWording.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}
