// The Claude Agent SDK's in-process `hooks` option, judged by the same host mapping as `linkgate hook claude-code`:
// the SDK hands each hook event to a callback in the host process, so one event costs a function call, not a process
// start. The SDK's own default for a failed callback is to let the action go ahead (`onFailure: 'continue'`), so these
// callbacks never throw: any failure (a policy that does not load, a bad event, an i/o fault) is answered with the
// read denied or the tool's result withheld.
import type { FlowMode } from '../flow/link-steps.ts';
import { checkMode } from '../flow/mode-option.ts';
import { claudeCodeHost, preToolUseDeny } from '../hook/claude-code-host.ts';
import { claudeCode, type claudeCodeEvents } from '../hosts/claude-code.ts';
import { eventPhase } from '../hosts/hook-setup.ts';
import { handleHookEvent } from '../hook/handle-hook-event.ts';
import type { HookContext } from '../hook/hook-context.ts';
import { failedPostAnswer } from '../hook/run-hook.ts';
import { MemorySessionStates } from '../hook/memory-session-states.ts';
import { isRecord } from '../decision/json-value.ts';
import type { LoadPolicyOptions } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { lazyGate } from './lazy-gate.ts';
import { LinkLedger } from './link-ledger.ts';
import { errorLine } from '../decision/error-line.ts';

/** The host name written into each record these hooks write (`record.host.name`). */
export const claudeAgentHostName = 'claude-agent-sdk';

/** What the hooks judge with: the policy (a file loaded once, at the first event, or a loaded one), and where records go. */
export interface ClaudeAgentHooksOptions {
  /** the policy file (yaml), loaded at the first event; a policy that does not load fails every event closed */
  policy: string | Policy;
  /** how the file is loaded (review signatures); only with a policy file */
  policyOptions?: LoadPolicyOptions;
  /** receives every finished record; the caller closes it after the query ends */
  records: RecordSink;
  /**
   * folder of the per-session state, kept in files as `linkgate hook` keeps it (for hooks of one session run by
   * several processes); default: this process's memory, no file (the events of an in-process session arrive here)
   */
  stateDir?: string;
  /** `observe` answers nothing and records what enforcing would have done; default `enforce` */
  mode?: FlowMode;
}

/** A hook callback as the SDK calls it (`HookCallback`): the event, the tool-use id, an abort signal; never rejects. */
export type ClaudeAgentHookCallback = (
  input: unknown,
  toolUseId: string | undefined,
  options: { signal: AbortSignal },
) => Promise<Record<string, unknown>>;

/** One entry of the SDK's `hooks` option (`HookCallbackMatcher`), written structurally. */
export interface ClaudeAgentHookMatcher {
  hooks: ClaudeAgentHookCallback[];
  /** `block`: a callback that fails or times out blocks the action (the SDK's default, `continue`, lets it run) */
  onFailure: 'block';
}

/** The value for the SDK's `hooks` option: the tool events the gate judges (Claude Code's, src/hosts/), every tool matched. */
export type ClaudeAgentHooks = Record<keyof typeof claudeCodeEvents, ClaudeAgentHookMatcher[]> & {
  /**
   * Writes the last record of each link a tool listed and no read followed (its discovery record's decision), for
   * every session so far: call it when the query ended, before closing `records` (the SDK delivers no session-end
   * event to in-process hooks). Not enumerable, so the SDK never sees it as an event.
   */
  readonly flush: () => Promise<void>;
};

/**
 * In-process hooks for the Claude Agent SDK (`query({ prompt, options: { hooks: linkgateHooks({…}) } })`): the same
 * judging as `linkgate hook claude-code` (a read of a refused link is denied before it runs, a body the policy does not
 * allow is replaced by the notice, one record per read), with no process per event, failing closed.
 */
export function claudeAgentHooks(options: ClaudeAgentHooksOptions): ClaudeAgentHooks {
  const gateOf = lazyGate(options);
  const mode = checkMode(options.mode);
  // the session state: files only when asked for, else memory (with the same rules: the per-event cap, the overflow
  // servers, a pending read taken once)
  const state =
    options.stateDir === undefined
      ? { stateDir: '', states: new MemorySessionStates() }
      : { stateDir: options.stateDir };
  // one record per link: a discovery record as a tool result lists it, superseded by its read's or the session end's
  const ledger = new LinkLedger(options.records);
  const callback: ClaudeAgentHookCallback = async (input) => {
    try {
      if (!isRecord(input)) throw new TypeError('the hook event is not an object');
      // the SDK hands an MCP result with `structuredContent` as that value, a JSON string the model reads (0.3.336):
      // the host mapping judges such a string as the text it is (`stringIsText`, Claude Code's own post events)
      const event = claudeCodeHost.parse(input);
      if (event === null) return {};
      const context: HookContext = {
        gate: await gateOf(),
        ...state,
        host: claudeAgentHostName,
        mode,
        record: (record) => ledger.finished(record),
        recordDiscovered: (record) => ledger.discovered(record),
        recordEmbedded: (record) => ledger.embedded(record),
      };
      const answer = await handleHookEvent(event, context);
      if (mode === 'observe') return {};
      return outputOf(claudeCodeHost.format(answer, event));
    } catch (error) {
      return mode === 'observe' ? {} : failedAnswer(input, error);
    }
  };
  const matcher = (): ClaudeAgentHookMatcher[] => [{ hooks: [callback], onFailure: 'block' }];
  // one entry per event the gate needs, as the host description names them
  const hooks = Object.fromEntries(Object.keys(claudeCode.events).map((event) => [event, matcher()])) as Record<
    keyof typeof claudeCodeEvents,
    ClaudeAgentHookMatcher[]
  >;
  return Object.defineProperty(hooks, 'flush', { value: () => ledger.flush(), enumerable: false }) as ClaudeAgentHooks;
}

// the host's answer text is one JSON object, or empty for no answer
function outputOf(text: string): Record<string, unknown> {
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

// a failure after the tool ran withholds its whole result (and deletes what the host saved for it); any other failure,
// a pre-event included, denies the call
async function failedAnswer(input: unknown, error: unknown): Promise<Record<string, unknown>> {
  const failure = errorLine(error);
  try {
    const text = await failedPostAnswer(claudeCodeHost, JSON.stringify(input), failure);
    if (text !== null) return outputOf(text);
  } catch {
    // the deny below still answers
  }
  const reason = `linkgate blocked this call: the hook failed: ${failure}`;
  const event = isRecord(input) ? input['hook_event_name'] : undefined;
  if (typeof event === 'string' && eventPhase(claudeCode, event) === 'pre') return outputOf(preToolUseDeny(reason));
  return { decision: 'block', reason };
}
