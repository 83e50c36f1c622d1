import type { Decision } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import {
  type AddressForm,
  AddressSearch,
  addressForms,
  maxAddressChars,
  minAddressChars,
} from '../flow/address-search.ts';
import { blobText } from '../flow/blob-text.ts';
import { addressOf } from '../flow/read-back.ts';
import { refusedForAddress } from '../flow/refused-for-address.ts';
import { type LinkStep, linkRefused } from '../flow/link-steps.ts';

export { maxAddressChars } from '../flow/address-search.ts';
export { refusedForAddress } from '../flow/refused-for-address.ts';

// A server's notifications and the answers the gate has no judgement of its own for pass through unjudged, and a host
// may show them to its user or its model: once one of the server's links was refused for its address (an internal
// or metadata address, credentials in it, an address parsers read differently, a local file), a notification naming
// that address is dropped, an answer naming it replaced by the gate's error or, in a listing, the string naming it by
// the gate's notice (enforce mode, `plain-answers.ts`). A link refused for what it is not (its origin is not listed,
// its server is not allowed, its declared type or size, an engine failure) leaves its address free to be named.

/**
 * The address a link `decision` denied for its address (its effect, whatever the mode; `refusedForAddress`) is kept
 * by, as a hook's session state stores it: at most `maxAddressChars` long; null when it was refused for anything else,
 * or is too short to search for.
 */
export function refusedAddressOf(decision: Decision, uri: string): string | null {
  if (decision.effect !== 'deny' || !refusedForAddress(decision.reasons, uri)) return null;
  const address = addressOf(uri).slice(0, maxAddressChars);
  return address.length < minAddressChars ? null : address;
}

/** What stands for a listing's string that names a refused link's address, in every front end. */
export const namedNotice =
  'linkgate withheld this text: it names the address of a link the gate refused in this session';

/**
 * Most refused addresses a hook's session state keeps in its files (`maxRefusedAddresses`; past it the state is not
 * whole and fails closed). The decorator's `RefusedAddresses` keeps all, bounded by characters.
 */
export const maxKept = 1024;

/**
 * The forms `RefusedAddresses.keep` searches for a refused `address` (as `refusedAddressOf` gives it) by: it read as a
 * uri's address again (the forms of `http://` + it: read back, IDNA, dotted); one of `maxAddressChars` may have been
 * cut, so none of its forms ends with its host.
 */
export function keptForms(address: string): AddressForm[] {
  const forms = addressForms(`http://${address}`);
  return address.length >= maxAddressChars ? forms.map((f) => ({ ...f, hostEnd: false })) : forms;
}

/** The list of each listing method's answer. */
const listingKeys: ReadonlyMap<string, string> = new Map([
  ['tools/list', 'tools'],
  ['prompts/list', 'prompts'],
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resourceTemplates'],
]);
/** The members that say what a listing entry is: one naming a refused address leaves the entry out. */
const identifying = ['name', 'uri', 'uriTemplate'] as const;
/** Deepest nesting of a listing entry whose strings are replaced one by one (an input schema); deeper: left out. */
export const maxListedDepth = 32;

/** The default connection cap of `RefusedAddresses`, bytes: above the default policy's `connectionByteCap`. */
export const defaultCapBytes = 16 << 20;

/**
 * Characters of address forms a session keeps whole, for a connection cap of `capBytes`: a sixteenth of it (the
 * forms of the addresses of one message at the cap come to about that much); past it the oldest are kept by their
 * start only, and a text holding one of those counts as naming it.
 */
export function keptCharsFor(capBytes: number): number {
  return Math.max(64 * 1024, Math.floor(capBytes / 16));
}

// a resource's `blob` with the type declared beside it (`mimeType`, its `charset`), as `names` reads it
class DeclaredBlob {
  constructor(
    readonly blob: string,
    readonly declared: string,
  ) {}
}

