import { GateError } from '../errors.ts';

/** `value` when it is a whole number ≥ 1, else a `USAGE` error: `what` names the option (``option `concurrency` ``). */
export function positiveOption(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new GateError('USAGE', `${what} must be a whole number ≥ 1`);
  return value;
}
