import { GateError } from '../errors.ts';

/** An abort signal that fires at a deadline or when its parent aborts; `release` frees both once the work is done. */
export interface AbortDeadline {
  readonly signal: AbortSignal;
  /** true once the deadline itself fired (not the parent) */
  readonly timedOut: boolean;
  /** clears the timer and the parent listener; call it when the work ends, whatever the outcome */
  release(): void;
}

/**
 * A deadline of `deadlineMs` milliseconds (whole number ≥ 1) chained to `parent`. Unlike `AbortSignal.timeout` and
 * `AbortSignal.any`, nothing outlives `release()`: on Node 20 a composite signal that carries an `abort` listener
 * (the SDK adds one per request and never removes it) is kept alive until it aborts, about 2 KiB per read.
 */
export function abortDeadline(deadlineMs: number, parent?: AbortSignal, what = 'the deadline'): AbortDeadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new GateError('READ_TIMEOUT', `${what} of \`${deadlineMs}\` ms passed`));
  }, deadlineMs);
  // like AbortSignal.timeout: a pending deadline alone does not keep the host process alive
  timer.unref();
  const onParent = () => controller.abort(parent?.reason);
  if (parent?.aborted === true) onParent();
  else parent?.addEventListener('abort', onParent, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    release() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}
