import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { LinkStep } from '../flow/link-steps.ts';
import { maskUri } from '../link/mask-uri.ts';
import { currentFileUser } from '../policy/replaceable-file.ts';
import { maxAddressChars, maxKept } from '../sdk/refused-addresses.ts';
import type { DiscoveredStage, RequestedStage } from '../record/link-record.ts';
import { checkBudget, type EventBudget } from './event-budget.ts';
import { renderedLinkFor } from './rendered-item.ts';
import { sha256 } from './sha256.ts';
import { checkOwnFolder, readyStateFolder } from './state-folder.ts';
import { fileStateEntries, type StateEntries } from './state-entries.ts';
import { type FormsByAddress, formsKey, keptFormsOf, takeKeptForms, withFormsOf } from './refused-forms.ts';

/** Largest state entry read, bytes; defined in state-entries.ts, named here for the state's readers. */
export { maxStateEntryBytes } from './state-entries.ts';

/** A link the session saw returned: by a tool (`resource_link` item) or listed by the resource list tool. */
export interface SeenLink {
  /** the server that returned it */
  server: string;
  /** the link as the gate judges it (`type`, `uri`, `name`, declared `mimeType`/`size`) */
  link: Record<string, unknown>;
  discovered: DiscoveredStage;
  /** the host's tool-use id of the call that returned or listed it (null when the host sent none) */
  toolUseId?: string | null;
  /** the host's text line for the link when its uri could not be split off for sure; matched against a read's uri */
  rendered?: string;
}

/** A read the gate allowed before it ran, waiting for its result: the flow's step and when the read was asked for. */
export interface PendingRead extends LinkStep {
  requested: RequestedStage;
}

/**
 * Most links kept from one tool result or resource list. A tool result's links over it are withheld; the state keeps
 * the servers that returned links over it, and a read of a uri it never kept is judged as a link of theirs, so a link
 * it could not keep is never readable from another server (`links.requireSameServer`).
 */
export const maxLinksPerEvent = 1024;

/**
 * Most addresses of refused links one session keeps (the decorator's bound, `maxKept`): past it the state says it is
 * not whole, and every later tool result of the session is withheld rather than searched for fewer addresses.
 */
export const maxRefusedAddresses = maxKept;

/** Most characters of refused addresses one session keeps (each at most `maxAddressChars`), past it as past the count. */
export const maxRefusedChars = 64 * 1024;

/** The addresses of the links a session refused, and whether they are all it refused (false: past the bound, lost). */
export interface RefusedAddressList {
  addresses: string[];
  complete: boolean;
  /** when not complete: why (undefined: past the bound) */
  incomplete?: string;
  /** the forms of the addresses the state kept them for (`refused-forms.ts`); the others are made when searched */
  forms?: FormsByAddress;
}

/** What the state holds for a read of one uri (`SessionState.forRead`). */
export interface ReadState {
  /** every link the session saw with the uri, oldest first */
  seen: SeenLink[];
  /** when none: why the state lost what it held (undefined: it did not) */
  lost: string | undefined;
  /** when none and not lost: the servers that returned links the state could not keep, sorted */
  overflow: string[];
  /** whether every event of the session kept all the links it returned (no `over-` entry: `addSeen`) */
  keptAll: boolean;
}

/** How a `SessionState` keeps what it keeps. */
export interface SessionStateOptions {
  /**
   * What kept forms of refused addresses are made by (`formsKey()` when absent; undefined: none are kept or taken):
   * forms an entry kept under another key are made again.
   */
  formsKey?: string | undefined;
}

/** Where each session's state is kept: one `SessionState` per session id. */
export interface SessionStates {
  open(session: string): Promise<SessionState>;
}

/** The state of `session` for one event: the context's own `states` (in-process hooks keep it in memory), else files under `stateDir`. */
export function openSessionState(
  context: { stateDir: string; states?: SessionStates },
  session: string,
): Promise<SessionState> {
  return context.states?.open(session) ?? SessionState.open(context.stateDir, session);
}

/**
 * Per-session state of the hook, safe for hook processes the host runs at the same time: each event writes its own
 * entries (files named by the tool call and a random part, written whole: `state-entries.ts`), so no two processes
 * write the same file, no reader sees half a file, and no event replaces what another kept. Nothing is
 * read-modify-written, so no lock is needed.
 */
