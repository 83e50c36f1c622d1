/** One message's refusals being noted. */
export interface Noting {
  /** ends it (once; again: nothing) */
  (): void;
  /** resolves once every noting started before this one ended (its own and later ones aside) */
  earlier(): Promise<void>;
}

/**
 * The refusals a session is still noting (a tool result, prompt, sampling request or read whose link decisions are
 * not made yet): a message the server sends meanwhile that is checked for refused addresses (a notification, a
 * request, a plain answer) waits until none is, in the order it came, so one written in the same chunk as the result
 * refusing a link is checked against that refusal too (it used to be checked first, and passed).
 */
export class RefusalsNoted {
  // the notings not ended, by the order they started
  private readonly pending = new Set<number>();
  private started = 0;
  // what waits for every noting, in the order it came
  private readonly waiting: (() => void)[] = [];
  // what waits for the notings started before a given one
  private readonly waitingEarlier: { before: number; resolve: () => void }[] = [];

  /** Whether refusals are still being noted, or something still waits for them. */
  get busy(): boolean {
    return this.pending.size > 0 || this.waiting.length > 0;
  }

  /** Starts noting one message's refusals. */
  start(): Noting {
    const seq = this.started;
    this.started += 1;
    this.pending.add(seq);
    const end = () => {
      if (!this.pending.delete(seq)) return;
      this.drain();
    };
    return Object.assign(end, {
      earlier: () =>
        new Promise<void>((resolve) => {
          if (this.oldest() >= seq) return resolve();
          this.waitingEarlier.push({ before: seq, resolve });
        }),
    });
  }

  /** Runs `then` once no refusal is still being noted and all that waited before it ran (at once when none). */
  after(then: () => void): void {
    if (!this.busy) return then();
    this.waiting.push(then);
  }

  /** Resolves as `after` would run. */
  settled(): Promise<void> {
    return new Promise((resolve) => this.after(resolve));
  }

  // the oldest noting not ended (none: past every one)
  private oldest(): number {
    let oldest = this.started;
    for (const seq of this.pending) if (seq < oldest) oldest = seq;
    return oldest;
  }

  // runs what waits, in order, while no refusal is being noted (one it runs may start noting again)
  private drain(): void {
    if (this.waitingEarlier.length > 0) {
      const oldest = this.oldest();
      for (let i = this.waitingEarlier.length - 1; i >= 0; i -= 1) {
        const w = this.waitingEarlier[i] as { before: number; resolve: () => void };
        if (oldest < w.before) continue;
        this.waitingEarlier.splice(i, 1);
        w.resolve();
      }
    }
    while (this.pending.size === 0 && this.waiting.length > 0) (this.waiting.shift() as () => void)();
  }
}
