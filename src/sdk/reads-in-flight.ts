import type { LinkStep } from '../flow/link-steps.ts';
import type { RequestedStage } from '../record/link-record.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';

/** A `resources/read` sent to the server and waiting for its answer or its deadline. */
export interface PendingRead {
  step: LinkStep;
  requested: RequestedStage;
  /** `performance.now()` when it went out, milliseconds */
  started: number;
}

interface Waiting extends PendingRead {
  /** `performance.now()` at its deadline, milliseconds */
  deadlineAt: number;
  onDeadline: (id: JsonRpcId) => void;
  /** its own timer, for a read whose deadline comes before one started earlier */
  timer?: NodeJS.Timeout;
}

/**
 * The decorator's reads in flight by request id, each with its deadline. Reads of one connection share one deadline,
 * so they reach it in the order they started: one timer waits for the first still waiting (a read answered in time
 * costs no timer of its own), and only a read whose deadline would come before an earlier one's gets its own.
 */
export class ReadsInFlight {
  private readonly reads = new Map<JsonRpcId, Waiting>();
  // reads in the order they started, from `head` on; an entry whose read was taken is skipped
  private order: { id: JsonRpcId; read: Waiting }[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;

  /** Starts waiting for the answer to read `id`; `onDeadline` runs after `deadlineMs` milliseconds unless it came. */
  start(id: JsonRpcId, read: PendingRead, deadlineMs: number, onDeadline: (id: JsonRpcId) => void): void {
    // built member by member (a spread copy with members added takes V8's slow path, a tenth of a read's own work);
    // the deadline counts from when the read went out
    const waiting: Waiting = {
      step: read.step,
      requested: read.requested,
      started: read.started,
      deadlineAt: read.started + deadlineMs,
      onDeadline,
    };
    this.reads.set(id, waiting);
    const last = this.order.at(-1);
    if (this.head < this.order.length && last !== undefined && last.read.deadlineAt > waiting.deadlineAt) {
      const timer = setTimeout(() => this.due(id, waiting), deadlineMs);
      timer.unref();
      waiting.timer = timer;
      return;
    }
    this.order.push({ id, read: waiting });
    if (this.timer === null) this.arm();
  }

  /** Takes the read `id` and stops its deadline; undefined when no read with that id waits. */
  take(id: JsonRpcId): PendingRead | undefined {
    const pending = this.reads.get(id);
    if (pending === undefined) return undefined;
    this.reads.delete(id);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    this.skipTaken();
    return pending;
  }

  /** Stops every deadline; with `forget`, also takes every read (the connection closed) and returns them. */
  stopAll(forget: boolean): PendingRead[] {
    const all = [...this.reads.values()];
    for (const pending of all) if (pending.timer !== undefined) clearTimeout(pending.timer);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.order = [];
    this.head = 0;
    if (forget) this.reads.clear();
    return forget ? all : [];
  }

  // the read `id` reached its deadline, if it is still the read waiting under that id
  private due(id: JsonRpcId, read: Waiting): void {
    if (this.reads.get(id) === read) read.onDeadline(id);
  }

  // one timer, for the first read still waiting (unref'd, as each read's own timer was)
  private arm(): void {
    this.skipTaken();
    const first = this.order[this.head];
    if (first === undefined) return;
    const timer = setTimeout(this.sweep, Math.max(1, first.read.deadlineAt - performance.now()));
    timer.unref();
    this.timer = timer;
  }

  private readonly sweep = (): void => {
    this.timer = null;
    const now = performance.now();
    for (let next = this.order[this.head]; next !== undefined; next = this.order[this.head]) {
      if (this.reads.get(next.id) === next.read && next.read.deadlineAt > now) break;
      this.head += 1;
      this.due(next.id, next.read);
    }
    this.arm();
  };

  // drops the entries of reads already taken from the front, and the front itself once it is as long as the rest
  private skipTaken(): void {
    for (let next = this.order[this.head]; next !== undefined; next = this.order[this.head]) {
      if (this.reads.get(next.id) === next.read) break;
      this.head += 1;
    }
    if (this.head === this.order.length) {
      this.order.length = 0;
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
