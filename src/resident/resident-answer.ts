// One Claude Code HTTP hook request of the resident server, answered through the hook's own handling
// (`handleHookEvent` with the Claude Code adapter): the same decisions, notices and records as `linkgate hook
// claude-code`. What differs is only how a failure is answered: a process can exit 2, a server must say no in its
// answer. Before the read (`PreToolUse`) every failure is a deny in the answer's body, which blocks whatever the hook's
// `onFailure` says; an event the server does not know gets a non-2xx status, which blocks under `onFailure: "block"`.
import { isRecord } from '../decision/json-value.ts';
import { GateError } from '../errors.ts';
import type { Gate } from '../gate/create-gate.ts';
import { claudeCodeHost, preToolUseDeny } from '../hook/claude-code-host.ts';
import { EventBudget, parseEventJson } from '../hook/event-budget.ts';
import { handleHookEvent } from '../hook/handle-hook-event.ts';
import type { HookContext } from '../hook/hook-context.ts';
import { failedPostAnswer } from '../hook/run-hook.ts';
import { claudeCode } from '../hosts/claude-code.ts';
import { eventPhase } from '../hosts/hook-setup.ts';
import type { LinkRecord } from '../record/link-record.ts';
import type { ResidentStates } from './resident-states.ts';

/** An HTTP answer: status and JSON body. */
export interface ResidentAnswer {
  status: number;
  body: string;
}

/** What answering an event needs: the gate in force, the sessions' state, where records go and the deadline. */
export interface ResidentHandling {
  /** the gate in force now (taken once per event) */
  gate: () => Gate;
  states: ResidentStates;
  /** writes one record of a `PreToolUse` event (a refused read's, a read let through's provisional one) */
  record: (record: LinkRecord) => Promise<void>;
  /** milliseconds one event may take before it is answered as failed */
  deadlineMs: number;
}

/** The answer that lets a call go ahead: Claude Code's empty decision (the gate never grants a permission). */
export const noDecision = '{}';

/**
 * The answer to one event's JSON text. `PreToolUse` is judged and answered as the command hook answers; the post
 * events keep what a tool result returned in the server's state (its links, the addresses of those refused) and
 * answer nothing (the command hook withholds) unless the result names an address the session refused earlier, which
 * is withheld whole; any failure is answered closed.
 */
export async function answerEvent(text: string, handling: ResidentHandling): Promise<ResidentAnswer> {
  let phase: string | undefined;
  let session: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const raw = parseEventJson(text);
    if (!isRecord(raw)) throw new GateError('INPUT_INVALID', 'the hook event is not a json object');
    const name = raw['hook_event_name'];
    phase = typeof name === 'string' ? eventPhase(claudeCode, name) : undefined;
    if (phase === undefined) return unknownEvent(name);
    const event = claudeCodeHost.parse(raw);
    if (event === null) return unknownEvent(name);
    session = event.session;
    const budget = new EventBudget(handling.deadlineMs);
    const pre = event.phase === 'pre';
    const context: HookContext = {
      gate: handling.gate(),
      // no folder: the state is the server's own (`states`)
      stateDir: '',
      states: handling.states,
      host: claudeCode.name,
      budget,
      // after the tool ran the command hook judges and records; here only what the result returned is kept, and a
      // result naming an address the session refused earlier (which the server's memory holds whatever the agent does
      // to the command hook's files) is withheld
      mode: pre ? 'enforce' : 'observe',
      namingMode: 'enforce',
      record: pre ? handling.record : async () => undefined,
      ...(pre ? { recordProvisional: handling.record } : {}),
    };
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new GateError('READ_TIMEOUT', `the hook did not answer within ${handling.deadlineMs} ms`)),
        handling.deadlineMs,
      );
    });
    const answer = await Promise.race([handleHookEvent(event, context), late]);
    // after the tool ran, the only answer in observe mode is a result withheld for naming a refused address
    if (!pre && answer.kind !== 'replace') return { status: 200, body: noDecision };
    const body = claudeCodeHost.format(answer, event);
    return { status: 200, body: body === '' ? noDecision : body };
  } catch (error) {
    const failure = failureLine(error);
    // a tool result the server could not keep whole: the session's state no longer holds all the links it was given
    // (not awaited: a state that does not answer must not keep the answer; the memory state marks it at once)
    if (phase === 'post' && session !== undefined) void markLost(handling, session, failure);
    return failedAnswer(phase, text, failure);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The fail-closed answer of an event in `phase`: before the call, a deny in the body; after it, the result withheld
 * whole (as the command hook's failure answer); an event of no known phase, a status that blocks.
 */
export async function failedAnswer(phase: string | undefined, text: string, failure: string): Promise<ResidentAnswer> {
  if (phase === 'pre') return { status: 200, body: preToolUseDeny(`linkgate hook: ${failure}`) };
  if (phase === 'post') {
    const withheld = await failedPostAnswer(claudeCodeHost, text, failure).catch(() => null);
    if (withheld !== null) return { status: 200, body: withheld };
  }
  return { status: 500, body: JSON.stringify({ error: `linkgate hook: ${failure}` }) };
}

// marks `session`'s state lost (a read of a uri it does not hold is then refused); a mark that cannot be made leaves
// the answer as it is (a memory state does not fail to write)
async function markLost(handling: ResidentHandling, session: string, failure: string): Promise<void> {
  try {
    const state = await handling.states.open(session);
    await state.markLost(`the resident hook could not keep a tool result: ${failure}`);
  } catch {
    // nothing else to do: the answer withholds the result
  }
}

/** The answer to a request that did not carry the session's secret: a status that blocks, never a 2xx. */
export function refusedRequest(why: string): ResidentAnswer {
  return { status: 401, body: JSON.stringify({ error: `linkgate resident hook: ${why}` }) };
}

// an event name the server does not handle: it cannot know what lets it go ahead, so it answers with a status that
// blocks (Claude Code's `onFailure: "block"`)
function unknownEvent(name: unknown): ResidentAnswer {
  const shown = typeof name === 'string' ? `\`${name.slice(0, 64)}\`` : 'no `hook_event_name`';
  return { status: 400, body: JSON.stringify({ error: `linkgate resident hook: unknown event ${shown}` }) };
}

// one line: the error's message, whitespace folded
function failureLine(error: unknown): string {
  const line = error instanceof Error ? error.message : String(error);
  return line.replace(/\s+/g, ' ').trim().slice(0, 500);
}
