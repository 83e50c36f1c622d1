import { directFetcher, type DirectFetcher, type DirectFetchOptions } from '../fetch/direct-fetcher.ts';
import { judgeReadAnswer } from './read-body-links.ts';
import { fetchesDirectly } from '../fetch/gated-fetch.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../decision/json-value.ts';
import { maskText, type LinkContext } from '../record/build-stages.ts';
import type { LinkRecord, ReceivedStage } from '../record/link-record.ts';
import { abortDeadline } from './abort-deadline.ts';
import { isJsonRpcError } from './json-rpc-shape.ts';
import { linkFacts } from './discover-links.ts';
import { guardGate } from './guard-gate.ts';
import { judgeFetched } from './fetched-read.ts';
import type { InputAnswerer, LinkReader, ReadAnswer, ReadParams } from './link-reader.ts';
import {
  discoverLink,
  type FlowMode,
  type LinkStep,
  readFailed,
  type ReadFailure,
  sendRead,
  skipRead,
  startLink,
  uriReading,
} from './link-steps.ts';
import type { ReadCache } from './read-cache.ts';
import { refusedStepItem } from './refused-link.ts';
import { inputRequestUrls, refusedElicitation } from './elicitation-urls.ts';
import { errorText } from '../decision/error-line.ts';
import { quoteValue } from '../decision/quote-value.ts';

/** Most rounds of answering `input_required` for one link read, when the policy allows answering at all. */
export const maxInputRounds = 3;

/** Everything one link's flow needs. */
export interface LinkFlowOptions {
  gate: Gate;
  /** `resources/read` on the server that returned the link */
  read: LinkReader;
  context: LinkContext;
  mode: FlowMode;
  cache?: ReadCache | undefined;
  /** opaque label of the authorization context, for `private` cache entries */
  authContext?: string | undefined;
  /** the tool result's total budget; once aborted no new read starts and running reads end */
  budget?: AbortSignal | undefined;
  answerInput?: InputAnswerer | undefined;
  /** how links are fetched directly when the policy enables it (`fetch.enabled`); default: OS resolver and trust store, no credentials */
  fetch?: DirectFetchOptions | undefined;
  /** the direct fetcher itself (default: `directFetcher` with `fetch`); tests pass their own */
  fetcher?: DirectFetcher | undefined;
  /** clock (tests pass their own) */
  now?: (() => Date) | undefined;
  /** the server the read goes to, when not the one that returned the link (`context.server`): judged by `links.requireSameServer` */
  readFrom?: string | undefined;
  /** whether the link was returned by a tool before this read, for `hook.requireDiscovered` (omitted: not judged) */
  seen?: boolean | undefined;
  /** the link's first step when the caller started it (`startLinkFlow`: a tool result's links decided side by side) */
  step?: Promise<LinkStep> | undefined;
}

/** One link's record and the contents items delivered for it (raw items, in order). */
export interface LinkFlowResult {
  record: LinkRecord;
  contents: Record<string, unknown>[];
  /** the text item that stands in the link's place when its link decision refused it (enforce mode): `refusedLinkItem` */
  replacedBy?: Record<string, unknown>;
}

/** `runLinkFlow`'s first step, the link decision: for a caller that decides its links side by side before any read. */
export function startLinkFlow(link: unknown, contentIndex: number | null, options: LinkFlowOptions): Promise<LinkStep> {
  const now = options.now ?? (() => new Date());
  const { context } = options;
  const reading = uriReading(link);
  return startLink(guardGate(options.gate), {
    link,
    discovered: discoverLink(link, contentIndex, context, now(), reading),
    reading,
    linkServer: context.server,
    readFrom: options.readFrom ?? context.server,
    mode: options.mode,
    ...(options.seen === undefined ? {} : { seen: options.seen }),
  });
}

/**
 * The whole flow in one call for one `resource_link` item as the server sent it (checked by `startLink`) (DESIGN §1), built from the steps of `link-steps.ts`: decide
 * link → read (`resources/read` through `read`, with the policy's deadline, the budget and the cache; or a gated direct
 * fetch when the policy enables it for the link's scheme) → decide read → deliver → record. Never throws.
 */
