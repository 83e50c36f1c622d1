import type { JsonRpcMessage as JSONRPCMessage, McpTransport as Transport, MessageExtraInfo } from './mcp-transport.ts';
import {
  discoverLink,
  type FlowMode,
  type LinkStep,
  skipRead,
  type StartLinkInput,
  startLinkNow,
  uriReading,
} from '../flow/link-steps.ts';
import { guardGate, minJudgementMs } from '../flow/guard-gate.ts';
import { checkMode } from '../flow/mode-option.ts';
import type { CacheKey, ReadCache } from '../flow/read-cache.ts';
import type { Gate } from '../gate/create-gate.ts';
import { type DiscoveredRecord, discoveredRecord } from '../record/discovered-record.ts';
import {
  checkOnRecordError,
  type OnRecordError,
  recordErrorWithholds,
  recordWithheldError,
  sinkWrite,
} from '../record/record-error.ts';
import type { LinkContext } from '../record/build-stages.ts';
import {
  elicitationRecord,
  elicitationSteps,
  type RefusedElicitation,
  refusedElicitationStep,
  type UrlElicitation,
} from '../flow/elicitation-urls.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { FrontEnd, LinkRecord, PeerInfo } from '../record/link-record.ts';
import { telemetrySink } from '../record/link-telemetry.ts';
import type { RecordSink } from '../record/record-sink.ts';
import type { Policy } from '../policy/policy.ts';
import { isJsonRpcId, type JsonRpcId } from '../flow/json-rpc-shape.ts';
import { isRecord } from '../decision/json-value.ts';
import type { FoundLink } from './found-links.ts';
import type { BatchMember, BatchRefusals } from './batch-refusals.ts';
import { RefusedAddresses } from './refused-addresses.ts';
import { connectionByteCap } from './connection-byte-cap.ts';
import type { EarlyItems } from './early-items.ts';
import { RefusalsNoted } from './refusals-noted.ts';
import { FoundLinks } from './found-links.ts';
import { couldNotJudge, gateError, type RefusedReadAnswer } from './gate-answers.ts';
import { ReadsInFlight } from './reads-in-flight.ts';
import { RecordsDeadline } from './records-deadline.ts';
import { RequestsInFlight } from './requests-in-flight.ts';
import { errorLine, isError } from '../decision/error-line.ts';

/** The hint of a discovery record: the link was listed, and no read of it had been asked for yet. */
const notReadYet = 'listed in a tool result passed on to the host; no read of it was recorded after';

/** Most link decisions of one tool result made at once when the policy resolves names (each waits on a lookup). */
export const maxDecidingLinks = 16;

/** Options of the transport decorator. */
export interface GateTransportOptions {
  gate: Gate;
  /** the host's id for this connection (a local label), default `default` */
  server?: string;
  /** `observe` records every decision with `wouldDeny` and enforces none; default `enforce` */
  mode?: 'enforce' | 'observe';
  sink?: RecordSink;
  cache?: ReadCache;
  /** opaque label of the authorization context, for `private` cache entries */
  authContext?: string;
  /** clock (tests pass their own) */
  now?: () => Date;
  /**
   * the refused addresses this connection's later messages are searched for, and where its own refusals are kept: one
   * given to every connection of an agent (as `gatedLinks` does) makes each search for what any of them refused;
   * default: this connection's own
   */
  refused?: RefusedAddresses;
  /**
   * whether this transport judges the embedded resources of tool results, prompt results and server requests (default
   * true); false when the caller judges them itself (the proxy, which splices its changes into the original bytes)
   */
  judgeEmbedded?: boolean;
  /**
   * with `judgeEmbedded: false`: the link step of each `resource_link` of a tool result, by its `content` index (each
   * decided once, the decision its records carry), handed over just before that result is passed on, so a caller
   * that edits the items itself (the proxy) decides none of them again
   */
  onToolResultSteps?: (answerId: JsonRpcId, steps: ReadonlyMap<number, LinkStep>) => void;
  /**
   * with `judgeEmbedded: false`, enforce mode: what the decorator judged of the items of a tool result with links or
   * a prompt result (`answer`, by the host's id), or of a sampling request (`request`, by the server's id), handed over
   * just before it is passed on: its links' steps, and the judgements of its embedded resources, started as it was
   * taken (beside the links' decisions), so a caller that judges the items itself (the proxy) starts none again and a
   * silent gate costs one deadline per message (`early-items.ts`)
   */
  onEarlyItems?: (kind: 'answer' | 'request', id: JsonRpcId, early: EarlyItems) => void;
  /**
   * told, as the decorator takes a message of the server that it passes on only once judged (an answer, or the
   * server's own request), that it holds it; the function returned is called once the decorator is done with it (what
   * it passed on for it, if anything, went to `onmessage` first): a front end that keeps the server's order (the
   * proxy) keeps that message's place in between
   */
  onHeld?: (kind: HeldKind, id: JsonRpcId | null) => () => void;
  /**
   * how a read the gate refused, could not finish, or the server failed is answered (enforce mode): `error`, a -32080
   * JSON-RPC error (default; a server's own error passes as it came), or `notice`, a result whose one item is the
   * notice as text, for consumers that read many links at once and fail them all on one error (LangChain's
   * `outputHandling: { resource_link: 'artifact' }`)
   */
  refusedReads?: RefusedReadAnswer;
  /** the front end records name (`stages.discovered.frontEnd`), default `decorator`; `linkgate proxy` sets `proxy` */
  frontEnd?: FrontEnd;
  /**
   * enforce mode, when a record cannot be written: `withhold` (default) answers the read or tool result with the
   * failure instead of passing it on; `report` passes it on. Either way the failure goes to `onerror`.
   */
  onRecordError?: OnRecordError;
}

