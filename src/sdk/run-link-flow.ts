import type { Decision, Reason } from '../decision/decision.ts';
import type { ItemEvidence } from '../gate/decide-read.ts';
import { fetchesDirectly } from '../fetch/gated-fetch.ts';
import type { Gate } from '../gate/create-gate.ts';
import { assembleRecord } from '../record/assemble-record.ts';
import {
  contentsOf,
  deliverableIndices,
  deliveredStage,
  discoveredStage,
  maskText,
  receivedFromError,
  receivedFromResult,
  type LinkContext,
} from '../record/build-stages.ts';
import type { ReadOutcome } from '../record/judge-verdict.ts';
import type { LinkRecord, LinkStages, ReceivedStage, RequestedStage } from '../record/link-record.ts';
import { abortDeadline } from './abort-deadline.ts';
import { linkFacts } from '../flow/discover-links.ts';
import { isRecord, jsonText } from '../json-value.ts';
import { fetchLink, type DirectFetchOptions } from './fetch-link.ts';
import type { ReadCache } from './read-cache.ts';
import { deny, reason } from '../decision/deny.ts';

/** Most rounds of answering `input_required` for one link read, when the policy allows answering at all. */
export const maxInputRounds = 3;

/** A read's answer as it came over the wire: the raw result, or the JSON-RPC error. */
export type ReadAnswer =
  | { result: Record<string, unknown>; requestId?: string | number | null }
  | { error: { code: number; message: string }; requestId?: string | number | null };

/** Sends one `resources/read` to the server that returned the link; must reject promptly once `signal` aborts. */
export type RawReader = (params: Record<string, unknown>, signal: AbortSignal) => Promise<ReadAnswer>;

