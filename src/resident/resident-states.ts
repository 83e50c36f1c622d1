// The resident server's session state: in its own memory, out of the gated user's reach (the command hook's state
// folder is the gated user's to write). It keeps what the tool results of a session returned (the `PostToolUse` events
// the printed set-up also sends it); a read's outcome is judged by the command hook, which decides the link again
// from its own state, so a read the server let through is not kept waiting here.
//
// What it cannot keep it never forgets silently: a session pushed out by newer ones is remembered in a filter of the
// digests of forgotten ids, and its state, if it comes back, is marked lost (`SessionState.markLost`): a read of a uri
// it does not hold is refused (`hook.state-lost`), never judged as a link no tool returned. The filter has a fixed size
// however many sessions are forgotten (`ForgottenSessions`): it never misses a forgotten session; its errors go one way
// only, a session it never held now and then taken for a forgotten one and opened lost (closed for that session's reads
// of uris its tools did not return), and never the other.
import { SessionState, type SessionStates } from '../hook/session-state.ts';
import { memoryStateEntries, type StateEntries } from '../hook/state-entries.ts';
import { ForgottenSessions } from './forgotten-sessions.ts';

/** Sessions kept at most; the one used longest ago is forgotten first (and marked lost if it comes back). */
export const maxResidentSessions = 256;

/** Each session's state in this process, the most recent `maxResidentSessions` of them. */
export class ResidentStates implements SessionStates {
  private readonly sessions = new Map<string, SessionState>();
  private readonly forgotten: ForgottenSessions;
  private readonly limit: number;

  /** Keeps at most `limit` sessions; `forgotten` remembers those pushed out (its default: 1 MiB, `ForgottenSessions`). */
  constructor(limit: number = maxResidentSessions, forgotten: ForgottenSessions = new ForgottenSessions()) {
    this.limit = limit;
    this.forgotten = forgotten;
  }

  /** The state of `session`: empty at its first event, marked lost when the server held it once and forgot it. */
  async open(session: string): Promise<SessionState> {
    let state = this.sessions.get(session);
    if (state !== undefined) {
      this.sessions.delete(session);
      this.sessions.set(session, state);
      return state;
    }
    state = SessionState.over(withoutPendingReads(memoryStateEntries()));
    const lost = this.forgotten.mayHold(session)
      ? `the resident hook held more than ${this.limit} sessions and forgot this one (or, rarely, one whose id it cannot tell from this one's)`
      : undefined;
    // held before anything is awaited: an event of the same session meanwhile opens this very state
    this.sessions.set(session, state);
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.limit) break;
      this.sessions.delete(oldest);
      this.forgotten.add(oldest);
    }
    if (lost !== undefined) await state.markLost(lost);
    return state;
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
