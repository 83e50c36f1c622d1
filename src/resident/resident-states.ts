// The resident server's session state: in its own memory, out of the gated user's reach (the command hook's state
// folder is the gated user's to write). It keeps what the tool results of a session returned (the `PostToolUse` events
// the printed set-up also sends it); a read's outcome is judged by the command hook, which decides the link again
// from its own state, so a read the server let through is not kept waiting here.
//
// What it cannot keep it never forgets silently: a session pushed out by newer ones is remembered by a digest of its
// id, and its state, if it comes back, is marked lost (`SessionState.markLost`): a read of a uri it does not hold is
// refused (`hook.state-lost`), never judged as a link no tool returned. When even the forgotten ids are too many to
// remember, every session the server does not hold is opened lost.
import { createHash } from 'node:crypto';
import { SessionState, type SessionStates } from '../hook/session-state.ts';
import { memoryStateEntries, type StateEntries } from '../hook/state-entries.ts';

/** Sessions kept at most; the one used longest ago is forgotten first (and marked lost if it comes back). */
export const maxResidentSessions = 256;

/** Forgotten session ids remembered at most (a digest each); past it every session not held is opened lost. */
export const maxForgottenSessions = 65_536;

/** Each session's state in this process, the most recent `maxResidentSessions` of them. */
export class ResidentStates implements SessionStates {
  private readonly sessions = new Map<string, SessionState>();
  private readonly forgotten = new Set<string>();
  private readonly limit: number;
  private readonly forgetLimit: number;
  /** true once more sessions were forgotten than `forgetLimit`: every session not held is opened lost */
  private overflowed = false;

  /** Keeps at most `limit` sessions, and remembers at most `forgetLimit` forgotten ones. */
  constructor(limit: number = maxResidentSessions, forgetLimit: number = maxForgottenSessions) {
    this.limit = limit;
    this.forgetLimit = forgetLimit;
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
    const key = digest(session);
    const lost = this.forgotten.delete(key)
      ? `the resident hook held more than ${this.limit} sessions and forgot this one`
      : this.overflowed
        ? `the resident hook forgot more than ${this.forgetLimit} sessions and cannot tell whether it held this one`
        : undefined;
    // held before anything is awaited: an event of the same session meanwhile opens this very state
    this.sessions.set(session, state);
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.limit) break;
      this.sessions.delete(oldest);
      this.forget(digest(oldest));
    }
    if (lost !== undefined) await state.markLost(lost);
    return state;
  }

  /** How many sessions are kept. */
  get size(): number {
    return this.sessions.size;
  }

  /** True once more sessions were forgotten than can be remembered: every session not held is opened lost. */
  get forgetful(): boolean {
    return this.overflowed;
  }

  private forget(key: string): void {
    if (this.overflowed) return;
    if (this.forgotten.size >= this.forgetLimit) {
      // from now on every session not held is opened lost: the ids remembered so far are no longer needed
      this.overflowed = true;
      this.forgotten.clear();
      return;
    }
    this.forgotten.add(key);
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

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