/** Answers a server's `inputRequests` (used only when the policy sets `read.answerInputRequired`). */
export type InputAnswerer = (inputRequests: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Everything one link's flow needs. */
export interface LinkFlowOptions {
  gate: Gate;
  read: RawReader;
  context: LinkContext;
  /** `observe` computes and records every decision but enforces none */
  mode: 'enforce' | 'observe';
  cache?: ReadCache | undefined;
  /** opaque label of the authorization context, for `private` cache entries */
  authContext?: string | undefined;
  /** the tool result's total budget; once aborted no new read starts and running reads end */
  budget?: AbortSignal | undefined;
  answerInput?: InputAnswerer | undefined;
  /** how links are fetched directly when the policy enables it (`fetch.enabled`); default: OS resolver and trust store, no credentials */
  fetch?: DirectFetchOptions | undefined;
  /** clock (tests pass their own) */
  now?: (() => Date) | undefined;
}

/** One link's record and the contents items delivered for it (raw items, in order). */
export interface LinkFlowResult {
  record: LinkRecord;
  contents: Record<string, unknown>[];
}

/**
 * Runs decide link → read → decide read → deliver → record for one `resource_link` (DESIGN §1); the read is a
 * gated direct fetch instead of `resources/read` when the policy enables it for the link's scheme. Never throws.
 */
export async function runLinkFlow(
  link: Readonly<Record<string, unknown>>,
  contentIndex: number | null,
  options: LinkFlowOptions,
): Promise<LinkFlowResult> {
  const now = options.now ?? (() => new Date());
  const { gate, context } = options;
  const enforced = options.mode === 'enforce';
  const facts = linkFacts(link);
  const discovered = discoveredStage(facts, contentIndex, context, now());
  const stages: LinkStages = { discovered, requested: null, received: null, delivered: null };
  const linkDecision = await gate.decide({ stage: 'link', server: context.server, readFrom: context.server, link });
  const finish = (
    read: Decision | null,
    outcome: ReadOutcome,
    contents: Record<string, unknown>[] = [],
  ): LinkFlowResult => ({
    record: assembleRecord({ stages, decisions: { link: linkDecision, read }, outcome, enforced }),
    contents,
  });

  if (enforced && linkDecision.effect === 'deny')
    return finish(null, { kind: 'not-attempted', why: 'the link was denied' });
  if (facts.uri === '' || linkDecision.reasons.some((r) => r.code === 'input.invalid')) {
    // even observe mode cannot read a link that has no usable uri
    return finish(null, { kind: 'not-attempted', why: 'the link is malformed' });
  }
  if (fetchesDirectly(gate.policy, facts.uri)) {
    if (options.budget?.aborted === true) {
      return finish(null, { kind: 'not-attempted', why: "the tool result's time budget ran out before this fetch" });
    }
    // the host dereferences the link itself; the fetcher re-decides every hop, so no cache and no resources/read
    const fetched = await fetchLink(link, facts.uri, {
      gate,
      server: context.server,
      fetch: options.fetch,
      enforced,
      budget: options.budget,
      now,
    });
    stages.requested = fetched.requested;
    stages.received = fetched.received;
    stages.delivered = fetched.delivered;
    return finish(fetched.decision, fetched.outcome, fetched.contents);
  }
  const deadlineMs = gate.policy.document.read.readTimeoutMs;
  const cacheKey = {
    server: context.server,
    uri: facts.uri,
    ...(options.authContext === undefined ? {} : { authContext: options.authContext }),
  };

  let answer: ReadAnswer;
  let elapsedMs = 0;
  let cacheInfo: ReceivedStage['cache'] = null;
  const hit = options.cache?.lookup(cacheKey);
  if (hit !== undefined) {
    answer = { result: { ...hit.result } };
    cacheInfo = { ageMs: hit.ageMs, ttlMs: hit.ttlMs };
  } else {
    if (options.budget?.aborted === true) {
      return finish(null, { kind: 'not-attempted', why: "the tool result's time budget ran out before this read" });
    }
    const requested: RequestedStage = {
      at: now().toISOString(),
      requestId: null,
      server: context.server,
      deadlineMs,
      transport: 'resources/read',
    };
    stages.requested = requested;
    const deadline = abortDeadline(deadlineMs, options.budget, 'the read deadline');
    const started = performance.now();
    try {
      answer = await readAnsweringInput(options, facts.uri, deadline.signal);
    } catch (error) {
      elapsedMs = Math.round(performance.now() - started);
      if (deadline.timedOut)
        return finish(
          localDeny(gate, 'read.timeout', 'read.readTimeoutMs', `no answer within the \`${deadlineMs}\` ms deadline`),
          { kind: 'timeout', deadlineMs },
        );
      if (isAborted(options.budget)) {
        return finish(
          localDeny(gate, 'read.timeout', 'budgetMs', "the tool result's time budget ran out during the read"),
          { kind: 'failed', why: "the tool result's time budget ran out" },
        );
      }
      const why = `the read failed before an answer: ${maskText(error instanceof Error ? error.message : String(error)).toLowerCase()}`;
      return finish(localDeny(gate, 'read.error', 'read', why), { kind: 'failed', why });
    } finally {
      deadline.release();
    }
    elapsedMs = Math.round(performance.now() - started);
    requested.requestId = answer.requestId ?? null;
  }

  const readInput = (result: Record<string, unknown>) => ({
    stage: 'read',
    server: context.server,
    readFrom: context.server,
    link,
    elapsedMs,
    result,
  });
  if ('error' in answer) {
    stages.received = receivedFromError(answer.error, elapsedMs, now());
    const verdict = await options.gate.decideReadDetailed(readInput({ error: answer.error }));
    return finish(verdict.decision, { kind: 'error', code: answer.error.code });
  }

  const result = answer.result;
  const resultType = result['resultType'] ?? 'complete';
  const { decision, evidence } = await decideResult(gate, readInput(result));
  stages.received = receivedFromResult(result, evidence, elapsedMs, now(), cacheInfo);
  if (resultType === 'input_required') return finish(decision, { kind: 'input-required' });
  if (resultType !== 'complete')
    return finish(decision, { kind: 'result-type-unknown', resultType: jsonText(resultType).slice(0, 40) });
  if (hit === undefined) options.cache?.store(cacheKey, result);

  const contents = contentsOf(result);
  const { deliver, dropped } = enforced
    ? deliverableIndices(decision, contents.length)
    : { deliver: contents.map((_, i) => i), dropped: [] };
  stages.delivered = deliveredStage(stages.received, contents, deliver, dropped, now());
  const delivered = deliver.map((i) => contents[i]).filter(isRecord);
  return finish(decision, { kind: 'complete' }, delivered);
}

async function decideResult(
  gate: Gate,
  input: unknown,
): Promise<{ decision: Decision; evidence: readonly ItemEvidence[] }> {
  const verdict = await gate.decideReadDetailed(input);
  return { decision: verdict.decision, evidence: verdict.evidence };
}

/** Reads once; answers `input_required` only when the policy allows it and the host gave an answerer. */
async function readAnsweringInput(options: LinkFlowOptions, uri: string, signal: AbortSignal): Promise<ReadAnswer> {
  const allowed = options.gate.policy.document.read.answerInputRequired === true && options.answerInput !== undefined;
  let params: Record<string, unknown> = { uri };
  for (let round = 0; ; round++) {
    const answer = await options.read(params, signal);
    if (
      !allowed ||
      round >= maxInputRounds ||
      !('result' in answer) ||
      answer.result['resultType'] !== 'input_required'
    )
      return answer;
    const requests = answer.result['inputRequests'];
    const responses =
      isRecord(requests) && options.answerInput !== undefined ? await options.answerInput(requests) : {};
    params = { uri, inputResponses: responses };
    // requestState is opaque server state: echoed back as received, never recorded
    if (typeof answer.result['requestState'] === 'string') params['requestState'] = answer.result['requestState'];
  }
}

/** A deny the hook observed itself (deadline, broken connection), in the engine's decision shape. */
function localDeny(gate: Gate, code: Reason['code'], rule: string, message: string): Decision {
  return deny(gate.policy, reason(code, rule, 'read', message));
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
