import type { Decision } from '../decision/decision.ts';
import { engineError } from '../decision/deny.ts';
import { isRecord } from '../decision/json-value.ts';
import { decidesLinksAtOnce, type Gate } from '../gate/create-gate.ts';
import type { ReadVerdict } from '../gate/decide-read.ts';
import { hasLazyEvidence } from '../gate/read-evidence.ts';
import type { UriReading } from '../link/reused-url.ts';
import { SameDeadlines } from './same-deadlines.ts';

// A `Gate` is an interface: a front end may be handed one that wraps, reloads or replaces `createGate`'s, and that
// one may throw, reject, answer with garbage or never answer. The flow judges through this wrapper, so every such fault
// is an `engine.error` deny within the gate's own deadline (DESIGN §3: any exception or timeout inside the engine
// fails closed), and a front end always has a decision to answer with and record.

// gates this module made, so guarding twice costs nothing
const guarded = new WeakSet<Gate>();
// those over a gate whose `decide` of a link is its `decideLink` (`decidesLinksAtOnce`)
const guardedAtOnce = new WeakSet<Gate>();
// the guard made with the default deadline over a gate, and the policy it was made with: a caller that hands the same
// unguarded gate for each link (`decideLinkLine`) gets the same guard, not a new one (its closures, its timer) per link
const guards = new WeakMap<Gate, { readonly policy: Gate['policy']; readonly made: Gate }>();

/** Shortest judgement deadline, milliseconds: a content check of a large body on a loaded machine is slow, not hung. */
export const minJudgementMs = 10_000;

/**
 * `gate` whose methods never throw or reject, and whose asynchronous ones answer within `deadlineMs` (default: the
 * policy's `read.readTimeoutMs`, at least `minJudgementMs`).
 */
export function guardGate(gate: Gate, deadlineMs?: number): Gate {
  if (guarded.has(gate)) return gate;
  const { policy } = gate;
  if (deadlineMs !== undefined) return newGuard(gate, policy, deadlineMs);
  // a gate that answers with another policy now (one that reloads) gets a guard made with it
  const kept = guards.get(gate);
  if (kept !== undefined && kept.policy === policy) return kept.made;
  const made = newGuard(gate, policy, undefined);
  guards.set(gate, { policy, made });
  return made;
}

function newGuard(gate: Gate, policy: Gate['policy'], deadlineMs: number | undefined): Gate {
  const limitMs = deadlineMs ?? Math.max(policy.document.read.readTimeoutMs, minJudgementMs);
  // one timer for all of this gate's judgements in progress, not one each
  const deadlines = new SameDeadlines(limitMs);
  const failed = (error: unknown): Decision => engineError(policy, error);
  const decision = (value: unknown): Decision =>
    isDecision(value) ? value : failed(new Error('the gate answered with something that is not a decision'));
  const verdict = (value: unknown): ReadVerdict =>
    // this gate's own lazy evidence is an array when read: not built here for a read whose record goes nowhere
    isRecord(value) && isDecision(value['decision']) && (hasLazyEvidence(value) || Array.isArray(value['evidence']))
      ? (value as unknown as ReadVerdict)
      : { decision: failed(new Error('the gate answered with something that is not a read verdict')), evidence: [] };
  // the synchronous methods call the gate inside their own `try`: no closure made per decision (500 links, 500)
  const decideLink = (input: unknown, reading?: UriReading): Decision => {
    try {
      return decision(reading === undefined ? gate.decideLink(input) : gate.decideLink(input, reading));
    } catch (error) {
      return failed(error);
    }
  };
  const decideCredential = (input: unknown): Decision => {
    try {
      return decision(gate.decideCredential(input));
    } catch (error) {
      return failed(error);
    }
  };
  const made: Gate = Object.freeze({
    policy,
    decideLink,
    decideCredential,
    decideRead: (input: unknown) => within(deadlines, limitMs, () => gate.decideRead(input), decision, failed),
    decideReadDetailed: (input: unknown) =>
      within(
        deadlines,
        limitMs,
        () => gate.decideReadDetailed(input),
        verdict,
        (e) => ({ decision: failed(e), evidence: [] }),
      ),
    decideEmbedded: (resource: unknown) =>
      within(deadlines, limitMs, () => gate.decideEmbedded(resource), decision, failed),
    decide: (line: unknown) => within(deadlines, limitMs, () => gate.decide(line), decision, failed),
  });
  guarded.add(made);
  if (decidesLinksAtOnce(gate)) guardedAtOnce.add(made);
  return made;
}

/**
 * The link decision of `line` (a link-stage line) by `guardGate(gate)`: its synchronous `decideLink` when that is
 * what its `decide` gives (`decidesLinksAtOnce`: no promise, no deadline timer per link), else its `decide`.
 * `reading`: the WHATWG reading of the link's uri the flow made when it masked it (`reused-url.ts`), for `decideLink`.
 */
export function decideLinkLine(gate: Gate, line: unknown, reading?: UriReading): Decision | Promise<Decision> {
  // the usual caller hands the guard it made once: one lookup
  if (guardedAtOnce.has(gate)) return gate.decideLink(line, reading);
  const made = guardGate(gate);
  return guardedAtOnce.has(made) ? made.decideLink(line, reading) : made.decide(line);
}

/** Whether `value` has a decision's shape: a known effect, a list of reasons, the policy that decided. */
function isDecision(value: unknown): value is Decision {
  if (!isRecord(value) || !Array.isArray(value['reasons']) || !isRecord(value['policy'])) return false;
  const effect = value['effect'];
  return effect === 'allow' || effect === 'deny' || effect === 'partial';
}

/** `run`'s answer checked by `accept`, or `fail`'s when it throws, rejects or passes `limitMs` milliseconds first. */
function within<T>(
  deadlines: SameDeadlines,
  limitMs: number,
  run: () => unknown,
  accept: (value: unknown) => T,
  fail: (error: unknown) => T,
): Promise<T> {
  return new Promise<T>((resolve) => {
    // held open until the deadline: a hook process whose only pending work is a silent gate must still answer then
    const done = deadlines.add(() => resolve(fail(new Error(`the gate gave no decision within \`${limitMs}\` ms`))));
    const settle = (value: T) => {
      done();
      resolve(value);
    };
    try {
      Promise.resolve(run()).then(
        (value) => settle(accept(value)),
        (error: unknown) => settle(fail(error)),
      );
    } catch (error) {
      settle(fail(error));
    }
  });
}
