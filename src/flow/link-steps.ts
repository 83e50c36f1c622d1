import type { Decision } from '../decision/decision.ts';
import { deny, reason } from '../decision/deny.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { ReadVerdict } from '../gate/decide-read.ts';
import { checkResourceLink, isResourceLink, type ResourceLink, uriOf } from '../link/resource-link.ts';
import { UriReading } from '../link/reused-url.ts';
import { isRecord, jsonText } from '../decision/json-value.ts';
import { assembleRecord } from '../record/assemble-record.ts';
import {
  contentsOf,
  deliverableIndices,
  deliveredStage,
  discoveredOf,
  type LinkContext,
  receivedFromError,
  receivedFromResult,
} from '../record/build-stages.ts';
import type { ReadOutcome } from '../record/judge-verdict.ts';
import type {
  DeliveredStage,
  DiscoveredStage,
  DroppedItem,
  LinkRecord,
  ReceivedStage,
  RequestedStage,
} from '../record/link-record.ts';
import { decideLinkLine, guardGate } from './guard-gate.ts';
import type { ReadAnswer } from './link-reader.ts';
import { isNotFoundError } from '../read/result-outcome.ts';
import { isoTime } from '../record/iso-time.ts';
import { type ReadBodyItem, type ReadBodyJudge, withBodies, withBodyReasons } from './read-body-decision.ts';

// The one flow as steps (DESIGN §1): startLink (discover, decide link) → skipRead, or sendRead and then judgeRead /
// readFailed (read, decide read, deliver, record). A front end that sees the read happen in pieces (the Transport
// decorator, the proxy built on it, the hook across host events) calls these in order; `runLinkFlow` is the same steps
// in one call. Every step returns the finished record; writing it to a sink is the front end's job.

/** `observe` computes and records every decision but enforces none. */
export type FlowMode = 'enforce' | 'observe';

/** One link after its link decision: plain JSON, so a front end may keep it between events (the hook does). */
export interface LinkStep {
  /** the link as the gate judged it; null for a malformed item (its link decision is `input.invalid`, a deny) */
  link: ResourceLink | null;
  /** the server that returned the link */
  linkServer: string;
  /** the server the read goes to; null for a link judged for the host's own fetcher (no MCP server reads it) */
  readFrom: string | null;
  discovered: DiscoveredStage;
  linkDecision: Decision;
  /** absent means `enforce`, so a step kept by an older version fails closed */
  mode?: FlowMode;
}

/** What `startLink` needs: the link, where it came from and where it would be read. */
export interface StartLinkInput {
  /** the item as the server sent it (or a `ResourceLink`): checked here, the one place the flow types it */
  link: unknown;
  /** the discovered stage, from `discoverLink` (or kept from when a host event saw the link) */
  discovered: DiscoveredStage;
  /** the WHATWG reading of the link's uri `discoverLink` masked it with (`uriReading`): the decision takes it too */
  reading?: UriReading;
  /** the server that returned the link */
  linkServer: string;
  /** the server the read goes to (default `linkServer`); null: the host's own fetcher, no `readFrom` in the decision input */
  readFrom?: string | null;
  /** whether the link was seen in a tool result before this read, for `links.requireDiscovered` (omitted: not judged) */
  seen?: boolean;
  mode?: FlowMode;
}

/** A read that ended without an answer: the deadline, the tool result's budget, or a failure (`why` is recorded). */
export type ReadFailure =
  | { kind: 'timeout'; deadlineMs: number }
  | { kind: 'budget' }
  /** the answer passed the connection's byte cap and was dropped on arrival: `bytes` came, over `capBytes` */
  | { kind: 'too-large'; bytes: number; capBytes: number }
  /** `message` (default `why`) goes into the read decision's reason, `why` into the record's outcome */
  | { kind: 'failed'; why: string; message?: string };

