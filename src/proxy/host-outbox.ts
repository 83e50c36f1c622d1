import { isRecord } from '../decision/json-value.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { EditedLine } from './edited-line.ts';

/** A place kept in the host's outbox for a message still to come (being judged, or an answer the gate still holds). */
export interface OutboxPlace {
  /** puts the message in its place; it goes out once nothing ahead of it holds it back */
  fill(message: unknown, id: JsonRpcId | null): void;
  /** gives the place up: nothing goes out there, and it holds nothing back any more */
  drop(): void;
}

// one message taken, or the place kept for one: the place itself (no closures made per message kept)
class Part implements OutboxPlace {
  constructor(
    private readonly flushed: () => void,
    public state: 'waiting' | 'ready' | 'dropped',
    /** an answer to a host request (no `method`): answers to different requests may pass each other */
    public answer: boolean,
    public message: unknown,
    public id: JsonRpcId | null,
  ) {}

  fill(message: unknown, id: JsonRpcId | null): void {
    if (this.state !== 'waiting') return;
    this.state = 'ready';
    this.answer = isAnswer(message);
    this.message = message;
    this.id = id;
    this.flushed();
  }

  drop(): void {
    if (this.state !== 'waiting') return;
    this.state = 'dropped';
    this.flushed();
  }
}

/**
 * What the proxy sends the host, in the order it took it from the server: a message still being judged holds back
 * every request and notification behind it (a `notifications/cancelled` never overtakes the request it cancels).
 * Answers to different requests are matched by id, not by order (JSON-RPC), so a ready answer passes answers still
 * being judged, never a request or notification still held. `write` gets each message once, in that order;
 * `onWaiting` hears how many wait after every change (for the caller's bound).
 */
export class HostOutbox {
  private readonly parts: Part[] = [];
  private flushing = false;

  constructor(
    private readonly write: (message: unknown, id: JsonRpcId | null) => void,
    private readonly onWaiting: (count: number) => void = () => {},
  ) {}

  /** Messages taken and not yet written (kept places included). */
  get waiting(): number {
    return this.parts.length;
  }

  /** Sends `message` after everything taken before it (at once when nothing holds it back). */
  put(message: unknown, id: JsonRpcId | null): void {
    // nothing held and no flush in progress (the common case): written at once, with no part kept for it
    if (this.parts.length === 0 && !this.flushing) {
      this.flushing = true;
      try {
        this.write(message, id);
      } finally {
        this.flushing = false;
      }
      // what the write put back meanwhile (a send that failed at once answers its request) goes out now
      if (this.parts.length > 0) this.flush();
      else this.onWaiting(0);
      return;
    }
    this.parts.push(new Part(this.flush, 'ready', isAnswer(message), message, id));
    this.flush();
  }

  /** Keeps the next place for a message still to come; `answer`: it will answer a host request. */
  keep(answer: boolean): OutboxPlace {
    const part = new Part(this.flush, 'waiting', answer, null, null);
    this.parts.push(part);
    this.onWaiting(this.parts.length);
    return part;
  }

  private readonly flush = (): void => {
    // a write can come back here (a send that fails at once answers its request): the outer loop goes on
    if (this.flushing) return;
    this.flushing = true;
    try {
      let answersHeld = false;
      for (let i = 0; i < this.parts.length; ) {
        const part = this.parts[i] as Part;
        if (part.state === 'dropped' || (part.state === 'ready' && (!answersHeld || part.answer))) {
          this.parts.splice(i, 1);
          if (part.state === 'ready') this.write(part.message, part.id);
          continue;
        }
        // an answer still waiting holds back only requests and notifications; anything else holds back all behind it
        if (part.state === 'ready' || !part.answer) break;
        answersHeld = true;
        i += 1;
      }
    } finally {
      this.flushing = false;
    }
    this.onWaiting(this.parts.length);
  };
}

function isAnswer(message: unknown): boolean {
  if (message instanceof EditedLine) return message.isAnswer;
  return isRecord(message) && !('method' in message);
}
