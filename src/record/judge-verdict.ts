import type { Decision } from '../decision/decision.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { LinkStages, NextStep, Verdict } from './link-record.ts';

/** How a read ended, as the hook saw it; `not-attempted` when no read was sent and no cache entry was used. */
export type ReadOutcome =
  | { kind: 'not-attempted'; why: string }
  | { kind: 'complete' }
  /** `notFound`: the server said the resource does not exist (`isNotFoundError`) */
  | { kind: 'error'; code: number; notFound?: boolean }
  | { kind: 'timeout'; deadlineMs: number }
  | { kind: 'input-required' }
  | { kind: 'result-type-unknown'; resultType: string }
  | { kind: 'failed'; why: string }
  /** a direct fetch stopped by the policy at `hop` (1-based) before any body: a refused redirect, downgrade or hop limit */
  | { kind: 'refused'; hop: number }
  /** a direct fetch's final response had a non-2xx http `status` */
  | { kind: 'http-error'; status: number };

/** Everything the verdict depends on; `enforced` is false in observe mode. */
export interface VerdictInput {
  stages: LinkStages;
  decisions: { link: Decision; read: Decision | null };
  outcome: ReadOutcome;
  enforced: boolean;
}

/** The verdict and `next` of one record, judged by what reached the model's context (DESIGN §2). */
export function judgeVerdict(input: VerdictInput): { verdict: Verdict; next: NextStep | null } {
  const { stages, decisions, outcome } = input;
  if (input.enforced && decisions.link.effect === 'deny')
    return { verdict: 'link-only', next: linkDeniedNext(decisions.link) };
  if (outcome.kind === 'not-attempted') {
    return {
      verdict: 'link-only',
      next: { boundary: 'host-link-handling', hint: `no read was issued: ${outcome.why}` },
    };
  }
  if (outcome.kind === 'refused') {
    const read = decisions.read;
    const by = read === null ? 'the policy' : describeReasons(read);
    const where =
      outcome.hop === 1 ? 'the fetch was refused before its first request' : `redirect hop ${outcome.hop} was refused`;
    return { verdict: 'link-only', next: { boundary: 'policy', hint: `${where} by ${by}` } };
  }
  const unfinished = unfinishedHint(outcome);
  if (unfinished !== null) return { verdict: 'unverifiable', next: { boundary: 'origin-server', hint: unfinished } };
  const read = decisions.read;
  if (read === null || hasEngineError(read)) {
    return {
      verdict: 'unverifiable',
      next: { boundary: 'policy', hint: 'the read decision is missing or failed: check the gate and its policy' },
    };
  }
  const delivered = stages.delivered;
  if (delivered === null || delivered.items.length === 0) {
    const hint =
      read.effect === 'deny'
        ? `read denied by ${describeReasons(read)}`
        : `nothing deliverable: ${describeReasons(read)}`;
    return { verdict: 'link-only', next: { boundary: 'policy', hint } };
  }
  const received = stages.received;
  // a body cut before the gate saw it (at a cap, or by the host) is never whole, in observe mode either
  const whole =
    received !== null &&
    received.truncated !== true &&
    delivered.items.length === received.itemCount &&
    delivered.dropped.length === 0;
  // observe mode delivers everything, so its verdict says what reached the context; the decisions keep the deny
  if (whole && (read.effect === 'allow' || !input.enforced))
    return { verdict: 'body-obtained', next: nextForObtained(stages) };
  if (read.effect === 'deny' && input.enforced) {
    // unreachable when delivery follows the decision; fail closed rather than report a deny as obtained
    return { verdict: 'link-only', next: { boundary: 'policy', hint: `read denied by ${describeReasons(read)}` } };
  }
  const cut = delivered.dropped.map((d) => `${d.index} (${d.codes.join(', ') || d.effect})`).join('; ');
  const hint = cut === '' ? `delivered in part: ${describeReasons(read)}` : `items dropped: ${cut}`;
  return { verdict: 'partially-interpreted', next: { boundary: 'context-assembly', hint } };
}

/** The `next` of a link refused by its link decision `link` (enforce mode): the policy, and the rules that denied it. */
export function linkDeniedNext(link: Decision): NextStep {
  return { boundary: 'policy', hint: `link denied by ${describeReasons(link)}` };
}

function unfinishedHint(outcome: ReadOutcome): string | null {
  switch (outcome.kind) {
    case 'error':
      if (outcome.notFound === true)
        return `the server has no resource at this uri (json-rpc error \`${outcome.code}\`, not found): check the uri`;
      return `the read failed with json-rpc error \`${outcome.code}\`: check the origin server, the uri and its permissions`;
    case 'timeout':
      return `no answer within the \`${outcome.deadlineMs}\` ms deadline: check the origin server`;
    case 'input-required':
      return 'the server asked for input (`input_required`); answering it for a link read needs `read.answerInputRequired`';
    case 'result-type-unknown':
      // the server's value is in the read decision's reason, quoted: a hint holds no server text (notices show it)
      return "an unknown result type: check the origin server's protocol revision";
    case 'failed':
      return `the read did not complete: ${outcome.why}`;
    case 'http-error':
      return `the fetch ended with http status \`${outcome.status}\`: check the origin server, the url and its permissions`;
    default:
      return null;
  }
}

function nextForObtained(stages: LinkStages): NextStep | null {
  const received = stages.received;
  if (received === null) return null;
  if (received.cache !== null) {
    return {
      boundary: 'cache',
      hint: `served from cache, age \`${received.cache.ageMs}\` ms of ttlMs \`${received.cache.ttlMs}\``,
    };
  }
  if (received.itemCount > 0 && received.blobItems === received.itemCount) {
    // a declared type is the server's text (`normalizeMime` only lower-cases it and cuts its parameters): quoted
    const kinds = [...new Set(received.items.map((i) => i.kind ?? i.declaredMime ?? 'unknown'))].map(quoteValue);
    return {
      boundary: 'mime-decoding',
      hint: `only \`blob\` items came back (${kinds.join(', ')}): check that the host decodes them for the model`,
    };
  }
  return null;
}

function hasEngineError(d: Decision): boolean {
  return d.reasons.some((r) => r.code === 'engine.error' || r.code === 'input.invalid');
}

/** `rule` (code) pairs of a decision, for hints; `no reason given` when empty. */
export function describeReasons(d: Decision): string {
  const parts = d.reasons.map((r) => `\`${r.rule}\` (${r.code})`);
  return parts.length === 0 ? 'no reason given' : [...new Set(parts)].join(', ');
}