/** What the flow decided about a read: the read decision, the record, and what the front end may pass on. */
export interface ReadJudgement {
  decision: Decision;
  record: LinkRecord;
  /** true when a `complete` result was received and its items judged */
  complete: boolean;
  /** the result's `contents` as received (empty for an error answer) */
  contents: readonly unknown[];
  /** indices into `contents` that may reach the model (all of them in observe mode) */
  deliver: number[];
  dropped: DroppedItem[];
  /** the items that may reach the model, in order: `contents` at `deliver`, or a direct fetch's body as a `resource` */
  delivered: Record<string, unknown>[];
  /**
   * the items of `deliver` that reach the model changed (enforce mode): a JSON body holding a refused link, as its
   * judged JSON (`judgeReadBodies`); `delivered` has them in place. Absent or empty: none changed
   */
  replaced?: ReadonlyMap<number, Record<string, unknown>>;
  /**
   * How a front end that forwards the answer passes it on: `whole` as it came (allowed, observe mode, an error
   * answer, an `input_required` the host may answer), `some` with only the `deliver` items and the decision under
   * `_meta`, `none` replaced by an error naming the decision.
   */
  delivery: 'whole' | 'some' | 'none';
}

/**
 * A WHATWG reading of `link`'s uri for `discoverLink` and the link decision after it (`StartLinkInput.reading`): the uri
 * is parsed once for both, when either needs it.
 */
export function uriReading(link: unknown): UriReading {
  return new UriReading(uriOf(link));
}

/**
 * The discovered stage of `link`, found at `contentIndex` of a tool result (null when the read came without one);
 * `reading`: the reading of its uri the link decision takes too (`uriReading`).
 */
export function discoverLink(
  link: unknown,
  contentIndex: number | null,
  context: LinkContext,
  at: Date,
  reading?: UriReading,
): DiscoveredStage {
  // the facts read off the item as `linkFacts` reads them, with no object made for them (500 links, 500 objects)
  if (!isRecord(link)) return discoveredOf(uriOf(link), undefined, undefined, contentIndex, context, at, reading);
  const mimeType = link['mimeType'];
  const size = link['size'];
  return discoveredOf(
    uriOf(link),
    typeof mimeType === 'string' ? mimeType : undefined,
    typeof size === 'number' ? size : undefined,
    contentIndex,
    context,
    at,
    reading,
  );
}

/** Decides the link before any read; never throws, and a gate that throws or stays silent is a deny (`guardGate`). */
export async function startLink(gate: Gate, input: StartLinkInput): Promise<LinkStep> {
  return startLinkNow(gate, input);
}

/**
 * `startLink`, with the step itself when the gate decides the link at once (`decideLinkLine`), so a tool result's
 * 500 links cost no promise each; the promise of it when the gate answers later.
 */
export function startLinkNow(gate: Gate, input: StartLinkInput): LinkStep | Promise<LinkStep> {
  const readFrom = input.readFrom === undefined ? input.linkServer : input.readFrom;
  // a malformed item still goes to the gate as sent: the gate words its `input.invalid` deny (fail closed)
  const linkDecision = decideLinkLine(gate, linkLine(input, readFrom), input.reading);
  return linkDecision instanceof Promise
    ? linkDecision.then((decision) => linkStep(input, readFrom, decision))
    : linkStep(input, readFrom, linkDecision);
}

// the link-stage line of `input`, made with all its members at once in the order they are read (stage, server,
// readFrom, link, discovered): members added one by one grow the object's store, a spread of an optional one costs a
// link decision's worth of work
function linkLine(input: StartLinkInput, readFrom: string | null): Record<string, unknown> {
  const { linkServer: server, link, seen } = input;
  if (readFrom === null) {
    return seen === undefined ? { stage: 'link', server, link } : { stage: 'link', server, link, discovered: seen };
  }
  return seen === undefined
    ? { stage: 'link', server, readFrom, link }
    : { stage: 'link', server, readFrom, link, discovered: seen };
}

