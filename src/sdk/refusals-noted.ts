/** One message's refusals being noted. */
export interface Noting {
  /** ends it (once; again: nothing) */
  (): void;
  /**
   * resolves once every noting started before this one ended (its own and later ones aside, and those of `besides`:
   * a batch's members, whose refusals their ledger searches for)
   */
  earlier(besides?: ReadonlySet<Noting>): Promise<void>;
}

/**
 * The refusals a session is still noting (a tool result, prompt, sampling request or read whose link decisions are
 * not made yet): a message the server sends meanwhile that is checked for refused addresses (a notification, a
 * request, a plain answer) waits until none is, in the order it came, so one written in the same chunk as the result
 * refusing a link is checked against that refusal too (it used to be checked first, and passed).
 */
export class RefusalsNoted {
  // the notings not ended, by the order they started
  private readonly pending = new Map<number, Noting>();
  private started = 0;
  // what waits for every noting, in the order it came
  private readonly waiting: (() => void)[] = [];
  // what waits for the notings started before a given one (but those `besides`)
  private readonly waitingEarlier: Earlier[] = [];

  /** Whether refusals are still being noted, or something still waits for them. */
  get busy(): boolean {
    return this.pending.size > 0 || this.waiting.length > 0;
  }

  /** Starts noting one message's refusals. */
  start(): Noting {
    const seq = this.started;
    this.started += 1;
    const end = () => {
      if (!this.pending.delete(seq)) return;
      this.drain();
    };
    const noting: Noting = Object.assign(end, {
      earlier: (besides?: ReadonlySet<Noting>) =>
        new Promise<void>((resolve) => {
          const w = { before: seq, besides, resolve };
          if (this.ready(w)) resolve();
          else this.waitingEarlier.push(w);
        }),
    });
    this.pending.set(seq, noting);
    return noting;
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

  // whether every noting started before `w.before` ended, but those `w.besides`
  private ready(w: Earlier): boolean {
    for (const [seq, noting] of this.pending) if (seq < w.before && w.besides?.has(noting) !== true) return false;
    return true;
  }

  // runs what waits, in order, while no refusal is being noted (one it runs may start noting again)
  private drain(): void {
    for (let i = this.waitingEarlier.length - 1; i >= 0; i -= 1) {
      const w = this.waitingEarlier[i] as Earlier;
      if (!this.ready(w)) continue;
      this.waitingEarlier.splice(i, 1);
      w.resolve();
    }
    while (this.pending.size === 0 && this.waiting.length > 0) (this.waiting.shift() as () => void)();
  }
}

interface Earlier {
  before: number;
  besides: ReadonlySet<Noting> | undefined;
  resolve: () => void;
}
