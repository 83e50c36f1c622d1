/**
 * A deterministic work budget for one content item, with two bounds, both counted as the work happens and never
 * read from a clock, so a verdict does not depend on how loaded the machine is:
 * - steps (bytes scanned, tokens read, nodes visited, re-parses, delimiters paired, open elements walked), at most
 *   `baseSteps + stepsPerByte × bytes`: work stays linear in the item's size;
 * - parser time in calibrated nanoseconds: each parser is charged its measured cost per document it parses, per
 *   character it reads and per open element it walks (`bench/content.ts` measures them on real and crafted files),
 *   at most `maxParserNanos` whatever the size: linear work that is still too slow (seven megabytes of markup, a
 *   megabyte of markdown for five renderers, twenty thousand one-line notebook cells) ends as well.
 * An item whose checks exhaust either bound is withheld (`partial`, `content.too-complex`), never allowed.
 */

/** Steps one item may take per byte of its body, steps; every family of checks shares one budget per item. */
export const defaultStepsPerByte = 64;

/** Steps any item may take whatever its size (small items with a fixed cost: headers, one parse), steps. */
export const defaultBaseSteps = 1_000_000;

/**
 * Parser time one item may take, calibrated nanoseconds: 0.5 s of the parsers' measured cost (what they took on a
 * loaded 2-core machine). The costliest body it lets through whole (`npm run bench`, bench/content.ts) is a notebook
 * of as many live markdown cells as fit, about half a second of CPU: within 2 s where the load leaves a quarter core.
 * Markdown is read in parts, only those the screen passes (markdown/markdown-parts.ts), so ordinary READMEs are
 * charged a fraction of it (the benign corpus at most 0.25 s); the costliest declaration file the tests require
 * judged as markdown (hono's `types.d.ts`) is charged 0.39 s. A notebook's pieces are charged before any parser reads
 * them (notebook/active-notebook.ts), so one past the bound is withheld in milliseconds.
 */
export const maxParserNanos = 500_000_000;

/** Thrown by `WorkBudget.spend` when the budget runs out; caught where the item's judgement is assembled. */
export class WorkExhausted extends Error {
  /** the check family that ran out (`markdown`, `pdf`, `html`, …) */
  readonly family: string;

  constructor(family: string, bound: 'size' | 'time' = 'size') {
    super(
      bound === 'size'
        ? `checking the body took more work than its size allows (${family})`
        : `checking the body took more parser time than any item may (${family})`,
    );
    this.name = 'WorkExhausted';
    this.family = family;
  }
}

/** A step counter shared by every check of one item; `spend` throws `WorkExhausted` past the limit. */
export class WorkBudget {
  /** the limit, steps */
  readonly limit: number;
  /** steps spent so far, all families together */
  spent = 0;
  /** the parser-time limit, calibrated nanoseconds */
  readonly timeLimit: number;
  /** parser time spent so far, calibrated nanoseconds */
  timeSpent = 0;

  constructor(limit: number, timeLimit = maxParserNanos) {
    this.limit = limit;
    this.timeLimit = timeLimit;
  }

  /** A budget linear in the item's size: `baseSteps + stepsPerByte × bytes`, steps. */
  static forBytes(bytes: number, stepsPerByte = defaultStepsPerByte, baseSteps = defaultBaseSteps): WorkBudget {
    return new WorkBudget(baseSteps + stepsPerByte * Math.max(0, bytes));
  }

  /** A budget that never runs out: for callers that bound the work some other way (tests, references). */
  static unlimited(): WorkBudget {
    return new WorkBudget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  }

  /** Counts `steps` against the budget for check `family`; throws `WorkExhausted` when the total passes the limit. */
  spend(family: string, steps: number): void {
    this.spent += steps;
    if (this.spent > this.limit) throw new WorkExhausted(family);
  }

  /** Counts `nanos` of calibrated parser time for check `family`; throws `WorkExhausted` when the total passes the time limit. */
  spendTime(family: string, nanos: number): void {
    this.timeSpent += nanos;
    if (this.timeSpent > this.timeLimit) throw new WorkExhausted(family, 'time');
  }

  /** Steps left before the limit, steps (never negative). */
  get remaining(): number {
    return Math.max(0, this.limit - this.spent);
  }
}