function linkStep(input: StartLinkInput, readFrom: string | null, linkDecision: Decision): LinkStep {
  // the item itself once checked (no result object per link)
  return stepOf(input, isResourceLink(input.link) ? input.link : null, readFrom, linkDecision);
}

// a step with all its members at once, `mode` last when there is one (a step is plain JSON a front end may keep)
function stepOf(
  input: StartLinkInput,
  link: ResourceLink | null,
  readFrom: string | null,
  linkDecision: Decision,
): LinkStep {
  const { linkServer, discovered, mode } = input;
  return mode === undefined
    ? { link, linkServer, readFrom, discovered, linkDecision }
    : { link, linkServer, readFrom, discovered, linkDecision, mode };
}

/**
 * The step of a link a front end's own cap kept from the gate (too many links in one event, a line that splits too
 * many ways): `decision`, a deny naming the cap, stands for its link decision, so it is recorded and refused as any
 * refused link is, never passed on unjudged.
 */
export function cappedLink(input: StartLinkInput, decision: Decision): LinkStep {
  const checked = checkResourceLink(input.link);
  const readFrom = input.readFrom === undefined ? input.linkServer : input.readFrom;
  return stepOf(input, checked.ok ? checked.link : null, readFrom, decision);
}

/** Whether decisions of this step are enforced (not observe mode). */
export function isEnforced(step: LinkStep): boolean {
  return step.mode !== 'observe';
}

/** Whether the link decision stops the read: `deny` in enforce mode. */
export function linkRefused(step: LinkStep): boolean {
  return isEnforced(step) && step.linkDecision.effect === 'deny';
}

/** The record of a link that was not read: refused by its link decision, or `why` (never asked for, out of budget). */
export function skipRead(step: LinkStep, why: string): LinkRecord {
  const outcome: ReadOutcome = { kind: 'not-attempted', why: linkRefused(step) ? 'the link was denied' : why };
  return finish(step, { requested: null, received: null, delivered: null }, null, outcome);
}

/** The requested stage of a `resources/read` sent at `at` to the step's read server, with the policy's deadline. */
export function sendRead(
  gate: Gate,
  step: LinkStep,
  at: Date,
  requestId: string | number | null = null,
): RequestedStage {
  return {
    at: isoTime(at),
    requestId,
    server: step.readFrom ?? step.linkServer,
    deadlineMs: gate.policy.document.read.readTimeoutMs,
    transport: 'resources/read',
  };
}

/** The read decision (deny, fail closed) and record of a read that was sent and ended without an answer. */
export function readFailed(
  gate: Gate,
  step: LinkStep,
  requested: RequestedStage,
  failure: ReadFailure,
): { decision: Decision; record: LinkRecord } {
  let decision: Decision;
  let outcome: ReadOutcome;
  if (failure.kind === 'timeout') {
    const message = `no answer within the \`${failure.deadlineMs}\` ms deadline`;
    decision = deny(gate.policy, reason('read.timeout', 'read.readTimeoutMs', 'read', message));
    outcome = { kind: 'timeout', deadlineMs: failure.deadlineMs };
  } else if (failure.kind === 'budget') {
    const message = "the tool result's time budget ran out during the read";
    decision = deny(gate.policy, reason('read.timeout', 'budgetMs', 'read', message));
    outcome = { kind: 'failed', why: "the tool result's time budget ran out" };
  } else if (failure.kind === 'too-large') {
    const message = `the answer of \`${failure.bytes}\` bytes passed the connection cap of \`${failure.capBytes}\` bytes`;
    decision = deny(gate.policy, reason('content.too-large', 'read.maxBytes', 'read', message));
    outcome = { kind: 'failed', why: 'the answer passed the connection cap and was dropped on arrival' };
  } else {
    decision = deny(gate.policy, reason('read.error', 'read', 'read', failure.message ?? failure.why));
    outcome = { kind: 'failed', why: failure.why };
  }
  const record = finish(step, { requested, received: null, delivered: null }, decision, outcome);
  return { decision, record };
}

