import { GateError } from '../errors.ts';
import { errorLine } from '../decision/error-line.ts';

/**
 * What a front end does in enforce mode when a record cannot be written (DESIGN §2): `withhold` (the default) passes on
 * nothing of what the record is about (the read's answer, the tool result) and answers with the failure instead;
 * `report` passes it on and reports the failure (the front end's `onerror`, stderr, or the result's `recordError`).
 * Observe mode enforces nothing: it always reports. A failure is never dropped silently.
 */
export type OnRecordError = 'withhold' | 'report';

/** The values of `onRecordError` (and `--on-record-error`), the default first. */
export const onRecordErrorChoices = ['withhold', 'report'] as const;

/** Whether a records failure withholds what it records, for this mode and setting (default `withhold`). */
export function recordErrorWithholds(mode: 'enforce' | 'observe', onRecordError: OnRecordError | undefined): boolean {
  return mode === 'enforce' && (onRecordError ?? 'withhold') === 'withhold';
}

/** The one-line message of a records failure that withheld what it records. */
export function recordErrorMessage(error: unknown): string {
  const why = errorLine(error);
  return `linkgate could not write the record, so it passes on none of it (onRecordError: withhold): ${why}`;
}

/** The error a front end answers with when a records failure withholds what it records (already reported). */
export class RecordWithheldError extends GateError {}

/** A `RecordWithheldError` for this records failure. */
export function recordWithheldError(error: unknown): RecordWithheldError {
  return new RecordWithheldError('USAGE', recordErrorMessage(error), { cause: error });
}

/** Checks an `onRecordError` option given at run time (JavaScript callers): a wrong value is a `USAGE` error. */
export function checkOnRecordError(value: unknown): OnRecordError | undefined {
  if (value === undefined || value === 'withhold' || value === 'report') return value;
  throw new GateError('USAGE', 'option `onRecordError` must be `withhold` or `report`');
}

/**
 * `write()` (one records write), failing with a `GateError` when it has not settled within `deadlineMs`: a sink that
 * never answers is a records failure, so what waits on it answers by `onRecordError` instead of never.
 */
export async function sinkWrite<T>(write: () => T | Promise<T>, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new GateError('READ_FAILED', `the records sink did not answer within ${deadlineMs} ms`)),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([Promise.resolve().then(write), late]);
  } finally {
    clearTimeout(timer);
  }
}