export class SessionState {
  private readonly store: StateEntries;
  // the build kept forms are made by here (`formsKey`), worked out at the first use: it reads the package's files
  // outside the bundle, and a state kept in memory lives for a session
  #formsKey: { key: string | undefined } | undefined;

  private constructor(store: StateEntries, options: SessionStateOptions = {}) {
    this.store = store;
    if ('formsKey' in options) this.#formsKey = { key: options.formsKey };
  }

  // what kept forms are made by, for this state (`SessionStateOptions.formsKey`, else `formsKey()`)
  private get formsKey(): string | undefined {
    this.#formsKey ??= { key: formsKey() };
    return this.#formsKey.key;
  }

  /**
   * The state of `session` under `stateDir` (checked by `readyStateFolder`): its own folder, made mode 0700, which
   * must be a folder this user owns that no group or other can write (a symlink an agent put there is refused, never
   * written through). The session id is hashed into the folder name.
   */
  static async open(stateDir: string, session: string, options?: SessionStateOptions): Promise<SessionState> {
    const user = currentFileUser();
    // the default folder (an in-process hook that names none) has its cache root followed, as the hook command's
    const root = resolve(stateDir) === resolve(defaultStateDir(process.env)) ? stateCacheRoot(process.env) : undefined;
    const dir = join(await readyStateFolder(stateDir, user, root), `s-${digest(session)}`);
    await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    checkOwnFolder(dir, user, `the session's state folder \`${dir}\``);
    return new SessionState(fileStateEntries(dir), options);
  }

  /** The state of one session kept in `store` (in-process hooks: `memoryStateEntries`), with the same rules as files. */
  static over(store: StateEntries, options?: SessionStateOptions): SessionState {
    return new SessionState(store, options);
  }

  /**
   * Records links one tool call returned; `callId` names the call (its tool use id, or a fresh one). Links over
   * `maxLinksPerEvent` are not kept: their servers are, with the servers in `overflow` (written first, so a failure
   * between the two writes refuses more, never less).
   */
  async addSeen(callId: string, links: readonly SeenLink[], overflow: ReadonlySet<string> = new Set()): Promise<void> {
    const over = new Set([...overflow, ...links.slice(maxLinksPerEvent).map((l) => l.server)]);
    if (over.size > 0) await this.writeAtomic(entryName('over-', callId), [...over]);
    if (links.length === 0) return;
    await this.writeAtomic(entryName('seen-', callId), links.slice(0, maxLinksPerEvent));
  }

  /**
   * What a read of `uri` is decided on, from one listing of the state: every link the session saw with this exact uri
   * (oldest first); when there is none, why the state lost what it held (the first mark; undefined when nothing
   * marked it), and when it did not, the servers that returned links it could not keep (sorted); and whether it kept
   * every link the session's events returned. `budget` is checked per entry.
   */
  async forRead(uri: string, budget?: EventBudget): Promise<ReadState> {
    const names = await this.store.names('');
    const keptAll = !names.some((n) => n.startsWith('over-'));
    const {
      found: seen,
      foreign,
      vanished,
    } = await this.seenIn(
      names.filter((n) => n.startsWith('seen-')),
      uri,
      budget,
    );
    if (seen.length > 0) return { seen, lost: undefined, overflow: [], keptAll };
    // an entry of seen links the hook did not write, or one gone between the listing and its read, may have held this
    // uri: the state lost what it held there
    const lost =
      (await this.lostIn(
        names.filter((n) => n.startsWith('lost-')),
        budget,
      )) ?? (foreign ? foreignSeen : vanished ? vanishedSeen : undefined);
    if (lost !== undefined) return { seen, lost, overflow: [], keptAll };
    return {
      seen,
      lost,
      overflow: await this.overflowIn(
        names.filter((n) => n.startsWith('over-')),
        budget,
      ),
      keptAll,
    };
  }

