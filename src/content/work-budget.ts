/**
 * A deterministic work budget for one content item: every check counts the steps it takes (bytes scanned, tokens
 * read, nodes visited, re-parses), never wall-clock time, so a verdict does not depend on how loaded the machine
 * is. An item whose checks exhaust the budget is withheld (`partial`, `content.too-complex`), never allowed.
 */

/** Steps one item may take per byte of its body, steps; every family of checks shares one budget per item. */
export const defaultStepsPerByte = 64;

/** Steps any item may take whatever its size (small items with a fixed cost: headers, one parse), steps. */
export const defaultBaseSteps = 1_000_000;

/** Thrown by `WorkBudget.spend` when the budget runs out; caught where the item's judgement is assembled. */
export class WorkExhausted extends Error {
  /** the check family that ran out (`markdown`, `pdf`, `html`, …) */
  readonly family: string;

  constructor(family: string) {
    super(`checking the body took more work than its size allows (${family})`);
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

  constructor(limit: number) {
    this.limit = limit;
  }

  /** A budget linear in the item's size: `baseSteps + stepsPerByte × bytes`, steps. */
  static forBytes(bytes: number, stepsPerByte = defaultStepsPerByte, baseSteps = defaultBaseSteps): WorkBudget {
    return new WorkBudget(baseSteps + stepsPerByte * Math.max(0, bytes));
  }

  /** A budget that never runs out: for callers that bound the work some other way (tests, references). */
  static unlimited(): WorkBudget {
    return new WorkBudget(Number.POSITIVE_INFINITY);
  }

  /** Counts `steps` against the budget for check `family`; throws `WorkExhausted` when the total passes the limit. */
  spend(family: string, steps: number): void {
    this.spent += steps;
    if (this.spent > this.limit) throw new WorkExhausted(family);
  }

  /** Steps left before the limit, steps (never negative). */
  get remaining(): number {
    return Math.max(0, this.limit - this.spent);
  }
}
