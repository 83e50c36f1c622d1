import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LinkStep } from '../flow/link-steps.ts';
import { maskUri } from '../link/mask-uri.ts';
import { readRegularFile } from '../policy/read-regular-file.ts';
import type { DiscoveredStage, RequestedStage } from '../record/link-record.ts';
import { checkBudget, type EventBudget } from './event-budget.ts';
import { renderedLinkFor } from './rendered-item.ts';

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

/** Largest state entry read, bytes (a FIFO, a device or a larger file planted in the state folder is an error). */
export const maxStateEntryBytes = 16 * 1024 * 1024;

/**
 * Most links kept from one tool result or resource list. A tool result's links over it are withheld; the state keeps
 * the servers that returned links over it, and a read of a uri it never kept is judged as a link of theirs, so a link
 * it could not keep is never readable from another server (`links.requireSameServer`).
 */
export const maxLinksPerEvent = 1024;

/**
 * Per-session state of the hook, safe for hook processes the host runs at the same time: each event writes its own
 * files (named by the tool call) with write-then-rename, so no two processes write the same file and no reader sees
 * half a file. Nothing is read-modify-written, so no lock is needed.
 */
export class SessionState {
  readonly dir: string;

  private constructor(dir: string) {
    this.dir = dir;
  }

  /** The state of `session` under `stateDir` (created, mode 0700); the session id is hashed into the folder name. */
  static async open(stateDir: string, session: string): Promise<SessionState> {
    const dir = join(stateDir, `s-${digest(session)}`);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new SessionState(dir);
  }

  /**
   * Records links one tool call returned; `callId` names the call (its tool use id, or a fresh one). Links over
   * `maxLinksPerEvent` are not kept: their servers are, with the servers in `overflow` (written first, so a failure
   * between the two writes refuses more, never less).
   */
  async addSeen(callId: string, links: readonly SeenLink[], overflow: ReadonlySet<string> = new Set()): Promise<void> {
    const over = new Set([...overflow, ...links.slice(maxLinksPerEvent).map((l) => l.server)]);
    if (over.size > 0) await this.writeAtomic(`over-${digest(callId)}.json`, [...over]);
    if (links.length === 0) return;
    await this.writeAtomic(`seen-${digest(callId)}.json`, links.slice(0, maxLinksPerEvent));
  }

  /** The servers that returned links the state could not keep (over `maxLinksPerEvent` in one event), sorted. */
  async overflowServers(budget?: EventBudget): Promise<string[]> {
    const servers = new Set<string>();
    for (const name of await this.entries('over-')) {
      checkBudget(budget);
      const value = await this.readJson(name);
      // an entry that is not a list of servers was written by something else: it refuses reads from every server
      if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) servers.add('');
      else for (const server of value) servers.add(server);
    }
    return [...servers].sort();
  }

  /** Every link the session saw with this exact uri, oldest first; `budget` is checked per entry. */
  async seen(uri: string, budget?: EventBudget): Promise<SeenLink[]> {
    const found: SeenLink[] = [];
    for (const name of await this.entries('seen-')) {
      const links = await this.readJson(name);
      if (!Array.isArray(links)) continue;
      for (const entry of links as SeenLink[]) {
        checkBudget(budget);
        if (entry?.link?.['uri'] === uri) found.push(entry);
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
    return found.sort((a, b) => a.discovered.at.localeCompare(b.discovered.at));
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
    await rm(join(this.dir, name), { force: true });
    return value as PendingRead;
  }

  private async entries(prefix: string): Promise<string[]> {
    return (await readdir(this.dir)).filter((n) => n.startsWith(prefix) && n.endsWith('.json'));
  }

  private async writeAtomic(name: string, value: unknown): Promise<void> {
    const temp = join(this.dir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    await writeFile(temp, JSON.stringify(value), { mode: 0o600 });
    await rename(temp, join(this.dir, name));
  }

  private async readJson(name: string): Promise<unknown> {
    let text: string;
    try {
      text = (await readRegularFile(join(this.dir, name), maxStateEntryBytes)).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return JSON.parse(text) as unknown;
  }
}

/** The default state folder: `$XDG_CACHE_HOME/linkgate/hook`, else `~/.cache/linkgate/hook`. */
export function defaultStateDir(env: Readonly<Record<string, string | undefined>>): string {
  const cache = env['XDG_CACHE_HOME'];
  return join(cache !== undefined && cache !== '' ? cache : join(homedir(), '.cache'), 'linkgate', 'hook');
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