  // the servers of the `over-` entries `names`: an entry that is not a list of servers refuses reads from every server
  private async overflowIn(names: readonly string[], budget?: EventBudget): Promise<string[]> {
    const servers = new Set<string>();
    for (const name of names) {
      checkBudget(budget);
      const value = await this.readJson(name);
      // an entry that is not a list of servers was written by something else: it refuses reads from every server
      if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) servers.add('');
      else for (const server of value) servers.add(server);
    }
    return [...servers].sort();
  }

  // every link of the `seen-` entries `names` with this exact uri, oldest first; `foreign` when an entry (or a link of
  // one) is not what `addSeen` writes, so it may have held the uri in a form not read here; `vanished` when an entry
  // listed was gone when read. No hook removes a `seen-` entry (each is written once, by rename, and never replaced or
  // taken), so hook events run in parallel never make one vanish: only something outside the hook does, and the entry
  // may have held the uri from another server, so it counts as lost, never as absent
  private async seenIn(
    names: readonly string[],
    uri: string,
    budget?: EventBudget,
  ): Promise<{ found: SeenLink[]; foreign: boolean; vanished: boolean }> {
    const found: SeenLink[] = [];
    let foreign = false;
    let vanished = false;
    for (const name of names) {
      const links = await this.readJson(name);
      if (links === undefined) {
        vanished = true;
        continue;
      }
      if (!Array.isArray(links)) {
        foreign = true;
        continue;
      }
      for (const entry of links as SeenLink[]) {
        checkBudget(budget);
        if (!isSeenLink(entry)) {
          foreign = true;
          continue;
        }
        if (entry.link['uri'] === uri) found.push(entry);
        else if (typeof entry?.rendered === 'string') {
          // the line renders a link to exactly this uri: that link, with the name and description the split gives
          const match = renderedLinkFor(entry.rendered, uri);
          if (match === null) continue;
          const link = { ...entry.link, ...match };
          if (match.description === undefined) delete link['description'];
          found.push({ ...entry, link, discovered: { ...entry.discovered, uri: maskUri(uri) } });
        }
      }
    }
    const sorted = found.sort((a, b) => String(a.discovered.at).localeCompare(String(b.discovered.at)));
    return { found: sorted, foreign, vanished };
  }

  /**
   * Keeps the addresses of links one event refused (`refusedAddressOf`), under the event's `callId`, so a later tool
   * result naming one is withheld (`refused-named.ts`). One event writes at most one past `maxRefusedAddresses`: enough
   * for a reader to know the state is past its bound. Their forms are made here and kept beside them (a later event
   * takes them instead of making them again); returns them.
   */
  async addRefused(callId: string, addresses: readonly string[]): Promise<FormsByAddress> {
    const kept = [...new Set(addresses)].slice(0, maxRefusedAddresses + 1);
    const forms = withFormsOf(kept);
    if (kept.length > 0)
      await this.writeAtomic(entryName('refused-', callId), {
        addresses: kept,
        ...keptFormsOf(kept, forms, this.formsKey),
      });
    return forms;
  }

  /**
   * The addresses of the links the session refused; `complete: false` when they are past the bound
   * (`maxRefusedAddresses`, `maxRefusedChars`), an entry is not a list of addresses, or the state is marked lost
   * (`markLost`: what it lost may have held refusals): a search over them then fails closed, never forgets. Reading
   * stops at the bound; `budget` is checked per entry.
   *
   * Every tool result reads them, so they are read from a combined entry (`allrefused-`) where one is kept: the union
   * of the `refused-` entries it names, each written once under a name never used again; only the entries it does not
   * name are read one by one, and once `refusedCombinedAfter` of them were, a new combined entry replaces it. A
   * combined entry that is not what the hook writes is left aside and the entries it names read again; an entry it
   * names that is gone keeps its addresses there (the list holds more, never fewer). The forms kept beside the
   * addresses come with them (`refused-forms.ts`), and a combined entry keeps every address's forms.
   */
  async refusedAddresses(budget?: EventBudget): Promise<RefusedAddressList> {
    const names = await this.entries('');
    if (names.some((n) => n.startsWith('lost-'))) return { addresses: [], complete: false, incomplete: lostRefusals };
    const list = new BoundedAddresses();
    const forms: FormsByAddress = new Map();
    const combinedNames = names.filter((n) => n.startsWith(combinedPrefix));
    const covered = new Set<string>();
    for (const name of combinedNames) {
      checkBudget(budget);
      const combined = asCombined(await this.readJson(name).catch(() => undefined));
      if (combined === null) continue;
      for (const entry of combined.names) covered.add(entry);
      if (!list.add(combined.addresses)) return list.pastBound();
      takeKeptForms(combined.entry, combined.addresses, forms, this.formsKey);
    }
    const entries = names.filter((n) => n.startsWith('refused-'));
    let read = 0;
    for (const name of entries) {
      if (covered.has(name)) continue;
      checkBudget(budget);
      const value = await this.readJson(name);
      const addresses = refusedEntryAddresses(value);
      // an entry that is not a list of addresses was written by something else: the list is not whole
      if (addresses === null) return { addresses: list.all(), complete: false, incomplete: foreignRefusals };
      if (!list.add(addresses)) return list.pastBound();
      if (!Array.isArray(value)) takeKeptForms(value as Record<string, unknown>, addresses, forms, this.formsKey);
      read += 1;
    }
    const all = list.all();
    if (read >= refusedCombinedAfter)
      await this.combine([...covered, ...entries], all, withFormsOf(all, forms), combinedNames);
    return { addresses: all, complete: true, forms };
  }

  // one combined entry of the `refused-` entries `names` (their union `addresses`), in place of `replaced`; a failure
  // to write it costs the next event the reads it would have saved, nothing else
  private async combine(
    names: readonly string[],
    addresses: readonly string[],
    forms: FormsByAddress,
    replaced: readonly string[],
  ) {
    try {
      const combined = {
        names: [...new Set(names)].sort(),
        addresses: [...addresses],
        ...keptFormsOf(addresses, forms, this.formsKey),
      };
      await this.store.write(`${combinedPrefix}${randomBytes(6).toString('hex')}.json`, JSON.stringify(combined));
      for (const name of replaced) await this.store.remove(name);
    } catch {
      // the entries it would have combined are all still there
    }
  }

  /**
   * Marks the state as no longer holding all it once held (`why`: the server forgot the session, a tool result it
   * could not keep whole): a read of a uri it does not hold is refused from then on (`hook.state-lost`), never judged
   * as a link no tool returned.
   */
  async markLost(why: string): Promise<void> {
    await this.writeAtomic(`lost-${digest(why)}.json`, why);
  }

  // why the `lost-` entries `names` say the state lost what it held (the first mark), or undefined when there is none
  private async lostIn(names: readonly string[], budget?: EventBudget): Promise<string | undefined> {
    for (const name of names) {
      checkBudget(budget);
      const why = await this.readJson(name);
      // a mark that is not a line was written by something else: still a mark
      return typeof why === 'string' ? why : 'an entry the hook did not write marks it';
    }
    return undefined;
  }

  /** Keeps an allowed read until its result arrives. */
  async putPending(callId: string, pending: PendingRead): Promise<void> {
    await this.writeAtomic(`read-${digest(callId)}.json`, pending);
  }

  /** Takes (reads and removes) the pending read of `callId`; undefined when the pre event never ran or was lost. */
  async takePending(callId: string): Promise<PendingRead | undefined> {
    const name = `read-${digest(callId)}.json`;
    const value = await this.readJson(name);
    if (value === undefined) return undefined;
    await this.store.remove(name);
    return value as PendingRead;
  }

  private entries(prefix: string): Promise<string[]> {
    return this.store.names(prefix);
  }

  private writeAtomic(name: string, value: unknown): Promise<void> {
    return this.store.write(name, JSON.stringify(value));
  }

  private async readJson(name: string): Promise<unknown> {
    const text = await this.store.read(name);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  }
}

