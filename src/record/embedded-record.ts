import type { Decision } from '../decision/decision.ts';
import { decisionJson } from '../decision/decision-json.ts';
import { maskUri } from '../link/mask-uri.ts';
import { describeReasons } from './judge-verdict.ts';
import type { NextStep } from './link-record.ts';

/**
 * What became of an embedded resource: a body the tool result carried itself, so nothing was read. `delivered`: it
 * may reach the model whole; `partial`: only its allowed part; `withheld`: the content check denied it.
 */
export type EmbeddedVerdict = 'embedded-delivered' | 'embedded-partial' | 'embedded-withheld';

/** The record of one embedded `resource` item of a tool result: its place, masked uri, content decision and verdict. */
export interface EmbeddedRecord {
  readonly kind: 'embedded';
  /** index of the item in the tool result's `content[]`, 0-based */
  readonly contentIndex: number;
  /** the resource's uri, masked like a link record's; null when it has none */
  readonly uri: string | null;
  readonly mimeType: string | null;
  /** `text` or `blob`: how the body was carried; `none` when it carried neither */
  readonly carrier: 'text' | 'blob' | 'none';
  readonly verdict: EmbeddedVerdict;
  /** null when delivered whole; otherwise where to look */
  readonly next: NextStep | null;
  /** the content decision (the read checks, applied to the embedded body) */
  readonly decision: Decision;
}

/** Builds the record of an embedded resource from its content item and the decision `gate.decideEmbedded` gave it. */
export function embeddedRecord(contentIndex: number, resource: unknown, decision: Decision): EmbeddedRecord {
  const r = (resource !== null && typeof resource === 'object' ? resource : {}) as Record<string, unknown>;
  const verdict: EmbeddedVerdict =
    decision.effect === 'allow'
      ? 'embedded-delivered'
      : decision.effect === 'partial'
        ? 'embedded-partial'
        : 'embedded-withheld';
  const by = describeReasons(decision);
  return {
    kind: 'embedded',
    contentIndex,
    uri: typeof r['uri'] === 'string' ? maskUri(r['uri']) : null,
    mimeType: typeof r['mimeType'] === 'string' ? r['mimeType'] : null,
    carrier: typeof r['text'] === 'string' ? 'text' : typeof r['blob'] === 'string' ? 'blob' : 'none',
    verdict,
    next:
      verdict === 'embedded-delivered'
        ? null
        : verdict === 'embedded-partial'
          ? { boundary: 'context-assembly', hint: `embedded body only partly delivered: ${by}` }
          : { boundary: 'policy', hint: `embedded body withheld by ${by}` },
    decision: decisionJson(decision),
  };
}
