import type {
  JsonRpcMessage as JSONRPCMessage,
  McpTransport as Transport,
  MessageExtraInfo,
  TransportSendOptions,
} from './mcp-transport.ts';
import { isRecord } from '../decision/json-value.ts';
import { GateError } from '../errors.ts';
import { readFailed } from '../flow/link-steps.ts';
import type { DecidedHere } from '../flow/link-decider.ts';
import { isJsonRpcId, type JsonRpcId, messageShape } from '../flow/json-rpc-shape.ts';
import { BatchRefusals, type FrontMember } from './batch-refusals.ts';
import { connectionByteCap } from './connection-byte-cap.ts';
import { linearizeReadBuffer } from './linear-read-buffer.ts';
import { onInbound, onWholeBatch, passesWhole } from './route-inbound.ts';
import { onRead } from './route-read.ts';
import { type GateTransportOptions, TransportSession } from './transport-session.ts';
import type { WaitingRequests } from './requests-in-flight.ts';

export { decisionMetaKey } from '../flow/decision-meta.ts';
export { gateErrorCode } from './gate-answers.ts';
export { maxRememberedLinks } from './requests-in-flight.ts';
export type { WaitingRequests } from './requests-in-flight.ts';
export { judgedServerRequests } from './route-inbound.ts';
export type { GateTransportOptions, HeldKind } from './transport-session.ts';
export type { FrontMember } from './batch-refusals.ts';

/** A gated transport: a Transport, plus `flush` to record links that were found but never read. */
export interface GateTransport extends Transport, Transport2x {
  /** records every remembered, unread link as `link-only` and forgets it */
  flush(): Promise<void>;
}

/** A gated transport with its table of the host's requests in flight, for a front end over it (the proxy). */
export interface FrontedGateTransport extends GateTransport {
  /** the host's requests that wait on an answer: the decorator's one table of requests in flight */
  readonly waiting: WaitingRequests;
  /**
   * starts noting the refusals of one message whose links the front end decides itself (`noteDecided` each): what the
   * server sends meanwhile is searched for refused addresses only once the returned end was called
   */
  notingRefusals(): () => void;
  /** notes a link the front end decided itself (kept when refused for its address) */
  readonly noteDecided: DecidedHere;
  /**
   * the member of a server batch that the answer `id` being passed on (`onmessage`) is, taken by the front end (null:
   * none, or taken): the links it decides there are noted in the batch's ledger (its `decided`), and it goes on to the
   * host only once every member was judged, searched for what the others refused (`batch-refusals.ts`)
   */
  memberOf(id: JsonRpcId): FrontMember | null;
}

/** Optional members a 2.x Transport adds to the 1.x shape. */
interface Transport2x {
  setSupportedProtocolVersions?: ((versions: string[]) => void) | undefined;
  readonly hasPerRequestStream?: boolean;
}

/**
 * Wraps a client Transport (stdio, Streamable HTTP, any with the same interface) so the gate sees raw JSON-RPC both ways:
 * links in `tools/call` results are remembered, a denied `resources/read` is answered locally (never sent), a denied
 * result becomes an error and a partial one keeps only the allowed items, with the decision under `_meta`. The
 * decisions and records are the flow's steps (`src/flow/link-steps.ts`); the decorator only routes messages to them
 * (`route-read.ts` for reads, `route-inbound.ts` for what the server sends). Throws a `GateError` (`USAGE`) for a stdio
 * transport whose read buffer cannot take the policy's cap (`linearizeReadBuffer`).
 */
export function gateTransport(inner: Transport, options: GateTransportOptions): GateTransport {
  return new GatedTransport(inner, options);
}

/** `gateTransport` for a front end that answers the host itself (the proxy): it reads the one table of requests. */
export function frontedGateTransport(inner: Transport, options: GateTransportOptions): FrontedGateTransport {
  return new GatedTransport(inner, options);
}

