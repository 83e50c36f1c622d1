// Session state for hooks that run in the host's own process (the Claude Agent SDK's `hooks` option): the events of a
// session arrive as calls in one process, so the state needs no file, and a read costs no file i/o. The rules are the
// file state's own (`SessionState`): the per-event link cap, the servers of links it could not keep, a pending read
// taken once.
import { SessionState, type SessionStates } from './session-state.ts';
import { memoryStateEntries } from './state-entries.ts';

/** Each session's state in a map of this process, kept as long as this object lives (one per set of in-process hooks). */
export class MemorySessionStates implements SessionStates {
  private readonly sessions = new Map<string, SessionState>();

  /** The state of `session`, made empty at its first event. */
  open(session: string): Promise<SessionState> {
    let state = this.sessions.get(session);
    if (state === undefined) {
      state = SessionState.over(memoryStateEntries());
      this.sessions.set(session, state);
    }
    return Promise.resolve(state);
  }
}
