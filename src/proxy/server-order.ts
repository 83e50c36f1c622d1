import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import type { HeldKind } from '../sdk/gate-transport.ts';
import type { HostOutbox, OutboxPlace } from './host-outbox.ts';

/**
 * Keeps the server's order through the transport decorator. The decorator passes most messages on at once but judges
 * some first (a read's answer, a tool result, a sampling or elicitation request) and holds others until the refusals
 * before them are noted (a notification, a request, a batch); it says so as it takes one (`held`, its `onHeld`), and
 * that message's place in the host's outbox is kept from then until the decorator passes it on (`placeOf`,
 * `placeOfRequest`) or says it is done with it (the function `held` returns: a server request it answered itself, an
 * answer or notification it dropped), when the place is given up. Answers and the server's own requests are kept
 * apart (the server's ids are another id space than the host's); notifications (no id) are kept in order. Two held
 * messages of one id (a server that reuses an id while the first is still held) each keep their own place, the
 * first passed on taking the first.
 */
export class ServerOrder {
  // places kept for answers the decorator holds, by id, oldest first
  private readonly kept = new Map<JsonRpcId, OutboxPlace[]>();
  // places kept for server requests the decorator holds, by the server's id, oldest first
  private readonly keptRequests = new Map<JsonRpcId, OutboxPlace[]>();
  // places kept for notifications and batches the decorator holds, oldest first
  private readonly keptMessages: OutboxPlace[] = [];

  constructor(private readonly outbox: HostOutbox) {}

  /** The decorator holds the server's message `id` of `kind`: its place is kept; the function gives it up. */
  readonly held = (kind: HeldKind, id: JsonRpcId | null): (() => void) => {
    const place = this.outbox.keep(kind === 'answer');
    let places: OutboxPlace[];
    if (kind === 'notification' || id === null) places = this.keptMessages;
    else {
      const byId = kind === 'answer' ? this.kept : this.keptRequests;
      places = byId.get(id) ?? [];
      if (places.length === 0) byId.set(id, places);
    }
    places.push(place);
    return () => {
      const at = places.indexOf(place);
      if (at === -1) return;
      places.splice(at, 1);
      if (places.length === 0 && id !== null && kind !== 'notification')
        (kind === 'answer' ? this.kept : this.keptRequests).delete(id);
      place.drop();
    };
  };

  /**
   * Where the answer `id` the decorator passes on goes: the place kept for it (null: the outbox's end); with id null
   * (a notification or batch), the oldest place kept for one.
   */
  placeOf(id: JsonRpcId | null): OutboxPlace | null {
    return id === null ? (this.keptMessages.shift() ?? null) : take(this.kept, id);
  }

  /** Where the server request `id` the decorator passes on goes: the place kept for it (null: the outbox's end). */
  placeOfRequest(id: JsonRpcId): OutboxPlace | null {
    return take(this.keptRequests, id);
  }

  /** Gives up every kept place (the session is closing and every waiting request was answered). */
  dropAll(): void {
    for (const places of [...this.kept.values(), ...this.keptRequests.values(), this.keptMessages])
      for (const place of places) place.drop();
    this.kept.clear();
    this.keptRequests.clear();
    this.keptMessages.length = 0;
  }
}

function take(places: Map<JsonRpcId, OutboxPlace[]>, id: JsonRpcId): OutboxPlace | null {
  const list = places.get(id);
  const place = list?.shift();
  if (list !== undefined && list.length === 0) places.delete(id);
  return place ?? null;
}
