import { GateError } from '../errors.ts';

interface Writing {
  readonly dueAt: number;
  readonly fail: (error: unknown) => void;
}

/**
 * The deadline of the records chain's writes (one runs at a time): a write that does not settle within `deadlineMs`
 * fails with the same error `sinkWrite` gives. One timer serves every write, armed for the write in progress and moved
 * on only when it fires early, so a record costs no timer of its own; the timer holds the process open only while a
 * write is in progress (as a write's own timer did).
 */
export class RecordsDeadline {
  private writing: Writing | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deadlineMs: number) {}

  /** Runs `write` (the only one in progress); resolves or rejects as it does, or rejects at its deadline. */
  async run(write: () => unknown): Promise<void> {
    const failed = await new Promise<{ error: unknown } | null>((settle) => {
      const entry: Writing = { dueAt: performance.now() + this.deadlineMs, fail: (error) => settle({ error }) };
      this.writing = entry;
      if (this.timer === null) this.arm(this.deadlineMs);
      else this.timer.ref();
      const done = (outcome: { error: unknown } | null) => {
        if (this.writing !== entry) return;
        this.writing = null;
        this.timer?.unref();
        settle(outcome);
      };
      try {
        Promise.resolve(write()).then(
          () => done(null),
          (error: unknown) => done({ error }),
        );
      } catch (error) {
        done({ error });
      }
    });
    // the sink's own failure, as it gave it
    if (failed !== null) throw failed.error;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(this.due, Math.max(1, ms));
    if (this.writing === null) this.timer.unref();
  }

  private readonly due = (): void => {
    this.timer = null;
    const entry = this.writing;
    if (entry === null) return;
    const left = entry.dueAt - performance.now();
    if (left > 0) return this.arm(left);
    this.writing = null;
    entry.fail(new GateError('READ_FAILED', `the records sink did not answer within ${this.deadlineMs} ms`));
  };
}