// the member `key` of `holder` as `names` walks it: a `blob` string beside a `mimeType` string carries that type
function declaredBlob(holder: object, key: string, value: unknown): unknown {
  if (key !== 'blob' || typeof value !== 'string') return value;
  const declared = (holder as Record<string, unknown>)['mimeType'];
  return typeof declared === 'string' ? new DeclaredBlob(value, declared) : value;
}

// the texts of a list's text items one after the other, as a host shows a result's items to the model (an address cut
// across two items is whole there); null when it holds fewer than two
class JoinedTexts {
  constructor(readonly text: string) {}
}

function joinedTexts(items: readonly unknown[]): JoinedTexts | null {
  const texts: string[] = [];
  for (const item of items)
    if (isRecord(item) && item['type'] === 'text' && typeof item['text'] === 'string') texts.push(item['text']);
  return texts.length < 2 ? null : new JoinedTexts(texts.join(''));
}

/** The addresses of one session's refused links, and the check of its later messages against them. */
export class RefusedAddresses {
  readonly #search: AddressSearch<true>;
  /**
   * Characters of one message's strings searched, as written (the connection's cap: no message a connection carries
   * is longer as JSON; the text a base64 string decodes to is searched too, at most three quarters more); a message
   * with more is not passed on while any address is kept.
   */
  readonly maxSearchedChars: number;

  /** `capBytes`: the connection's cap on one message (`connectionByteCap`), which bounds what is kept and searched. */
  constructor(capBytes: number = defaultCapBytes) {
    this.maxSearchedChars = capBytes;
    this.#search = new AddressSearch<true>({ maxChars: keptCharsFor(capBytes), forgotten: true });
  }

  /** How many addresses are kept whole. */
  get size(): number {
    return this.#search.size + this.#search.forgotten;
  }

  /** Keeps the address of each step's link refused for its address. */
  note(steps: readonly (LinkStep | undefined)[]): void {
    for (const step of steps) {
      if (step === undefined || !linkRefused(step)) continue;
      const uri = step.link?.uri ?? step.discovered.uri;
      if (refusedForAddress(step.linkDecision.reasons, uri)) this.#search.add(uri, true);
    }
  }

  /**
   * Keeps the address of a link the front end decided itself (one in `structuredContent`, a JSON text, a URL
   * elicitation) when `decision` refuses it for its address.
   */
  noteDecided(uri: string, decision: Pick<Decision, 'effect' | 'reasons'>): void {
    if (decision.effect === 'deny' && refusedForAddress(decision.reasons, uri)) this.#search.add(uri, true);
  }

  /**
   * Keeps `addresses` (each as `refusedAddressOf` gives it: no scheme, no userinfo), in all their forms; one of
   * `maxAddressChars` may have been cut, so it is found whatever follows it. `made`: the `keptForms` of some of them,
   * made before (a hook keeps them in its state: making them is most of the cost).
   */
  keep(addresses: Iterable<string>, made?: ReadonlyMap<string, readonly AddressForm[]>): void {
    for (const address of addresses) {
      if (address.length < minAddressChars) continue;
      this.#search.add(address, true, made?.get(address) ?? keptForms(address));
    }
  }

