import { GateError } from '../errors.ts';

/**
 * The work one hook event may do, checked inside the hook's loops (links, split candidates, state entries, items):
 * a judgement that runs past `deadlineAt` throws `READ_TIMEOUT`, which the command answers in the host's fail-closed
 * terms. A timer cannot do this: work that never yields to the event loop never lets a timer fire.
 */
export class EventBudget {
  /** `performance.now()` milliseconds after which the event's work stops */
  readonly deadlineAt: number;
  readonly #limitMs: number;
  readonly #now: () => number;

  /** A budget of `limitMs` milliseconds from now (`now` is the clock, `performance.now` unless a test gives one). */
  constructor(limitMs: number, now: () => number = () => performance.now()) {
    this.#limitMs = limitMs;
    this.#now = now;
    this.deadlineAt = now() + limitMs;
  }

  /** Throws `READ_TIMEOUT` once the budget is spent; cheap enough to call once per item, link or entry. */
  check(): void {
    if (this.#now() > this.deadlineAt)
      throw new GateError('READ_TIMEOUT', `the hook did not answer within ${this.#limitMs} ms`);
  }
}

/** Checks `budget` when there is one (a context without a budget is bounded by its caps only). */
export function checkBudget(budget: EventBudget | undefined): void {
  budget?.check();
}
