import { AddressSearch } from './address-search.ts';

// One message's refused links (a tool result's `content`, JSON texts and `structuredContent`; a prompt's or sampling
// request's blocks), as its notices are worded: a notice names a refused link by its name, and a name that spells the
// address of any link the same message refused (in any form the read-back search knows: as written, read back, a text
// blob or base64 run decoded) would hand that address on, so it is left out. A name spelling an address nobody refused
// is what the server called its link, and is shown. Notices worded with no ledger (a lone read's) show no name that
// spells any address at all (`gate-notice.ts`).

/** The addresses of the links one message refused (each searched in every form `AddressSearch` knows). */
export class MessageLedger {
  readonly #uris = new Set<string>();
  // built on the first question, from every uri added by then (a message refusing nothing builds nothing)
  #search: AddressSearch<true> | null = null;
  // false for a message whose refused links are not all known (a cap withheld some unjudged): it spells every name
  #whole = true;

  /**
   * The ledger of a message some of whose links a cap withheld unjudged: their addresses are unknown, and any name may
   * spell one (a single-label host with a path, a bare host name), so its notices show no name at all.
   */
  static unknown(): MessageLedger {
    const ledger = new MessageLedger();
    ledger.#whole = false;
    return ledger;
  }

  /** A ledger of `uris` (each a refused link's). */
  static of(uris: Iterable<string>): MessageLedger {
    const ledger = new MessageLedger();
    for (const uri of uris) ledger.add(uri);
    return ledger;
  }

  /** Notes the uri of a link the message refused (for any reason). */
  add(uri: string): void {
    if (this.#uris.has(uri)) return;
    this.#uris.add(uri);
    this.#search?.add(uri, true);
  }

  /** How many refused links' uris it holds. */
  get size(): number {
    return this.#uris.size;
  }

  /** Whether `text` (a link's name) names the address of a link the message refused, as written or read back. */
  spells(text: string): boolean {
    if (!this.#whole) return true;
    if (this.#search === null) {
      this.#search = new AddressSearch<true>();
      for (const uri of this.#uris) this.#search.add(uri, true);
    }
    return this.#search.find(text) === true;
  }
}
