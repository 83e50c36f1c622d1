// The resident server's session state: in its own memory, out of the gated user's reach (the command hook's state
// folder is the gated user's to write). It keeps what the tool results of a session returned (the `PostToolUse` events
// the printed set-up also sends it); a read's outcome is judged by the command hook, which decides the link again
// from its own state, so a read the server let through is not kept waiting here.
import { SessionState, type SessionStates } from '../hook/session-state.ts';
import { memoryStateEntries, type StateEntries } from '../hook/state-entries.ts';

/** Sessions kept at most; the one used longest ago is forgotten first (its links then count as never seen). */
export const maxResidentSessions = 256;

/** Each session's state in this process, the most recent `maxResidentSessions` of them. */
export class ResidentStates implements SessionStates {
  private readonly sessions = new Map<string, SessionState>();
  private readonly limit: number;

  /** Keeps at most `limit` sessions. */
  constructor(limit: number = maxResidentSessions) {
    this.limit = limit;
  }

  /** The state of `session`, empty at its first event. */
  open(session: string): Promise<SessionState> {
    let state = this.sessions.get(session);
    if (state === undefined) state = SessionState.over(withoutPendingReads(memoryStateEntries()));
    else this.sessions.delete(session);
    this.sessions.set(session, state);
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.limit) break;
      this.sessions.delete(oldest);
    }
    return Promise.resolve(state);
  }

  /** How many sessions are kept. */
  get size(): number {
    return this.sessions.size;
  }
}

// a pending read (`read-…`) is taken only by a post event of the read, which goes to the command hook: not kept
function withoutPendingReads(store: StateEntries): StateEntries {
  return {
    names: (prefix) => store.names(prefix),
    read: (name) => store.read(name),
    remove: (name) => store.remove(name),
    write: async (name, text) => {
      if (!name.startsWith('read-')) await store.write(name, text);
    },
  };
}
