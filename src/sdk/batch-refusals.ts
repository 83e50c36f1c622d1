import type { LinkStep } from '../flow/link-steps.ts';
import { RefusedAddresses } from './refused-addresses.ts';

// One server batch answering several tool calls comes whole: the answer naming an address and the answer refusing
// its link may stand in either order. A tool result whose items its caller judges (the proxy) is searched for the
// refusals noted before it, and its own refusals are noted only once it was searched (its prose naming its own refused
// link becomes that link's notice there, not a reason to withhold it whole), so an earlier member of the batch was
// searched before a later one's refusals were noted, and passed. Each member of a batch now also searches for the
// addresses its siblings refused, once every member's links are decided.

/** The tool results of one server batch being taken apart, each searched for what its siblings refused. */
export class BatchRefusals {
  readonly #steps = new Map<BatchMember, readonly (LinkStep | undefined)[]>();
  #undecided = 0;
  #waiting: (() => void)[] = [];

  constructor(private readonly capBytes: number) {}

  /** A member that takes part (joined while the batch is taken apart, before any member is decided). */
  join(): BatchMember {
    this.#undecided += 1;
    const member: BatchMember = {
      decided: (steps) => {
        if (this.#steps.has(member)) return;
        this.#steps.set(member, steps);
        this.#undecided -= 1;
        if (this.#undecided === 0) for (const resolve of this.#waiting.splice(0)) resolve();
      },
      all: () =>
        new Promise<void>((resolve) => {
          if (this.#undecided === 0) resolve();
          else this.#waiting.push(resolve);
        }),
      named: (message) => {
        const others = [...this.#steps].filter(([m]) => m !== member).flatMap(([, steps]) => steps);
        if (others.length === 0) return false;
        const refused = new RefusedAddresses(this.capBytes);
        refused.note(others);
        return refused.names(message);
      },
    };
    return member;
  }
}

/** One tool result of a batch. */
export interface BatchMember {
  /** its link steps are decided (once; again: nothing): every member decided ends `all` */
  decided(steps: readonly (LinkStep | undefined)[]): void;
  /** resolves once every member of the batch is decided */
  all(): Promise<void>;
  /** whether `message` names the address of a link another member refused for its address */
  named(message: unknown): boolean;
}