  /**
   * Whether `message` names a refused address in any of its strings, member names and numbers, each searched on its own
   * as a host reads it (decoded, not as JSON text), as written and read back, and a base64 string of text (a text blob)
   * as that text too (`blobText`), and the texts of a list's text items one after the other (a host shows them so);
   * past the search's bound of characters,
   * or a value that is none of JSON's: true. Walked with a stack, so no nesting overflows it.
   */
  names(message: unknown): boolean {
    if (this.#search.empty) return false;
    const stack: unknown[] = [message];
    let chars = 0;
    while (stack.length > 0) {
      const value = stack.pop();
      let text: string | null = null;
      if (typeof value === 'string') text = value;
      else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
      else if (value instanceof DeclaredBlob) text = value.blob;
      else if (value instanceof JoinedTexts) text = value.text;
      else if (Array.isArray(value)) {
        for (const v of value as unknown[]) stack.push(v);
        const joined = joinedTexts(value as unknown[]);
        if (joined !== null) stack.push(joined);
      } else if (value !== null && typeof value === 'object')
        for (const [key, v] of Object.entries(value)) {
          stack.push(declaredBlob(value, key, v));
          stack.push(key);
        }
      else if (value !== null && value !== undefined) return true;
      if (text === null) continue;
      // a base64 string of text is searched as that text too, read as its declared type reads it (a resource's
      // `blob` beside its `mimeType`): the bound counts the message's strings as written (what the connection's cap
      // bounds), the text of a blob being at most three quarters of its base64
      const blob = blobText(text, value instanceof DeclaredBlob ? value.declared : null);
      // the joined texts of a list's items are its strings again: counted once, as written (at most twice the cap)
      if (!(value instanceof JoinedTexts)) chars += text.length;
      this.#searchedChars += text.length;
      if (chars > this.maxSearchedChars || this.#search.find(text, blob) === true) return true;
    }
    return false;
  }

  /**
   * A listing answer (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`) that names a refused
   * address, with what names one taken out: an entry whose `name`, `uri` or `uriTemplate` names one is left out, any
   * other string of an entry naming one becomes `notice`, a member of the answer beside `result` naming one is left
   * out; null when that cannot be done safely (not a listing, an error, a member of `result` outside the entries, the
   * answer's id, a member name or a number naming one, nesting past `maxListedDepth`): the caller withholds the whole
   * answer.
   */
  listingWithout(answer: Record<string, unknown>, method: string, notice: string): Record<string, unknown> | null {
    const key = listingKeys.get(method);
    const result = answer['result'];
    if (key === undefined || answer['error'] !== undefined || !isRecord(result)) return null;
    const entries = result[key];
    if (!Array.isArray(entries)) return null;
    for (const [member, value] of Object.entries(result))
      if (member !== key && this.names([member, value])) return null;
    const kept: unknown[] = [];
    for (const entry of entries as unknown[]) {
      if (!this.names(entry)) kept.push(entry);
      else if (isRecord(entry) && !identifying.some((field) => this.names(entry[field] ?? null))) {
        const edited = this.#replaced(entry, notice, 0);
        if (edited !== null) kept.push(edited);
      }
    }
    // the answer's own members beside `result` are searched too: one naming a refused address is left out (its id
    // or version: the whole answer is withheld)
    const made: Record<string, unknown> = {};
    for (const [member, value] of Object.entries(answer)) {
      if (member === 'result' || !this.names([member, value])) made[member] = value;
      else if (member === 'id' || member === 'jsonrpc') return null;
    }
    made['result'] = { ...result, [key]: kept };
    return made;
  }

  // `value` with each string naming a refused address replaced by `notice`; null when a member name or a number names
  // one, or past `maxListedDepth`
  #replaced(value: unknown, notice: string, depth: number): unknown {
    if (typeof value === 'string') return this.names(value) ? notice : value;
    if (!this.names(value)) return value;
    if (depth >= maxListedDepth || (!Array.isArray(value) && !isRecord(value))) return null;
    if (Array.isArray(value)) {
      const items = (value as unknown[]).map((v) => this.#replaced(v, notice, depth + 1));
      return items.includes(null) && !(value as unknown[]).includes(null) ? null : items;
    }
    const copy: Record<string, unknown> = {};
    for (const [member, v] of Object.entries(value)) {
      if (this.names(member)) return null;
      const replaced = this.#replaced(v, notice, depth + 1);
      if (replaced === null && v !== null) return null;
      copy[member] = replaced;
    }
    return copy;
  }

  /** Characters of strings `names` searched so far, as written. */
  get searchedChars(): number {
    return this.#searchedChars;
  }

  #searchedChars = 0;

  /** Steps the automata took over all texts so far (a transition or a fall back): at most twice the characters, per level. */
  get searchSteps(): number {
    return this.#search.steps;
  }

  /** Characters of address forms built into automata so far, over every rebuild (about log2 rebuilds per character). */
  get builtChars(): number {
    return this.#search.builtChars;
  }

  /** Characters of the address forms kept whole. */
  get keptChars(): number {
    return this.#search.chars;
  }
}
