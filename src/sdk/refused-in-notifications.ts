import { addressOf, mayReadBack, readBack } from '../flow/gate-notice.ts';
import { type LinkStep, linkRefused } from '../flow/link-steps.ts';

// A server's log and progress notifications pass through unjudged, and a host may show them to its user or its model:
// once one of the server's links was refused, a notification naming that link's address is dropped (enforce mode).

/** Notifications whose text a host may show: searched for the addresses of the session's refused links. */
export const searchedNotifications: ReadonlySet<string> = new Set(['notifications/message', 'notifications/progress']);

/** Most refused addresses a session keeps for its notifications (the oldest go first). */
const maxKept = 1024;
/** Longest notification searched, characters of its JSON; a longer one is dropped while any address is kept. */
const maxSearchedChars = 1 << 20;

/** The addresses of one session's refused links, and the check of its notifications against them. */
export class RefusedAddresses {
  readonly #addresses = new Set<string>();

  /** Keeps the address of each refused step's link. */
  note(steps: readonly (LinkStep | undefined)[]): void {
    for (const step of steps) {
      if (step === undefined || !linkRefused(step)) continue;
      const address = addressOf(step.link?.uri ?? step.discovered.uri);
      if (address.length < 3) continue;
      this.#addresses.delete(address);
      this.#addresses.add(address);
      if (this.#addresses.size > maxKept) this.#addresses.delete(this.#addresses.values().next().value as string);
    }
  }

  /** Whether `message` (a notification) names a refused address, as written or read back; past the search's bounds: true. */
  names(message: unknown): boolean {
    if (this.#addresses.size === 0) return false;
    let text: string;
    try {
      text = JSON.stringify(message) ?? '';
    } catch {
      // nested past what JSON.stringify can write: not searched, so not passed on
      return true;
    }
    if (text.length > maxSearchedChars) return true;
    const lower = text.toLowerCase();
    const back = mayReadBack(text) ? readBack(text).toLowerCase() : '';
    for (const address of this.#addresses) if (lower.includes(address) || back.includes(address)) return true;
    return false;
  }
}
