import { familyOf, normalizeMime } from '../content/kinds.ts';
import { decodeText } from '../content/text/text-encoding.ts';
import type { FetchResult } from '../fetch/fetch-result.ts';
import { receivedFromFetch, requestedFromFetch } from '../fetch/fetch-stages.ts';
import { overCapRule } from '../fetch/gated-fetch.ts';
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
  const outcome = fetchOutcome(
    result,
    gate.policy.document.fetch?.connectTimeoutMs ?? deadlineMs,
    deadlineMs,
    timing.budget,
  );
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

/** How a direct fetch ended, in the record's terms (DESIGN §2): refused by the policy, failed, timed out, or a checked body. */
export function fetchOutcome(
  result: FetchResult,
  connectTimeoutMs: number,
  readTimeoutMs: number,
  budget?: AbortSignal,
): ReadOutcome {
  // the content checks ran on a body: the decision says what may be delivered
  if (result.evidence.length > 0) return { kind: 'complete' };
  const reasons = result.decision.reasons;
  const codes = new Set(reasons.map((r) => r.code));
  const first = reasons[0];
  if (codes.has('engine.error') || codes.has('input.invalid'))
    return { kind: 'failed', why: first?.message ?? 'the fetch failed' };
  const last = result.hops.at(-1);
  if (last !== undefined && last.status === null && last.address === null)
    return { kind: 'refused', hop: result.hops.length };
  if (codes.has('fetch.too-many-redirects')) return { kind: 'refused', hop: result.hops.length + 1 };
  if (codes.has('read.timeout')) {
    return {
      kind: 'timeout',
      deadlineMs: reasons.some((r) => r.rule === 'fetch.connectTimeoutMs') ? connectTimeoutMs : readTimeoutMs,
    };
  }
  if (budget?.aborted === true) return { kind: 'failed', why: "the tool result's time budget ran out" };
  if (result.status !== null && (result.status < 200 || result.status > 299))
    return { kind: 'http-error', status: result.status };
  // a body refused whole for its size (declared or counted) was received and denied: the decision names the cap
  if (codes.has('content.too-large')) return { kind: 'complete' };
  return { kind: 'failed', why: first?.message ?? 'the fetch failed' };
}

/** The delivered body as an embedded resource's `resource`: `text` when the checks found inert text that decodes cleanly, else `blob`. */
function deliveredItem(
  uri: string,
  body: Uint8Array,
  contentType: string | null,
  kind: string | null,
): Record<string, unknown> {
  const item: Record<string, unknown> = { uri };
  if (contentType !== null) item['mimeType'] = normalizeMime(contentType);
  if (kind !== null && familyOf(kind) === 'text') {
    const decoded = decodeText(body);
    if (decoded !== null && decoded.issues.length === 0) {
      item['text'] = decoded.text;
      return item;
    }
  }
  item['blob'] = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64');
  return item;
}
