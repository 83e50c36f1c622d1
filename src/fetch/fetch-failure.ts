import type { Policy } from '../policy/policy.ts';
import { failedWith, type FetchStop } from './fetch-ending.ts';
import { denied } from './fetch-trace.ts';

/** How a request or a body read broke off: the connect deadline, an abort (deadline or caller), or a failure. */
export type BreakKind = 'connect-timeout' | 'aborted' | 'failed';

/** The deadlines a fetch runs under, milliseconds, and the caller's own abort. */
export interface FetchDeadlines {
  connectTimeoutMs: number;
  readTimeoutMs: number;
  callerSignal: AbortSignal | undefined;
}

/** The stop of a fetch that broke off: a timeout names the deadline it passed; the caller's abort is a failure. */
export function brokeOff(policy: Policy, kind: BreakKind, message: string, deadlines: FetchDeadlines): FetchStop {
  if (kind === 'connect-timeout') {
    const decision = denied(policy, 'read.timeout', 'fetch.connectTimeoutMs', 'read', message);
    return { decision, ending: { kind: 'timeout', deadlineMs: deadlines.connectTimeoutMs } };
  }
  if (kind === 'aborted' && deadlines.callerSignal?.aborted === true)
    return failedWith(denied(policy, 'fetch.failed', 'fetch', 'read', 'the fetch was aborted by the caller'));
  if (kind === 'aborted') {
    const { readTimeoutMs } = deadlines;
    const why = `the fetch passed its deadline of ${readTimeoutMs} ms`;
    const decision = denied(policy, 'read.timeout', 'read.readTimeoutMs', 'read', why);
    return { decision, ending: { kind: 'timeout', deadlineMs: readTimeoutMs } };
  }
  return failedWith(denied(policy, 'fetch.failed', 'fetch', 'read', message));
}