/** The decorator: the host's side of one gated connection, with its session's per-id maps. */
class GatedTransport implements FrontedGateTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly session: TransportSession;

  constructor(
    private readonly inner: Transport,
    options: GateTransportOptions,
  ) {
    const s = new TransportSession(inner, options, this);
    this.session = s;
    // a stdio transport's buffer takes the policy's cap and drops one oversize answer alone (the SDK's closes the
    // connection): an answer over `read.maxBytes` arrives whole and is judged, one over the cap ends only its read
    linearizeReadBuffer(inner, connectionByteCap(s.gate.policy));
    // members a 2.x Transport may have (`@modelcontextprotocol/client`): the client reads them on the wrapper
    if ('hasPerRequestStream' in inner)
      Object.defineProperty(this, 'hasPerRequestStream', { get: () => (inner as Transport2x).hasPerRequestStream });
    inner.onmessage = (message, extra) => {
      const batch: unknown = message;
      if (!Array.isArray(batch)) return onInbound(s, message, extra);
      // a batch of notifications and requests that need no judging passes whole; one holding anything else is taken
      // apart, so each answer meets the gate on its own and nothing malformed rides along
      const shapes = batch.map(messageShape);
      if (shapes.length > 0 && shapes.every((shape) => passesWhole(s, shape))) return onWholeBatch(s, batch, extra);
      // the batch came whole: a member before one whose refusals are being noted is searched once they are too
      const noted = s.noted.start();
      // and its tool results search for what the others refused too, once all are decided
      s.batch = new BatchRefusals(connectionByteCap(s.gate.policy), this.noteDecided);
      try {
        for (const element of batch) onInbound(s, element, extra);
      } finally {
        s.batch = null;
        noted();
      }
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      for (const pending of s.reads.stopAll(true)) {
        const why = 'the connection closed before an answer';
        s.queue(() => s.emit(readFailed(s.gate, pending.step, pending.requested, { kind: 'failed', why }).record));
      }
      s.requests.clear();
      this.onclose?.();
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  /**
   * Closes the connection; resolves only once every link has its record in the sink and the sink stored them: a read
   * still in flight is recorded as failed (the connection closes before its answer, which is dropped if it comes),
   * unread links as `link-only`.
   */
  async close(): Promise<void> {
    const s = this.session;
    for (const pending of s.reads.stopAll(true)) {
      const id = pending.requested.requestId;
      if (id !== null) s.requests.expire(id);
      const why = 'the connection closed before an answer';
      s.queue(() => s.emit(readFailed(s.gate, pending.step, pending.requested, { kind: 'failed', why }).record));
    }
    await this.flush();
    await this.inner.close();
    // records the inner transport's `onclose` queued, then the sink's own buffer
    await s.settle();
    await s.flushSink();
  }

  async send(message: JSONRPCMessage, sendOptions?: TransportSendOptions): Promise<void> {
    const batch: unknown = message;
    if (Array.isArray(batch)) {
      // a batch holding a read goes out one message at a time, so every read meets its link decision
      if (!batch.some(isRead)) return this.sendNoted(batch as JSONRPCMessage[], sendOptions);
      for (const element of batch) await this.send(element as JSONRPCMessage, sendOptions);
      return;
    }
    const m = message as Record<string, unknown>;
    if (!isRead(m)) return this.sendNoted(message, sendOptions);
    const id = m['id'] as JsonRpcId;
    if (this.session.requests.owedFor(m))
      throw new GateError('USAGE', `request id \`${String(id)}\` is already in flight`);
    // the host waits on the read from now: refused, it is answered without being sent
    this.session.requests.noteTakenRead(id);
    try {
      await onRead(this.session, id, isRecord(m['params']) ? m['params'] : {}, message, sendOptions);
    } catch (error) {
      this.session.requests.forgetId(id);
      throw error;
    }
  }

  async flush(): Promise<void> {
    this.endLedger('the host did not read it');
    await this.session.settle();
  }

  // forgets every listing of the link ledger, those never read recorded `link-only` for `why`
  private endLedger(why: string): void {
    const s = this.session;
    const unread = s.found.takeUnread();
    if (unread.length > 0) s.queue(() => s.recordUnread(unread, why));
  }

  get waiting(): WaitingRequests {
    return this.session.requests;
  }

  notingRefusals(): () => void {
    return this.session.noted.start();
  }

  readonly noteDecided: DecidedHere = (uri, decision) => this.session.refused.noteDecided(uri, decision);

  memberOf(id: JsonRpcId): FrontMember | null {
    return this.session.batchMembers.get(id)?.take() ?? null;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.session.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    (this.inner as Transport2x).setSupportedProtocolVersions?.(versions);
  }

  /** Sends requests other than reads, noted first so their answers can be matched; forgotten again if the send fails. */
  private async sendNoted(message: JSONRPCMessage | JSONRPCMessage[], sendOptions?: TransportSendOptions) {
    const list: unknown[] = Array.isArray(message) ? message : [message];
    // an id the server still owes an answer to is not sent again: its answers could not be told apart
    const reused = list.find((m) => this.session.requests.owedFor(m));
    if (reused !== undefined)
      throw new GateError('USAGE', `request id \`${String((reused as { id: unknown }).id)}\` is already in flight`);
    // the link ledger is one server session's: a new `initialize` ends the earlier session's listings (those never
    // read are recorded `link-only`), so none is read in the new one as a link that session returned
    if (this.session.requests.initializeId !== null && list.some(isInitialize)) this.endLedger(newSession);
    for (const m of list) this.session.requests.note(m);
    try {
      await this.inner.send(message, sendOptions);
    } catch (error) {
      for (const m of list) this.session.requests.forget(m);
      throw error;
    }
  }
}

/** Why a listing ended unread when the host began a new session with the server over the same connection. */
const newSession = 'the host began a new session with the server before reading it';

function isInitialize(message: unknown): boolean {
  return isRecord(message) && message['method'] === 'initialize' && isJsonRpcId(message['id']);
}

function isRead(message: unknown): boolean {
  return isRecord(message) && message['method'] === 'resources/read' && isJsonRpcId(message['id']);
}