/**
 * The name of a new entry of what one call returned (`seen-`, `over-`, `refused-`): the call's digest and a random
 * part, so an event sent again under the same tool-use id (one posted with the resident server's secret) adds an entry
 * and never replaces what an earlier event kept.
 */
function entryName(prefix: string, callId: string): string {
  return `${prefix}${digest(callId)}-${randomBytes(6).toString('hex')}.json`;
}

/**
 * `refused-` entries read one by one before `refusedAddresses` keeps them in one combined entry: a tool result then
 * reads at most this many more files than one.
 */
export const refusedCombinedAfter = 16;

// the name of a combined entry of refused addresses starts with it (never with `refused-`)
const combinedPrefix = 'allrefused-';

/**
 * A combined entry of refused addresses: the `refused-` entries it holds the union of, and that union (`entry`: the
 * whole entry, which keeps their forms too).
 */
interface CombinedRefusals {
  names: string[];
  addresses: string[];
  entry: Readonly<Record<string, unknown>>;
}

// what `value` is as a combined entry the hook wrote; null when it is anything else
function asCombined(value: unknown): CombinedRefusals | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const entry = value as Record<string, unknown>;
  const { names, addresses } = entry;
  const entries: unknown = names;
  if (!Array.isArray(entries) || !entries.every((n): n is string => typeof n === 'string' && n.startsWith('refused-')))
    return null;
  return isAddressList(addresses) ? { names: entries, addresses, entry } : null;
}