/** When and how an answer was received: `requested` is null for an answer served from the cache (`cache` set). */
export interface AnswerTiming {
  requested: RequestedStage | null;
  elapsedMs: number;
  cache?: { ageMs: number; ttlMs: number } | null;
  /** clock for the received and delivered stages */
  now: () => Date;
}

/**
 * Decides a read's answer (a JSON-RPC error or a result of any `resultType`), picks what may be delivered and
 * records all four stages; never throws (the gate fails closed). With `bodies` (`judgeReadAnswer` passes the JSON
 * bodies' link judgement), the items it changed are delivered as judged, those it withholds dropped.
 */
export async function judgeRead(
  gate: Gate,
  step: LinkStep,
  answer: ReadAnswer,
  timing: AnswerTiming,
  bodies?: ReadBodyJudge,
): Promise<ReadJudgement> {
  const enforced = isEnforced(step);
  const { link } = step;
  const guarded = guardGate(gate);
  // a malformed link's answer is judged as its link was: the same `input.invalid` deny. Not an async function: the
  // guarded gate's promise is handed back as it is (an async wrapper would add a promise and two turns of the
  // microtask queue to every read); the guard never throws, and never rejects
  const decideAnswer = (result: Readonly<Record<string, unknown>>): Promise<ReadVerdict> =>
    link === null
      ? Promise.resolve({ decision: step.linkDecision, evidence: [] })
      : guarded.decideReadDetailed({
          stage: 'read',
          server: step.linkServer,
          readFrom: step.readFrom ?? step.linkServer,
          link,
          elapsedMs: timing.elapsedMs,
          result,
        });
  const { requested } = timing;
  if ('error' in answer) {
    const received = receivedFromError(answer.error, timing.elapsedMs, timing.now());
    const { decision } = await decideAnswer({ error: answer.error });
    const record = finish(step, { requested, received, delivered: null }, decision, {
      kind: 'error',
      code: answer.error.code,
      notFound: isNotFoundError(answer.error),
    });
    // an error answer holds no body: it reaches the host as it came
    return { ...nothingDelivered(decision, record), delivery: 'whole' };
  }

  const { result } = answer;
  // the evidence is read only when the record is (`verdictOf` builds it lazily)
  const verdict = await decideAnswer(result);
  const { decision } = verdict;
  // the clock is read when the answer is judged, as the record says; the stages are built when the record is read
  const receivedAt = timing.now();
  const resultType = result['resultType'] ?? 'complete';
  if (resultType !== 'complete') {
    const received = receivedFromResult(result, verdict.evidence, timing.elapsedMs, receivedAt, timing.cache ?? null);
    const outcome: ReadOutcome =
      resultType === 'input_required'
        ? { kind: 'input-required' }
        : { kind: 'result-type-unknown', resultType: jsonText(resultType).slice(0, 40) };
    const record = finish(step, { requested, received, delivered: null }, decision, outcome);
    // the host may answer input itself only when the policy says so; otherwise the read ends here
    const passInput = resultType === 'input_required' && gate.policy.document.read.answerInputRequired === true;
    return { ...nothingDelivered(decision, record), delivery: !enforced || passInput ? 'whole' : 'none' };
  }

  const contents = contentsOf(result);
  const judgedFirst = enforced
    ? deliverableIndices(decision, contents.length)
    : { deliver: contents.map((_, i) => i), dropped: [] };
  // a JSON body's links are judged as links the server that answered returned (`judgeReadBodies`): an item holding a
  // refused one is delivered as its judged JSON, one past the limits withheld, and the read is `partial`
  const judgedBodies =
    bodies === undefined || decision.effect === 'deny' || judgedFirst.deliver.length === 0
      ? new Map<number, ReadBodyItem>()
      : await bodies(contents, judgedFirst.deliver, step.readFrom ?? step.linkServer);
  const judgedVerdict =
    judgedBodies.size === 0
      ? verdict
      : { ...verdict, decision: withBodyReasons(decision, contents.length, judgedBodies) };
  const { deliver, dropped } =
    judgedBodies.size === 0 || !enforced ? judgedFirst : withBodies(judgedFirst, judgedBodies);
  const replaced = new Map<number, Record<string, unknown>>();
  if (enforced) for (const [index, body] of judgedBodies) if (body.kind === 'replaced') replaced.set(index, body.item);
  const deliveredAt = timing.now();
  const allowed = judgedVerdict.decision.effect === 'allow';
  const delivery = !enforced || (deliver.length > 0 && allowed) ? 'whole' : deliver.length === 0 ? 'none' : 'some';
  const parts = { step, requested, result, verdict: judgedVerdict, timing, receivedAt, deliveredAt };
  return new CompleteRead(parts, contents, deliver, dropped, delivery, replaced);
}