/**
 * What a held message of the server is: an answer to a request of the host, a request of the server's own, or a
 * notification (or a batch passing whole: id null) held until the refusals before it are noted.
 */
export type HeldKind = 'answer' | 'request' | 'notification';

/** Where the decorator passes messages and errors on: the host's side of the wrapper. */
export type HostSide = Pick<Transport, 'onmessage' | 'onerror'>;

/**
 * The state of one gated connection: its per-id maps (requests and reads in flight, links found), the records it
 * writes in order and the judging work it runs, so `flush` can wait for all of it.
 */
export class TransportSession {
  readonly gate: Gate;
  readonly server: string;
  readonly mode: FlowMode;
  readonly now: () => Date;
  /** how long one records write may take before it counts as failed, milliseconds */
  readonly sinkDeadlineMs: number;
  /** the policy's read deadline, milliseconds */
  readonly deadlineMs: number;
  readonly judgeItems: boolean;
  readonly onToolResultSteps: GateTransportOptions['onToolResultSteps'];
  readonly onEarlyItems: GateTransportOptions['onEarlyItems'];
  private readonly onHeld: GateTransportOptions['onHeld'];
  readonly frontEnd: FrontEnd;
  readonly refusedReads: RefusedReadAnswer;
  readonly cache: ReadCache | undefined;
  readonly requests = new RequestsInFlight();
  readonly reads = new ReadsInFlight();
  readonly found = new FoundLinks();
  /** the addresses of this session's refused links, which its log and progress notifications may not name */
  readonly refused: RefusedAddresses;
  /** the refusals still being noted: what is searched for refused addresses waits for them, in order */
  readonly noted = new RefusalsNoted();
  /** the server batch being taken apart (its tool results search for what the others refused), else null */
  batch: BatchRefusals | null = null;
  /** the members of server batches the decorator is still routing, by answer id (the caller takes one: `memberOf`) */
  readonly batchMembers = new Map<JsonRpcId, BatchMember>();
  // the place a message held until the refusals were noted kept, for the hold its route starts (not a second place)
  private ahead: (() => void) | undefined;
  protocolVersion: string | null = null;
  serverInfo: PeerInfo | null = null;
  /** the last records failure, for the answer that withholds what it recorded */
  recordError: unknown = null;
  readonly onRecordError: OnRecordError | undefined;
  private readonly sink: RecordSink;
  // where discovery records go: the sink's `writeDiscovered`, or its `write` when it keeps link records only (never the
  // telemetry wrapper's: a discovery record is no finished link, so it emits no span)
  private readonly discoveries: ((records: readonly DiscoveredRecord[]) => Promise<void>) | undefined;
  private readonly authContext: string | undefined;
  // records are written one after another, so a sink sees them in order; answers never wait for other answers
  private recordsWritten: Promise<void> = Promise.resolve();
  // the deadline of the write in progress on that chain: one timer for all of them, not one per record
  private readonly deadline: RecordsDeadline;
  // how many pieces of work started for messages the gate judges (and records of unread links) are still running, and
  // who waits for none to be (`settle`): a count, not a set of their promises (one promise per piece, not three)
  private working = 0;
  private idle: (() => void)[] = [];