export async function runLinkFlow(
  link: unknown,
  contentIndex: number | null,
  options: LinkFlowOptions,
): Promise<LinkFlowResult> {
  const now = options.now ?? (() => new Date());
  const { context } = options;
  const gate = guardGate(options.gate);
  const uri = linkFacts(link).uri;
  const readFrom = options.readFrom ?? context.server;
  const step = await (options.step ?? startLinkFlow(link, contentIndex, options));
  const unread = (why: string): LinkFlowResult => ({ record: skipRead(step, why), contents: [] });

  const replacedBy = refusedStepItem(step, link);
  if (replacedBy !== null) return { ...unread('the link was denied'), replacedBy };
  // even observe mode cannot read a link that has no usable uri
  const checked = step.link;
  if (checked === null || uri === '' || step.linkDecision.reasons.some((r) => r.code === 'input.invalid'))
    return unread('the link is malformed');
  if (fetchesDirectly(gate.policy, uri)) {
    if (options.budget?.aborted === true) return unread("the tool result's time budget ran out before this fetch");
    // the host dereferences the link itself; the fetcher re-decides every hop, so no cache and no resources/read
    const fetch = options.fetcher ?? directFetcher(gate, context.server, options.fetch);
    const requestedAt = now();
    const result = await fetch(checked, uri, options.budget);
    const judged = judgeFetched(gate, step, result, { requestedAt, now, budget: options.budget });
    return { record: judged.record, contents: judged.delivered };
  }

  const cacheKey = {
    server: readFrom,
    uri,
    ...(options.authContext === undefined ? {} : { authContext: options.authContext }),
  };
  const hit = options.cache?.lookup(cacheKey);
  if (hit !== undefined) {
    const cache: ReceivedStage['cache'] = { ageMs: hit.ageMs, ttlMs: hit.ttlMs };
    const judged = await judgeReadAnswer(
      gate,
      step,
      { result: { ...hit.result } },
      { requested: null, elapsedMs: 0, cache, now },
    );
    return { record: judged.record, contents: judged.delivered };
  }
  if (options.budget?.aborted === true) return unread("the tool result's time budget ran out before this read");

  const requested = sendRead(gate, step, now());
  const deadlineMs = requested.deadlineMs;
  const deadline = abortDeadline(deadlineMs, options.budget, 'the read deadline');
  const started = performance.now();
  let answer: ReadAnswer;
  try {
    answer = await readAnsweringInput(options, uri, deadline.signal);
  } catch (error) {
    let failure: ReadFailure;
    if (deadline.timedOut) failure = { kind: 'timeout', deadlineMs };
    else if (isAborted(options.budget)) failure = { kind: 'budget' };
    else {
      // the error's text (a transport's, which may quote the server) is the reason's, quoted: the record's `why`, and
      // so the next hint a notice hands the model, names no server text
      const message = quoteValue(maskText(errorText(error)).toLowerCase());
      const why = 'the read failed before an answer';
      failure = { kind: 'failed', why, message: `${why}: ${message}` };
    }
    return { record: readFailed(gate, step, requested, failure).record, contents: [] };
  } finally {
    deadline.release();
  }
  const elapsedMs = Math.round(performance.now() - started);
  requested.requestId = answer.requestId ?? null;
  // an answer the reader's transport dropped over the connection cap ends this read as every front end words it
  const over = 'error' in answer ? answer.tooLarge : undefined;
  if (over !== undefined && Number.isFinite(over.bytes) && Number.isFinite(over.capBytes)) {
    const failure = { kind: 'too-large', bytes: over.bytes, capBytes: over.capBytes } as const;
    return { record: readFailed(gate, step, requested, failure).record, contents: [] };
  }
  const judged = await judgeReadAnswer(gate, step, answer, { requested, elapsedMs, now });
  if (judged.complete && 'result' in answer) options.cache?.store(cacheKey, answer.result);
  return { record: judged.record, contents: judged.delivered };
}

/** Reads once; answers `input_required` only when the policy allows it and the host gave an answerer. */
async function readAnsweringInput(options: LinkFlowOptions, uri: string, signal: AbortSignal): Promise<ReadAnswer> {
  const allowed = options.gate.policy.document.read.answerInputRequired === true && options.answerInput !== undefined;
  let params: ReadParams = { uri };
  for (let round = 0; ; round++) {
    const answer = readAnswerOf(await options.read(params, signal));
    if (
      !allowed ||
      round >= maxInputRounds ||
      !('result' in answer) ||
      answer.result['resultType'] !== 'input_required'
    )
      return answer;
    const requests = answer.result['inputRequests'];
    // a url the server asks the host to open is a link: a refused one never reaches the answerer, and the read ends
    // on this `input_required` (not final)
    if (
      isRecord(requests) &&
      (await refusedElicitation(
        options.gate,
        options.readFrom ?? options.context.server,
        inputRequestUrls(answer.result),
      )) !== null
    )
      return answer;
    const responses =
      isRecord(requests) && options.answerInput !== undefined ? await options.answerInput(requests) : {};
    params = { uri, inputResponses: responses };
    // requestState is opaque server state: echoed back as received, never recorded
    if (typeof answer.result['requestState'] === 'string') params.requestState = answer.result['requestState'];
  }
}

/** The reader's value when it is a read answer; anything else fails the read (a reader is host code, not trusted to be right). */
function readAnswerOf(value: unknown): ReadAnswer {
  if (isRecord(value)) {
    if (isRecord(value['result'])) return value as ReadAnswer;
    if (isJsonRpcError(value['error'])) return value as ReadAnswer;
  }
  throw new Error('the reader gave no read answer');
}

// a function, so the compiler does not narrow `aborted` from an earlier check: the budget aborts while the read runs
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