// what a complete read's record is built from, when it is read
interface RecordInputs {
  step: LinkStep;
  requested: RequestedStage | null;
  result: Readonly<Record<string, unknown>>;
  verdict: ReadVerdict;
  timing: AnswerTiming;
  receivedAt: Date;
  deliveredAt: Date;
}

/**
 * The judgement of a complete answer: its record (and the stages in it) is built the first time something reads it
 * (a records sink, a notice's `next`), never for a read whose record goes nowhere; `delivered` likewise.
 */
class CompleteRead implements ReadJudgement {
  readonly complete = true;
  readonly decision: Decision;
  #parts: RecordInputs;
  #record: LinkRecord | null = null;
  #delivered: Record<string, unknown>[] | null = null;
  constructor(
    parts: RecordInputs,
    readonly contents: unknown[],
    readonly deliver: number[],
    readonly dropped: DroppedItem[],
    readonly delivery: 'whole' | 'some' | 'none',
    readonly replaced: ReadonlyMap<number, Record<string, unknown>> = new Map(),
  ) {
    this.#parts = parts;
    this.decision = parts.verdict.decision;
  }

  get record(): LinkRecord {
    if (this.#record === null) {
      const { step, requested, result, verdict, timing, receivedAt, deliveredAt } = this.#parts;
      const { elapsedMs, cache } = timing;
      const received = receivedFromResult(result, verdict.evidence, elapsedMs, receivedAt, cache ?? null);
      // a replaced item's characters are those handed on
      const shown = this.replaced.size === 0 ? this.contents : this.contents.map((c, i) => this.replaced.get(i) ?? c);
      const delivered = deliveredStage(received, shown, this.deliver, this.dropped, deliveredAt);
      this.#record = finish(step, { requested, received, delivered }, this.decision, { kind: 'complete' });
    }
    return this.#record;
  }

  get delivered(): Record<string, unknown>[] {
    this.#delivered ??= this.deliver.map((i) => this.replaced.get(i) ?? this.contents[i]).filter(isRecord);
    return this.#delivered;
  }
}

/** The record of a step whose later stages are known; `read` is null when no read decision was made. */
export function finish(
  step: LinkStep,
  stages: { requested: RequestedStage | null; received: ReceivedStage | null; delivered: DeliveredStage | null },
  read: Decision | null,
  outcome: ReadOutcome,
): LinkRecord {
  return assembleRecord({
    stages: { discovered: step.discovered, ...stages },
    decisions: { link: step.linkDecision, read },
    outcome,
    enforced: isEnforced(step),
  });
}

function nothingDelivered(decision: Decision, record: LinkRecord): Omit<ReadJudgement, 'delivery'> {
  return { decision, record, complete: false, contents: [], deliver: [], dropped: [], delivered: [] };
}