// the addresses of a `refused-` entry: `{addresses, formsKey, forms}` as `addRefused` writes it, or the bare list an
// older hook wrote; null when it is neither
function refusedEntryAddresses(value: unknown): string[] | null {
  if (Array.isArray(value)) return isAddressList(value) ? value : null;
  if (value === null || typeof value !== 'object') return null;
  const { addresses } = value as Record<string, unknown>;
  return isAddressList(addresses) ? addresses : null;
}

function isAddressList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((a) => typeof a === 'string' && a.length <= maxAddressChars);
}

/** Refused addresses as `refusedAddresses` gathers them: each once, up to the state's bound. */
class BoundedAddresses {
  private readonly addresses = new Set<string>();
  private chars = 0;

  /** Adds `addresses`; false once past the bound (`maxRefusedAddresses`, `maxRefusedChars`). */
  add(addresses: readonly string[]): boolean {
    for (const address of addresses) {
      if (this.addresses.has(address)) continue;
      this.addresses.add(address);
      this.chars += address.length;
      if (this.addresses.size > maxRefusedAddresses || this.chars > maxRefusedChars) return false;
    }
    return true;
  }

  all(): string[] {
    return [...this.addresses];
  }

  pastBound(): RefusedAddressList {
    return { addresses: this.all(), complete: false };
  }
}

// a link of a `seen-` entry as `addSeen` writes it: its server, its link with a uri, where it was discovered
function isSeenLink(value: unknown): value is SeenLink {
  if (value === null || typeof value !== 'object') return false;
  const { server, link, discovered } = value as Record<string, unknown>;
  return (
    typeof server === 'string' &&
    link !== null &&
    typeof link === 'object' &&
    typeof (link as Record<string, unknown>)['uri'] === 'string' &&
    discovered !== null &&
    typeof discovered === 'object'
  );
}

const foreignSeen =
  "an entry of the session's seen links is not what the hook writes: it may have held this uri from another server";

const vanishedSeen =
  "an entry of the session's seen links went away while the state was read (no hook removes one): it may have held this uri from another server";

const lostRefusals =
  'the state of this session was lost (marked lost): the addresses of links refused before are not all kept, and any later tool result could name one';
const foreignRefusals =
  "an entry of the session's refused addresses is not a list of them (the hook did not write it): any later tool result could name one it does not hold";

/** The default state folder: `$XDG_CACHE_HOME/linkgate/hook`, else `~/.cache/linkgate/hook` (`home`: the user's home). */
export function defaultStateDir(env: Readonly<Record<string, string | undefined>>, home: string = homedir()): string {
  return join(stateCacheRoot(env, home), 'linkgate', 'hook');
}

/**
 * The cache root the default state folder is in: `$XDG_CACHE_HOME` when it is an absolute path, else `~/.cache`; the
 * user's own set-up, taken at its real path (`readyStateFolder`'s `root`). A relative value is ignored, as the XDG Base
 * Directory spec says: it would resolve against the hook's working folder, the project the agent writes.
 */
export function stateCacheRoot(env: Readonly<Record<string, string | undefined>>, home: string = homedir()): string {
  const cache = env['XDG_CACHE_HOME'];
  return cache !== undefined && isAbsolute(cache) ? cache : join(home, '.cache');
}

// the name part of a session or a call: 32 hex digits of its digest
function digest(text: string): string {
  return sha256(text).toString('hex').slice(0, 32);
}
