import { AddressMatcher, type AddressPattern } from './address-matcher.ts';
import { base64RunsText, blobText } from './blob-text.ts';
import { ForgottenAddresses } from './forgotten-addresses.ts';
import { addressOf, mayReadBack, rawAddressOf, readBack, readBacks } from './read-back.ts';

// The one search for the addresses of refused links in text (a session's later messages, the strings beside a link
// in a tool result): each address in every form a text may hold it in, found at host boundaries by one automaton
// pass per text, as written and as read back. Addresses come one or a batch at a time; the automata are built in
// levels whose sizes at least halve from the oldest to the newest, so a new address rebuilds only the small newest
// ones (each character is rebuilt about log2 times over a session, never once per address added).

/**
 * Characters of an address searched for: a longer address is searched by its first ones, so a text holding the whole
 * address still matches (and one holding only its start is found too: the bound fails closed).
 */
export const maxAddressChars = 256;
/** Shortest address form searched for, characters: a shorter one would be found in nearly every text. */
export const minAddressChars = 3;

/** One form of an address: lower-case, at most `maxAddressChars`, `hostEnd` when it ends with its host. */
export interface AddressForm {
  readonly text: string;
  readonly hostEnd: boolean;
}

/**
 * The forms of `uri`'s address a text may name it by (`holdsAddress` in read-back.ts): as written, with a numeric
 * host dotted, each read back (`readBack`: percent-decoded, `\` as `/`, NFKC) and as the WHATWG URL parser writes it
 * (IDNA, canonical IPv4); the uri itself when no form is long enough. Empty when none is.
 */
export function addressForms(uri: string): AddressForm[] {
  // each form by whether it may end with its host (not when its source or itself was cut)
  const forms = new Map<string, boolean>();
  const take = (address: string, whole: boolean) => {
    const trimmed = trimSlashes(address.toLowerCase());
    if (trimmed.length < minAddressChars || forms.has(trimmed)) return;
    const long = !whole || trimmed.length > maxAddressChars;
    forms.set(long ? trimmed.slice(0, maxAddressChars) : trimmed, !long && !/[/\\?#]/.test(trimmed));
  };
  // each form is searched by its first `maxAddressChars`: read back from at most `formSourceChars` of the address (a
  // character read back comes from at most 27 written: percent-encoded three times), so a long uri costs no more
  const canonical = canonicalAddress(uri.length > formSourceChars ? uri.slice(0, formSourceChars) : uri);
  const sources = [rawAddressOf(uri), addressOf(uri), canonical, uri.trim()];
  sources.forEach((source, i) => {
    // the uri itself only when no form of its address is long enough
    if (source === null || (i === 3 && forms.size > 0)) return;
    const whole = source.length <= formSourceChars && (i !== 2 || uri.length <= formSourceChars);
    const address = whole ? source : source.slice(0, formSourceChars);
    take(address, whole);
    if (mayReadBack(address)) take(readBack(address), whole);
  });
  return [...forms].map(([text, hostEnd]) => ({ text, hostEnd }));
}

// characters of an address its forms are made from
const formSourceChars = 27 * maxAddressChars;

// the address as the WHATWG URL parser writes it: host (IDNA, IPv4 dotted), path and query; null when it does not
// parse
function canonicalAddress(uri: string): string | null {
  if (!URL.canParse(uri)) return null;
  const url = new URL(uri);
  return `${url.host}${url.pathname}${url.search}`.replace(/^[/\\]+/, '');
}

// `text` without its trailing slashes (a loop: a pattern would retry at every slash of a long run)
function trimSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x2f || text.charCodeAt(end - 1) === 0x5c)) end -= 1;
  return text.slice(0, end);
}

interface Entry<T> {
  readonly key: string;
  readonly forms: readonly AddressForm[];
  readonly value: T;
  readonly chars: number;
}

interface Level<T> {
  readonly entries: readonly Entry<T>[];
  readonly matcher: AddressMatcher;
}

/** How much an `AddressSearch` keeps whole, and what a text naming an address it had to forget is answered with. */
export interface KeptBound<T> {
  /** characters of forms kept whole; past them the oldest level is forgotten (`ForgottenAddresses`) */
  readonly maxChars: number;
  /** the value of a text that may name a forgotten address */
  readonly forgotten: T;
}

/**
 * Addresses with a value each (what a text naming one is answered with), and the search of texts for them; with a
 * bound, past it the oldest addresses are kept by the start of their forms only, and a text holding one of those is
 * answered with the bound's `forgotten` value (fails closed).
 */
export class AddressSearch<T> {
  /** characters of patterns built into automata so far, over every rebuild */
  builtChars = 0;
  // oldest and largest first; each at most half the size of the one before, once settled
  readonly #levels: Level<T>[] = [];
  #pending: Entry<T>[] = [];
  readonly #keys = new Set<string>();
  #chars = 0;
  // steps of automata merged away since
  #stepsBefore = 0;
  #forgotten: ForgottenAddresses | null = null;

