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

/** The decorator's reads in flight by request id, each with its deadline timer. */
export class ReadsInFlight {
  private readonly reads = new Map<JsonRpcId, PendingRead & { timer: NodeJS.Timeout }>();

  /** Starts waiting for the answer to read `id`; `onDeadline` runs after `deadlineMs` milliseconds unless it came. */
  start(id: JsonRpcId, read: PendingRead, deadlineMs: number, onDeadline: (id: JsonRpcId) => void): void {
    const timer = setTimeout(() => onDeadline(id), deadlineMs);
    timer.unref();
    this.reads.set(id, { ...read, timer });
  }

  /** Takes the read `id` and stops its timer; undefined when no read with that id waits. */
  take(id: JsonRpcId): PendingRead | undefined {
    const pending = this.reads.get(id);
    if (pending === undefined) return undefined;
    this.reads.delete(id);
    clearTimeout(pending.timer);
    return pending;
  }

  /** Stops every timer; with `forget`, also takes every read (the connection closed) and returns them. */
  stopAll(forget: boolean): PendingRead[] {
    const all = [...this.reads.values()];
    for (const pending of all) clearTimeout(pending.timer);
    if (forget) this.reads.clear();
    return forget ? all : [];
  }
}
