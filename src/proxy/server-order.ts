import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { type JsonRpcId, messageShape } from '../flow/json-rpc-shape.ts';
import type { HostOutbox, OutboxPlace } from './host-outbox.ts';

/**
 * Keeps the server's order through the transport decorator. The decorator passes most messages on at once but judges
 * a read's answer later; `transport` (what the decorator wraps) hands it the server's messages one at a time, and
 * when one passes nothing on at once although it answers a request the host waits on (`awaited`), its place in the
 * host's outbox is kept until the decorator passes that answer on. A batch the decorator takes apart is taken apart
 * here first, so each element keeps its own place. A server request the decorator holds (its links recorded before
 * it goes on) keeps its place too, until the decorator passes it on or answers it to the server itself.
 */
export class ServerOrder {
  /** the server's side, as the decorator sees it */
  readonly transport: Transport;
  // places kept for answers the decorator still holds, by id (one each: a second answer for the id is dropped by it)
  private readonly kept = new Map<JsonRpcId, OutboxPlace>();
  // places kept for server requests the decorator still holds, by the server's id (another id space than the host's)
  private readonly keptRequests = new Map<JsonRpcId, OutboxPlace>();
  private inCall = false;
  private passedOn = 0;

  constructor(
    upstream: Transport,
    private readonly outbox: HostOutbox,
    private readonly awaited: (id: JsonRpcId) => boolean,
  ) {
    const tapped: Transport = {
      start: () => upstream.start(),
      send: (message, options) => {
        this.answeredUp(message);
        return upstream.send(message, options);
      },
      close: () => upstream.close(),
      get sessionId() {
        return upstream.sessionId;
      },
      setProtocolVersion: (version) => upstream.setProtocolVersion?.(version),
    };
    this.transport = tapped;
    upstream.onmessage = (message, extra) => {
      const batch: unknown = message;
      // the decorator passes on whole a batch of requests and notifications, and takes any other apart
      if (!Array.isArray(batch) || (batch.length > 0 && batch.every(passesWhole)))
        return this.one(tapped, message, extra);
      for (const element of batch) this.one(tapped, element as JSONRPCMessage, extra);
    };
    upstream.onerror = (error) => tapped.onerror?.(error);
    upstream.onclose = () => tapped.onclose?.();
  }

  /**
   * Where a message the decorator passes on goes: the place kept for the answer `id` (null: the outbox's end). Call
   * once for each message passed on.
   */
  placeOf(id: JsonRpcId | null): OutboxPlace | null {
    if (this.inCall) this.passedOn += 1;
    const place = id === null ? undefined : this.kept.get(id);
    if (place === undefined || id === null) return null;
    this.kept.delete(id);
    // passed on at once for a later message: the decorator dropped the one the place was kept for
    if (!this.inCall) return place;
    place.drop();
    return null;
  }

  /** Where the server request `id` the decorator passes on goes: the place kept for it (null: the outbox's end). */
  placeOfRequest(id: JsonRpcId): OutboxPlace | null {
    if (this.inCall) this.passedOn += 1;
    const place = this.keptRequests.get(id);
    if (place === undefined) return null;
    this.keptRequests.delete(id);
    return place;
  }

  /** Gives up every kept place (the session is closing and every waiting request was answered). */
  dropAll(): void {
    for (const place of [...this.kept.values(), ...this.keptRequests.values()]) place.drop();
    this.kept.clear();
    this.keptRequests.clear();
  }

  // an answer the decorator sends the server itself (a request it could not judge fails there): the request never
  // reaches the host, and its kept place holds nothing back any more
  private answeredUp(message: unknown): void {
    if (this.keptRequests.size === 0) return;
    const shape = messageShape(message);
    if (shape.kind !== 'answer') return;
    this.keptRequests.get(shape.id)?.drop();
    this.keptRequests.delete(shape.id);
  }

  private one(tapped: Transport, message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    // kept for a message taken while another was being handed over (a failed line reported from inside a read)
    const outerCall = this.inCall;
    const outerPassed = this.passedOn;
    this.inCall = true;
    this.passedOn = 0;
    let passedOn: number;
    try {
      tapped.onmessage?.(message, extra);
    } finally {
      passedOn = this.passedOn;
      this.inCall = outerCall;
      this.passedOn = outerPassed;
    }
    if (passedOn > 0) return;
    const shape = messageShape(message);
    if (shape.kind === 'request' && !this.keptRequests.has(shape.id)) {
      this.keptRequests.set(shape.id, this.outbox.keep(false));
      return;
    }
    const id = shape.kind === 'answer' || shape.kind === 'invalid' ? shape.id : null;
    if (id !== null && this.awaited(id) && !this.kept.has(id)) this.kept.set(id, this.outbox.keep(true));
  }
}

function passesWhole(message: unknown): boolean {
  const kind = messageShape(message).kind;
  return kind === 'request' || kind === 'notification';
}
