import type { ReasonStage } from '../decision/decision.ts';
import type { Decision } from '../decision/decision.ts';
import { deny, reason } from '../decision/deny.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import type { ItemEvidence } from '../gate/decide-read.ts';
import type { Policy } from '../policy/policy.ts';
import type { FetchStop } from './fetch-ending.ts';
import type { FetchHop, FetchResult } from './fetch-result.ts';

/** What one direct fetch has done so far: its hops, its clock and how it masks urls. */
export interface FetchTrace {
  hops: FetchHop[];
  /** masks a url for the result: no userinfo, no query values, no query credential of the first url anywhere */
  mask: (url: string) => string;
  /** `performance.now()` at the start, milliseconds */
  started: number;
  policy: Policy;
  final?: { url: URL; status: number; contentType: string | null };
}

/** Body bytes kept and whether the body was cut at `read.maxBytes`. */
export interface ReceivedBody {
  bytes: number;
  truncated: boolean;
}

/** The fetch's result at `stop`: its decision, its ending, the trace, and the body when it may be delivered. */
export function finish(
  trace: FetchTrace,
  stop: FetchStop,
  received: ReceivedBody = { bytes: 0, truncated: false },
  evidence: ItemEvidence[] = [],
  body?: Uint8Array,
): FetchResult {
  const result: FetchResult = {
    transport: 'https-direct',
    decision: stop.decision,
    ending: stop.ending,
    hops: trace.hops,
    finalUrl: trace.final === undefined ? null : trace.mask(trace.final.url.href),
    status: trace.final?.status ?? null,
    contentType: trace.final?.contentType ?? null,
    bytes: received.bytes,
    truncated: received.truncated,
    elapsedMs: Math.round(performance.now() - trace.started),
    evidence,
  };
  if (body !== undefined) result.body = body;
  return result;
}

/** A deny with one reason. */
export function denied(policy: Policy, code: ReasonCode, rule: string, stage: ReasonStage, message: string): Decision {
  return deny(policy, reason(code, rule, stage, message));
}

/** The WHATWG parse of `text`, or undefined when it does not parse. */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
