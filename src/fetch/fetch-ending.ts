import type { Decision } from '../decision/decision.ts';
import type { ReadOutcome } from '../record/judge-verdict.ts';

/**
 * How a direct fetch ended, said where it happened, in the record's terms (DESIGN §2): `refused` by the policy at
 * `hop` (1-based) before any body, `timeout` at the connect or read deadline (`deadlineMs`), `http-error` for a
 * non-2xx final `status`, `complete` when a body was checked (or refused whole for its size), `failed` for anything
 * else (`why` is recorded).
 */
export type FetchEnding = Extract<ReadOutcome, { kind: 'complete' | 'refused' | 'timeout' | 'http-error' | 'failed' }>;

/** The decision a fetch stops with and how it ended. */
export interface FetchStop {
  decision: Decision;
  ending: FetchEnding;
}

/** A stop that failed: `why` is the decision's first reason (what the engine, the input or the network said). */
export function failedWith(decision: Decision): FetchStop {
  return { decision, ending: { kind: 'failed', why: decision.reasons[0]?.message ?? 'the fetch failed' } };
}

/** True when the gate itself failed on a decision (`engine.error`, `input.invalid`): the fetch failed, nothing was refused. */
export function gateFailed(decision: Decision): boolean {
  return decision.reasons.some((r) => r.code === 'engine.error' || r.code === 'input.invalid');
}
