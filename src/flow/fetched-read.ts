import { familyOf, normalizeMime } from '../content/kinds.ts';
import { decodeText } from '../content/text/text-encoding.ts';
import type { FetchResult } from '../fetch/fetch-result.ts';
import { receivedFromFetch, requestedFromFetch } from '../fetch/fetch-stages.ts';
import { overCapRule } from '../fetch/read-final.ts';
import type { Gate } from '../gate/create-gate.ts';
import { deliveredStage } from '../record/build-stages.ts';
import type { ReadOutcome } from '../record/judge-verdict.ts';
import { finish, isEnforced, type LinkStep, type ReadJudgement } from './link-steps.ts';

/** When a direct fetch started, the clock, and the tool result's budget (to tell a budget stop from a failure). */
export interface FetchTiming {
  requestedAt: Date;
  now: () => Date;
  budget?: AbortSignal | undefined;
}

/**
 * The read step for a direct fetch: the fetcher already decided every hop and the body, so this turns its result into
 * the record's stages and the deliverable item; never records a header value, query value or body text.
 */
export function judgeFetched(gate: Gate, step: LinkStep, result: FetchResult, timing: FetchTiming): ReadJudgement {
  const deadlineMs = gate.policy.document.read.readTimeoutMs;
  const requested = requestedFromFetch(result, step.readFrom ?? step.linkServer, deadlineMs, timing.requestedAt);
  const received = receivedFromFetch(result, timing.now());
  const outcome = fetchOutcome(result, timing.budget);
  const { decision } = result;
  const nothing = (): ReadJudgement => ({
    decision,
    record: finish(step, { requested, received, delivered: null }, decision, outcome),
    complete: outcome.kind === 'complete',
    contents: [],
    deliver: [],
    dropped: [],
    delivered: [],
    delivery: 'none',
  });
  if (outcome.kind !== 'complete' || received === null || result.body === undefined) return nothing();

  const itemEffect = decision.items?.[0]?.effect ?? decision.effect;
  const itemReasons = decision.items?.[0]?.reasons ?? decision.reasons;
  // a body cut at the cap is delivered in part; any other `partial` means it cannot be interpreted safely (as for read items)
  const deliverable =
    !isEnforced(step) ||
    itemEffect === 'allow' ||
    (itemEffect === 'partial' && itemReasons.every((r) => r.rule === overCapRule));
  // nothing delivered leaves `delivered` null; the read decision says why
  if (!deliverable) return nothing();
  const uri = step.link?.uri ?? '';
  const item = deliveredItem(uri, result.body, result.contentType, result.evidence[0]?.kind ?? null);
  const delivered = deliveredStage(received, [item], [0], [], timing.now());
  return {
    decision,
    record: finish(step, { requested, received, delivered }, decision, outcome),
    complete: true,
    contents: [item],
    deliver: [0],
    dropped: [],
    delivered: [item],
    delivery: itemEffect === 'allow' ? 'whole' : 'some',
  };
}

/**
 * How a direct fetch ended, in the record's terms (DESIGN §2): the fetcher's own ending; a failure while the tool
 * result's budget has run out is recorded as the budget's.
 */
export function fetchOutcome(result: FetchResult, budget?: AbortSignal): ReadOutcome {
  const { ending } = result;
  if (ending.kind === 'failed' && budget?.aborted === true)
    return { kind: 'failed', why: "the tool result's time budget ran out" };
  return ending;
}

/** A direct fetch's delivered body as an embedded resource's `resource` (MCP text or blob resource contents). */
export type FetchedContents = { uri: string; mimeType?: string } & ({ text: string } | { blob: string });

/** The delivered body: `text` when the checks found inert text that decodes cleanly, else `blob`. */
function deliveredItem(
  uri: string,
  body: Uint8Array,
  contentType: string | null,
  kind: string | null,
): FetchedContents {
  const declared = contentType === null ? {} : { mimeType: normalizeMime(contentType) };
  if (kind !== null && familyOf(kind) === 'text') {
    const decoded = decodeText(body);
    if (decoded !== null && decoded.issues.length === 0) return { uri, ...declared, text: decoded.text };
  }
  return { uri, ...declared, blob: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64') };
}
