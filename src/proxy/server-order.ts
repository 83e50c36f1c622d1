import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import type { HeldKind } from '../sdk/gate-transport.ts';
import type { HostOutbox, OutboxPlace } from './host-outbox.ts';

/**
 * Keeps the server's order through the transport decorator. The decorator passes most messages on at once but judges
 * some first (a read's answer, a tool result, a sampling or elicitation request); it says so as it takes one
 * (`held`, its `onHeld`), and that message's place in the host's outbox is kept from then until the decorator passes
 * it on (`placeOf`, `placeOfRequest`) or says it is done with it (the function `held` returns: a server request it
 * answered itself, an answer it dropped), when the place is given up. Answers and the server's own requests are kept
 * apart (the server's ids are another id space than the host's).
 */
export class ServerOrder {
  // places kept for answers the decorator holds, by id
  private readonly kept = new Map<JsonRpcId, OutboxPlace>();
  // places kept for server requests the decorator holds, by the server's id
  private readonly keptRequests = new Map<JsonRpcId, OutboxPlace>();

  constructor(private readonly outbox: HostOutbox) {}

  /** The decorator holds the server's message `id` of `kind`: its place is kept; the function gives it up. */
  readonly held = (kind: HeldKind, id: JsonRpcId): (() => void) => {
    const places = kind === 'answer' ? this.kept : this.keptRequests;
    const place = this.outbox.keep(kind === 'answer');
    // a second hold of the same id (the server reused it once the first was passed on) replaces the first's
    places.get(id)?.drop();
    places.set(id, place);
    return () => {
      if (places.get(id) !== place) return;
      places.delete(id);
      place.drop();
    };
  };

  /** Where the answer `id` the decorator passes on goes: the place kept for it (null: the outbox's end). */
  placeOf(id: JsonRpcId | null): OutboxPlace | null {
    return id === null ? null : take(this.kept, id);
  }

  /** Where the server request `id` the decorator passes on goes: the place kept for it (null: the outbox's end). */
  placeOfRequest(id: JsonRpcId): OutboxPlace | null {
    return take(this.keptRequests, id);
  }

  /** Gives up every kept place (the session is closing and every waiting request was answered). */
  dropAll(): void {
    for (const place of [...this.kept.values(), ...this.keptRequests.values()]) place.drop();
    this.kept.clear();
    this.keptRequests.clear();
  }
}

function take(places: Map<JsonRpcId, OutboxPlace>, id: JsonRpcId): OutboxPlace | null {
  const place = places.get(id);
  if (place === undefined) return null;
  places.delete(id);
  return place;
}