  constructor(private readonly bound?: KeptBound<T>) {}

  /**
   * Keeps `uri`'s address with `value` (`forms`: its `addressForms`, when the caller made them already); false when it
   * has no form long enough, or is kept already.
   */
  add(uri: string, value: T, forms: readonly AddressForm[] = addressForms(uri)): boolean {
    const key = forms[0]?.text;
    if (key === undefined || this.#keys.has(key)) return false;
    this.#keys.add(key);
    const chars = forms.reduce((n, f) => n + f.text.length, 0);
    this.#pending.push({ key, forms, value, chars });
    this.#chars += chars;
    // past the bound, the oldest are let go at once: what is kept whole never grows past it
    if (this.bound !== undefined && this.#chars > this.bound.maxChars) this.#settle();
    return true;
  }

  /** How many addresses are kept whole. */
  get size(): number {
    return this.#keys.size;
  }

  /** Whether any address was noted and is searched for, whole or by its start. */
  get empty(): boolean {
    return this.#keys.size === 0 && this.#forgotten === null;
  }

  /** Forms of addresses forgotten past the bound, kept by their start. */
  get forgotten(): number {
    return this.#forgotten?.count ?? 0;
  }

  /** Characters of the forms kept. */
  get chars(): number {
    return this.#chars;
  }

  /** Automata the search passes over a text (once as written, once read back). */
  get levels(): number {
    this.#settle();
    return this.#levels.length;
  }

  /** Steps the automata took over all texts so far: at most twice the characters, per level. */
  get steps(): number {
    return this.#levels.reduce((n, level) => n + level.matcher.steps, this.#stepsBefore);
  }

  /**
   * The value of an address `text` names, as written or read back (compared without case, at host boundaries), or
   * undefined when it names none; a string that is base64 of text is searched as that text too (`blob`: its
   * `blobText`, when the caller made it already to count it): a host hands a text blob to the model decoded; and so is
   * each base64 run of text inside it (`base64RunsText`), which a model decodes on request.
   */
  find(text: string, blob?: string | null): T | undefined {
    this.#settle();
    if (this.empty) return undefined;
    const found = this.#findText(text);
    if (found !== undefined) return found;
    const decoded = blob === undefined ? blobText(text) : blob;
    if (decoded !== null) return this.#findText(decoded);
    // base64 inside prose (a `data:` url, a token to decode) is searched as its text too
    const runs = base64RunsText(text);
    return runs === null ? undefined : this.#findText(runs);
  }

  #findText(text: string): T | undefined {
    const found = this.#findLower(text.toLowerCase());
    if (found !== undefined || !mayReadBack(text)) return found;
    for (const back of readBacks(text)) {
      const inBack = this.#findLower(back.toLowerCase());
      if (inBack !== undefined) return inBack;
    }
    return undefined;
  }

  #findLower(text: string): T | undefined {
    for (const { entries, matcher } of this.#levels) {
      const id = matcher.firstIn(text);
      if (id !== -1) return entries[id]?.value;
    }
    if (this.bound !== undefined && this.#forgotten?.mayHold(text) === true) return this.bound.forgotten;
    return undefined;
  }

  // the pending addresses made a level, and the newest levels merged until each is under half the one before
  #settle(): void {
    if (this.#pending.length > 0) {
      this.#levels.push(this.#build(this.#pending));
      this.#pending = [];
    }
    for (let n = this.#levels.length; n >= 2; n = this.#levels.length) {
      const last = this.#levels[n - 1] as Level<T>;
      const before = this.#levels[n - 2] as Level<T>;
      if (last.matcher.chars * 2 < before.matcher.chars) break;
      this.#stepsBefore += last.matcher.steps + before.matcher.steps;
      this.#levels.splice(n - 2, 2, this.#build([...before.entries, ...last.entries]));
    }
    // past the bound, the oldest (largest) level is kept by the start of its forms only
    while (this.bound !== undefined && this.#chars > this.bound.maxChars && this.#levels.length > 0) {
      const oldest = this.#levels.shift() as Level<T>;
      this.#stepsBefore += oldest.matcher.steps;
      this.#forgotten ??= new ForgottenAddresses();
      for (const entry of oldest.entries) {
        this.#forgotten.forget(entry.forms);
        this.#keys.delete(entry.key);
        this.#chars -= entry.chars;
      }
    }
  }

  #build(entries: readonly Entry<T>[]): Level<T> {
    const patterns: AddressPattern[] = [];
    entries.forEach((entry, id) => {
      for (const form of entry.forms) patterns.push({ text: form.text, id, hostEnd: form.hostEnd });
    });
    const matcher = new AddressMatcher(patterns);
    this.builtChars += matcher.chars;
    return { entries, matcher };
  }
}
