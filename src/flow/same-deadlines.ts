/**
 * Deadlines of one length, reached in the order they were set (the guarded gate's judgements): one timer serves them
 * all, armed for the first still waiting, so a judgement that answers in time costs no timer of its own. The timer
 * holds the process open while any deadline waits (a hook whose only pending work is a silent gate must still answer
 * at the deadline), and no longer.
 */
export class SameDeadlines {
  private waiting: { readonly dueAt: number; fire: (() => void) | null }[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  // when the armed timer is due: it ran at least that long when it fires, whatever a clock under test says
  private armedUntil = 0;

  constructor(private readonly limitMs: number) {}

  /** Calls `fire` once `limitMs` milliseconds have passed, unless the function returned is called first. */
  add(fire: () => void): () => void {
    const entry: { readonly dueAt: number; fire: (() => void) | null } = {
      dueAt: performance.now() + this.limitMs,
      fire,
    };
    this.waiting.push(entry);
    if (this.timer === null) this.arm(this.limitMs);
    else this.timer.ref();
    return () => {
      if (entry.fire === null) return;
      entry.fire = null;
      this.skipDone();
    };
  }

  private arm(ms: number): void {
    this.armedUntil = performance.now() + ms;
    this.timer = setTimeout(this.due, Math.max(1, ms));
  }

  private readonly due = (): void => {
    this.timer = null;
    const now = Math.max(performance.now(), this.armedUntil);
    for (let next = this.waiting[this.head]; next !== undefined; next = this.waiting[this.head]) {
      if (next.fire !== null) {
        if (next.dueAt > now) break;
        const fire = next.fire;
        next.fire = null;
        fire();
      }
      this.head += 1;
    }
    this.skipDone();
    const first = this.waiting[this.head];
    if (first !== undefined) this.arm(first.dueAt - now);
  };

  // drops the done entries at the front; with none left waiting, the timer no longer holds the process open
  private skipDone(): void {
    while (this.head < this.waiting.length && this.waiting[this.head]?.fire === null) this.head += 1;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
      this.timer?.unref();
    } else if (this.head >= 1024 && this.head * 2 >= this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
  }
}