  constructor(
    readonly inner: Transport,
    options: GateTransportOptions,
    private readonly host: HostSide,
  ) {
    // every judgement fails closed within the gate's own deadline, whatever gate the host passed
    this.gate = guardGate(options.gate);
    this.server = options.server ?? 'default';
    this.mode = checkMode(options.mode);
    this.now = options.now ?? (() => new Date());
    this.deadlineMs = options.gate.policy.document.read.readTimeoutMs;
    this.refused = options.refused ?? new RefusedAddresses(connectionByteCap(options.gate.policy));
    this.sinkDeadlineMs = Math.max(this.deadlineMs, minJudgementMs);
    this.deadline = new RecordsDeadline(this.sinkDeadlineMs);
    this.judgeItems = options.judgeEmbedded !== false;
    this.onToolResultSteps = options.onToolResultSteps;
    this.onEarlyItems = options.onEarlyItems;
    this.onHeld = options.onHeld;
    this.onRecordError = checkOnRecordError(options.onRecordError);
    this.frontEnd = options.frontEnd ?? 'decorator';
    this.refusedReads = options.refusedReads === 'notice' ? 'notice' : 'error';
    this.cache = options.cache;
    this.authContext = options.authContext;
    this.sink = telemetrySink(options.sink, { sessionId: () => inner.sessionId });
    this.discoveries = discoveriesOf(options.sink);
  }

  /** Passes a message on to the host. */
  deliver(message: unknown, extra?: MessageExtraInfo): void {
    this.host.onmessage?.(message as JSONRPCMessage, extra);
    // an answer ends its request's wait (one table from the host's request to its answer: `requests`)
    if (isRecord(message) && !('method' in message) && isJsonRpcId(message['id']))
      this.requests.delivered(message['id']);
  }

  /**
   * Answers the host's request `id` with the gate's -32080 error for a fault on the way out: its `what` (`answer`, or
   * `cached answer`) could not be passed on as judged, so none of it is (the host is never left waiting).
   */
  answerGateFault(id: JsonRpcId, error: unknown, extra?: MessageExtraInfo, what = 'answer'): void {
    this.deliver(gateError(id, `linkgate: the ${what} could not be passed on as judged: ${errorLine(error)}`), extra);
  }

  /** Reports an error to the host's `onerror`. */
  fail(error: unknown): void {
    this.host.onerror?.(isError(error) ? error : new Error(errorLine(error), { cause: error }));
  }

  /** Writes a link record after every record before it; a sink's failure goes to `onerror`. */
  async emit(record: LinkRecord): Promise<void> {
    await this.emitChecked(record);
  }

  /**
   * Writes a link record after every record before it; resolves true once written, false when the sink failed (the
   * failure goes to `onerror`): the caller withholds what the record is about when `withholdsOnRecordError`.
   */
  emitChecked(record: LinkRecord): Promise<boolean> {
    // a sink that never answers fails like one that throws, within the gate's judgement deadline
    return this.written(() => this.deadline.run(() => this.sink.write(record)));
  }

  /**
   * Writes the discovery record of each link a tool result lists (after every record before them), before the result
   * is passed on: a process killed later still leaves a record of every link the host was shown, and a sink that
   * fails withholds the result (`onRecordError`). A sink without `writeDiscovered` gets them through `write` (as the
   * in-process hooks' ledger writes them). Resolves as `emitChecked`; true at once when there is no sink.
   */
  emitDiscovered(found: readonly FoundLink[], decided?: readonly LinkStep[]): Promise<boolean> {
    const write = this.discoveries;
    if (found.length === 0 || write === undefined) return this.recordsWritten.then(() => true);
    // `decided`: the steps of `found` the caller already has (`stepsOf`), not asked for again
    const steps = decided ?? this.stepsOf(found);
    return this.written(async () => {
      const records = (await steps).map((step) => discoveredRecord(skipRead(step, notReadYet)));
      await this.deadline.run(() => write(records));
    });
  }

