import { GateError } from '../errors.ts';
import { SameDeadlines } from '../flow/same-deadlines.ts';

/**
 * The deadline of the records chain's writes: a write that does not settle within `deadlineMs` fails with the same
 * error `sinkWrite` gives. Deadlines of one length on one timer (`SameDeadlines`), so a record costs no timer of its
 * own and the timer holds the process open only while a write is in progress.
 */
export class RecordsDeadline {
  private readonly deadlines: SameDeadlines;

  constructor(private readonly deadlineMs: number) {
    this.deadlines = new SameDeadlines(deadlineMs);
  }

  /** Runs `write`; resolves or rejects as it does, or rejects at its deadline. */
  async run(write: () => unknown): Promise<void> {
    const failed = await new Promise<{ error: unknown } | null>((settle) => {
      // made only when the deadline passes: an error captures a stack, which cost a read a tenth of its CPU
      const done = this.deadlines.add(() =>
        settle({ error: new GateError('READ_FAILED', `the records sink did not answer within ${this.deadlineMs} ms`) }),
      );
      const end = (outcome: { error: unknown } | null) => {
        done();
        settle(outcome);
      };
      try {
        Promise.resolve(write()).then(
          () => end(null),
          (error: unknown) => end({ error }),
        );
      } catch (error) {
        end({ error });
      }
    });
    // the sink's own failure, as it gave it
    if (failed !== null) throw failed.error;
  }
}