  /** Whether a records failure withholds what the record is about: enforce mode with `onRecordError: 'withhold'`. */
  get withholdsOnRecordError(): boolean {
    return recordErrorWithholds(this.mode, this.onRecordError);
  }

  /** Waits until the sink stored every record written so far (a sink without `flush` stores on `write`); a failure goes to `onerror`. */
  async flushSink(): Promise<void> {
    try {
      await this.sink.flush?.();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Writes the records of judged embedded resources; resolves as `emitChecked`. */
  async emitEmbedded(records: readonly EmbeddedRecord[]): Promise<boolean> {
    try {
      for (const record of records) await sinkWrite(() => this.sink.writeEmbedded?.(record), this.sinkDeadlineMs);
      return true;
    } catch (error) {
      this.recordError = error;
      this.fail(error);
      return false;
    }
  }

  // one write on the records chain: in order after every write before it; a failure is kept and goes to `onerror`
  private written(write: () => Promise<void>): Promise<boolean> {
    const done = this.recordsWritten.then(async () => {
      try {
        await write();
        return true;
      } catch (error) {
        this.recordError = error;
        this.fail(error);
        return false;
      }
    });
    this.recordsWritten = done.then(() => {});
    return done;
  }

  /** Runs one piece of judging work: a message the gate does not judge never waits behind it. */
  queue(work: () => Promise<void>): void {
    this.working += 1;
    void this.run(work, undefined);
  }

  // one piece of work: `release` (if any) once it settled, then its failure to `onerror`, then it no longer counts
  private async run(work: () => Promise<void>, release: (() => void) | undefined): Promise<void> {
    let failure: { error: unknown } | null = null;
    try {
      await work();
    } catch (error) {
      failure = { error };
    }
    try {
      release?.();
    } catch (error) {
      failure ??= { error };
    }
    try {
      if (failure !== null) this.fail(failure.error);
    } finally {
      this.working -= 1;
      if (this.working === 0 && this.idle.length > 0) {
        const waiting = this.idle;
        this.idle = [];
        for (const resume of waiting) resume();
      }
    }
  }

  /**
   * Runs the judging work of the server's message `id` (an answer or the server's own request), which is passed on
   * only by that work: the front end hears it held now (`onHeld`), and released once the work is done.
   */
  hold(kind: HeldKind, id: JsonRpcId | null, work: () => Promise<void>): void {
    const ahead = this.ahead;
    this.ahead = undefined;
    const release = ahead ?? (id === null ? undefined : this.onHeld?.(kind, id));
    this.working += 1;
    void this.run(work, release);
  }

  /**
   * Routes the server's message (`kind`, `id`) once no refusal is still being noted and everything that waited before
   * it was routed (at once when none): the front end hears it held meanwhile (`onHeld`), and released once routed
   * (unless its route holds it on: `hold` keeps that place).
   */
  afterNoted(kind: HeldKind, id: JsonRpcId | null, route: () => void): void {
    if (!this.noted.busy) return this.routeOrFail(kind, id, route);
    const release = this.onHeld?.(kind, id);
    this.noted.after(() => {
      this.ahead = release;
      try {
        this.routeOrFail(kind, id, route);
      } finally {
        const left = this.ahead;
        this.ahead = undefined;
        left?.();
      }
    });
  }

  // routes the server's message (`kind`, `id`); when routing throws, the server's request gets the gate's error at once
  // (it is not handed on: nothing unjudged reaches the host, and the server is never left waiting) and the fault goes
  // to `onerror`; a notification has no one to answer
  private routeOrFail(kind: HeldKind, id: JsonRpcId | null, route: () => void): void {
    try {
      route();
    } catch (error) {
      if (kind === 'request' && id !== null)
        this.inner.send(gateError(id, couldNotJudge(error)) as never).catch((e: unknown) => this.fail(e));
      this.fail(error);
    }
  }

  /** Waits for all judging work started so far, and every record it wrote. */
  async settle(): Promise<void> {
    while (this.working > 0)
      await new Promise<void>((resume) => {
        this.idle.push(resume);
      });
    await this.recordsWritten;
  }

  /**
   * The link step of a found link, decided once and kept on it (the ledger): its discovery record, the judged result,
   * a later read and the close all use that one decision. Decided again only when the policy changed, its review
   * expired since, or `fresh` (a read under a policy that resolves names: an address may have changed).
   */
  stepOf(f: FoundLink, fresh = false, reviewExpired = reviewHasExpired(this.gate.policy)): Promise<LinkStep> {
    return Promise.resolve(this.stepNow(f, fresh, reviewExpired));
  }

  /** `stepOf`'s step itself when the gate decided at once (a read that needs nothing asynchronous), else its promise. */
  stepNow(
    f: FoundLink,
    fresh = false,
    reviewExpired = reviewHasExpired(this.gate.policy),
  ): LinkStep | Promise<LinkStep> {
    const { policy } = this.gate;
    const d = f.decided;
    if (!fresh && d !== undefined && f.decidedUnder === policy && f.decidedExpired === reviewExpired) return d;
    const step = this.startStep(f);
    f.decided = step;
    f.decidedUnder = policy;
    f.decidedExpired = reviewExpired;
    return step;
  }

  /**
   * Whether what the server sends is searched for the addresses of refused links: in enforce mode, once an address
   * was refused or while refusals are still being noted (one noted before the message came may still be refused).
   */
  get searchesRefused(): boolean {
    return this.mode === 'enforce' && (this.refused.size > 0 || this.noted.busy);
  }

  /**
   * Whether a link record written now would go nowhere (no sink, no telemetry provider: `keepsRecords`): nothing need
   * wait on its write.
   */
  get keepsNoRecords(): boolean {
    return this.sink.keepsRecords?.() === false;
  }

  /**
   * The steps of `found` (`stepOf`, in order): side by side, so a gate that stays silent costs one deadline per
   * message, not one per link; when the policy resolves names, at most `maxDecidingLinks` at once.
   */
  async stepsOf(found: readonly FoundLink[]): Promise<LinkStep[]> {
    if (this.gate.policy.document.links.resolveNames !== true) {
      // one reading of the clock for the review's expiry, not one per link
      const reviewExpired = reviewHasExpired(this.gate.policy);
      const steps = new Array<LinkStep | Promise<LinkStep>>(found.length);
      // a gate that decides at once (the usual one) gives the steps themselves: no promise per link to wait on
      let later = false;
      for (let i = 0; i < found.length; i += 1) {
        const step = this.stepNow(found[i] as FoundLink, false, reviewExpired);
        steps[i] = step;
        if (step instanceof Promise) later = true;
      }
      if (!later) return steps as LinkStep[];
      // the steps just started are kept on each link (`decided`): asked again, they are those, not new decisions
      return Promise.all(found.map((f) => this.stepOf(f, false, reviewExpired)));
    }
    const steps: LinkStep[] = new Array<LinkStep>(found.length);
    let next = 0;
    const worker = async () => {
      while (next < found.length) {
        const at = next;
        next += 1;
        steps[at] = await this.stepOf(found[at] as FoundLink);
      }
    };
    await Promise.all(Array.from({ length: Math.min(maxDecidingLinks, found.length) }, worker));
    return steps;
  }

  /** Whether the items of the messages it hands on are judged by the caller, which takes `onEarlyItems` (enforce mode). */
  get handsEarlyItems(): boolean {
    return this.onEarlyItems !== undefined && this.mode === 'enforce' && !this.judgeItems;
  }

  /** The flow's link decision for a found link, with the connection's context (a new decision: see `stepOf`). */
  private startStep(f: FoundLink): LinkStep | Promise<LinkStep> {
    const reading = uriReading(f.link);
    const discovered = discoverLink(f.link, f.contentIndex, this.context(f.tool, f.responseId), f.at, reading);
    // one start input refilled link after link (a tool result's 500 links, one object): the step copies what it keeps
    // of it when the gate decided at once; one handed to a decision that answers later stays that decision's
    let input = this.spareInput;
    this.spareInput = undefined;
    if (input === undefined) input = { link: f.link, discovered, reading, linkServer: this.server, mode: this.mode };
    else {
      input.link = f.link;
      input.discovered = discovered;
      input.reading = reading;
    }
    const step = startLinkNow(this.gate, input);
    if (!(step instanceof Promise)) this.spareInput = input;
    return step;
  }
  private spareInput: Omit<Required<StartLinkInput>, 'readFrom' | 'seen'> | undefined;

  /**
   * Judges the urls of URL-mode elicitations a message of the server carries (`tool`'s answer or the server's own
   * request `responseId`) and writes each url's record before the message goes anywhere, a url refused for its address
   * noted as a refused link's: the first refused url (enforce mode), or null. Throws `RecordWithheldError` when a record could not be written and that withholds.
   */
  async judgeElicitations(
    urls: readonly UrlElicitation[],
    tool: string | null,
    responseId: JsonRpcId | null,
  ): Promise<RefusedElicitation | null> {
    const source = { context: this.context(tool, responseId), at: this.now(), mode: this.mode };
    // a refused url is noted like a refused link: what the server sends meanwhile waits for it
    const noted = this.noted.start();
    let steps: LinkStep[];
    try {
      steps = await elicitationSteps(this.gate, urls, source);
      this.refused.note(steps);
    } finally {
      noted();
    }
    const written = await Promise.all(steps.map((step) => this.emitChecked(elicitationRecord(step))));
    const refused = refusedElicitationStep(steps);
    if (refused === null && written.includes(false) && this.withholdsOnRecordError)
      throw recordWithheldError(this.recordError);
    return refused;
  }

  // where this connection's links are found: the context of their discovered stage (the last one again while nothing
  // in it changed: the links of one result share it, not one object each)
  private context(tool: string | null, responseId: JsonRpcId | null): LinkContext {
    const c = this.lastContext;
    if (
      c?.tool === tool &&
      c.responseId === responseId &&
      c.protocolVersion === this.protocolVersion &&
      c.client === this.requests.client &&
      c.serverInfo === this.serverInfo
    )
      return c;
    this.lastContext = {
      server: this.server,
      tool,
      responseId,
      protocolVersion: this.protocolVersion,
      client: this.requests.client,
      serverInfo: this.serverInfo,
      frontEnd: this.frontEnd,
    };
    return this.lastContext;
  }
  private lastContext: LinkContext | undefined;

  /**
   * Records found links that were never read as `link-only`, in order, as one write on the records chain (one
   * deadline for all of them, not a timer and a chain link each; one `writeMany` when the sink has it: a file's one
   * `write(2)`); every record is tried, the first failure goes to `onerror`.
   */
  async recordUnread(found: readonly FoundLink[], why: string): Promise<void> {
    // no record built where none would go (no sink, no telemetry): links pushed out of a full memory cost nothing
    if (found.length === 0 || this.sink.keepsRecords?.() === false) return;
    const records = (await this.stepsOf(found)).map((step) => skipRead(step, why));
    const many = this.sink.writeMany?.bind(this.sink);
    if (many !== undefined) {
      await this.written(() => this.deadline.run(() => many(records)));
      return;
    }
    await this.written(() =>
      this.deadline.run(async () => {
        let failed: { error: unknown } | null = null;
        for (const record of records)
          try {
            await this.sink.write(record);
          } catch (error) {
            failed ??= { error };
          }
        if (failed !== null) throw failed.error;
      }),
    );
  }

  /** The read cache's key of `uri` on this connection. */
  cacheKey(uri: string): CacheKey {
    return {
      server: this.server,
      uri,
      ...(this.authContext === undefined ? {} : { authContext: this.authContext }),
    };
  }
}

// the discovery records' way into `sink`: its `writeDiscovered`, else its `writeMany` or `write` (one record after the
// other, each tried, the first failure rethrown); none without a sink
function discoveriesOf(
  sink: RecordSink | undefined,
): ((records: readonly DiscoveredRecord[]) => Promise<void>) | undefined {
  if (sink === undefined) return undefined;
  if (sink.writeDiscovered !== undefined) return sink.writeDiscovered.bind(sink);
  if (sink.writeMany !== undefined) return sink.writeMany.bind(sink);
  return async (records) => {
    let failed: { error: unknown } | null = null;
    for (const record of records)
      try {
        await sink.write(record);
      } catch (error) {
        failed ??= { error };
      }
    if (failed !== null) throw failed.error;
  };
}

// a decision made before a review's expiry no longer holds after it (every decision is then `policy.unreviewed`)
function reviewHasExpired(policy: Policy): boolean {
  const expiresAtMs = policy.reviewCheck?.expiresAtMs;
  return expiresAtMs !== undefined && Date.now() >= expiresAtMs;
}
