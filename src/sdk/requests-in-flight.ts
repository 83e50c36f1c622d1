import { isRecord } from '../decision/json-value.ts';
import type { PeerInfo } from '../record/link-record.ts';
import { type JsonRpcId, messageShape } from '../flow/json-rpc-shape.ts';

/** Most entries a per-id map of the decorator keeps (links, task tools, expired ids); the oldest goes first. */
export const maxRememberedLinks = 1024;

/** What a request in flight was: its method, and for `tools/call`, `tasks/result` and `tasks/get` the tool it calls. */
export interface SentRequest {
  method: string;
  tool: string | null;
}

/**
 * The host's requests that wait on an answer, as a front end over the decorator (the proxy) reads them: the same one
 * table the decorator matches the server's answers with.
 */
export interface WaitingRequests {
  /** the method of the host's request `id` while the host waits on its answer (taken, sent, or answered and judged) */
  methodOf(id: JsonRpcId): string | undefined;
  /** every id the host still waits on */
  ids(): JsonRpcId[];
  /** the front end answered the host's request `id` itself: the host waits on it no more */
  answered(id: JsonRpcId): void;
}

interface InFlight {
  readonly method: string;
  readonly tool: string | null;
  /** sent, and the server owes its answer (false: not sent yet, answered locally, or its answer is being judged) */
  owed: boolean;
}

/**
 * The host's requests in flight, by id, from the moment the decorator takes one until the host got its answer: only
 * an answer to a request the server owes is passed on, and only once its request went out (an answer that comes
 * first, for an id not sent yet, is dropped), and only once (the first answer ends what the server owes).
 */
export class RequestsInFlight implements WaitingRequests {
  private readonly inFlight = new Map<JsonRpcId, InFlight>();
  private readonly taskTools = new Map<string, string | null>();
  // ids answered locally at their deadline: a late answer from the server is dropped, not passed to the host
  private readonly expired = new Set<JsonRpcId>();
  /** the id of the `initialize` request, whose answer names the server */
  initializeId: JsonRpcId | null = null;
  /** the client named by `initialize` */
  client: PeerInfo | null = null;

  /** Notes a request before it goes out, so its answer can be matched; anything else is ignored. */
  note(message: unknown): void {
    const shape = messageShape(message);
    if (shape.kind !== 'request') return;
    const { id, method } = shape;
    const params = (message as { params?: unknown }).params;
    let tool: string | null = null;
    if (method === 'tools/call') tool = isRecord(params) && typeof params['name'] === 'string' ? params['name'] : null;
    if (method === 'tasks/result' || method === 'tasks/get')
      tool = isRecord(params) ? (this.taskTools.get(String(params['taskId'])) ?? null) : null;
    if (method === 'initialize') {
      this.initializeId = id;
      this.client = peerOf(isRecord(params) ? params['clientInfo'] : undefined);
    }
    this.inFlight.set(id, { method, tool, owed: true });
  }

  /** Notes a `resources/read` the host asked for, before its link is decided (not sent yet: see `noteRead`). */
  noteTakenRead(id: JsonRpcId): void {
    this.inFlight.set(id, { method: 'resources/read', tool: null, owed: false });
  }

  /** Notes that the `resources/read` `id` goes out (its tool context lives with the read): the server owes it now. */
  noteRead(id: JsonRpcId): void {
    const entry = this.inFlight.get(id);
    if (entry === undefined) this.inFlight.set(id, { method: 'resources/read', tool: null, owed: true });
    else entry.owed = true;
  }

  /** Forgets a request that never went out (its send failed): the one who sent it answers the host. */
  forget(message: unknown): void {
    const shape = messageShape(message);
    if (shape.kind === 'request') this.inFlight.delete(shape.id);
  }

  /** Forgets the request `id` (its send failed). */
  forgetId(id: JsonRpcId): void {
    this.inFlight.delete(id);
  }

  /** Whether the server owes an answer to the request `id`. */
  has(id: JsonRpcId): boolean {
    return this.inFlight.get(id)?.owed === true;
  }

  /**
   * Takes the request `id` answers: the server owes it nothing more, and the host waits until the answer is passed on
   * (`answered`); undefined when the server owes none (then `wasExpired` says whether to drop it quietly).
   */
  take(id: JsonRpcId): SentRequest | undefined {
    const entry = this.inFlight.get(id);
    if (entry === undefined || !entry.owed) return undefined;
    entry.owed = false;
    return { method: entry.method, tool: entry.tool };
  }

  methodOf(id: JsonRpcId): string | undefined {
    return this.inFlight.get(id)?.method;
  }

  ids(): JsonRpcId[] {
    return [...this.inFlight.keys()];
  }

  answered(id: JsonRpcId): void {
    this.inFlight.delete(id);
  }

  /**
   * An answer to `id` was passed on to the host: its wait ends, unless the host already reused the id for a request
   * the server still owes (that one waits on its own answer).
   */
  delivered(id: JsonRpcId): void {
    if (this.inFlight.get(id)?.owed !== true) this.inFlight.delete(id);
  }

  /**
   * Whether the id of request `message` is one the server still owes an answer to: sent again, the first answer could
   * not be told from the second (and would be judged as the second's method), so it is not sent.
   */
  owedFor(message: unknown): boolean {
    const shape = messageShape(message);
    return shape.kind === 'request' && this.has(shape.id);
  }

  /** Remembers that the task `taskId` was created by `tool`, for its later `tasks/result`. */
  noteTask(taskId: string, tool: string | null): void {
    remember(this.taskTools, taskId, tool);
  }

  /** Marks `id` answered locally at its deadline: the server owes it nothing more, and a late answer is dropped. */
  expire(id: JsonRpcId): void {
    const entry = this.inFlight.get(id);
    if (entry !== undefined) entry.owed = false;
    this.expired.add(id);
    if (this.expired.size > maxRememberedLinks) this.expired.delete(this.expired.values().next().value as JsonRpcId);
  }

  /** Whether `id` was answered locally at its deadline (forgotten once asked). */
  wasExpired(id: JsonRpcId): boolean {
    return this.expired.delete(id);
  }

  /** The connection closed: the server owes nothing any more (the host's requests still wait, for `ids`). */
  clear(): void {
    for (const entry of this.inFlight.values()) entry.owed = false;
  }
}

/** The name and version a peer gives in `initialize` (`clientInfo`) or its answer (`serverInfo`); null when malformed. */
export function peerOf(value: unknown): PeerInfo | null {
  if (!isRecord(value) || typeof value['name'] !== 'string') return null;
  return { name: value['name'], version: typeof value['version'] === 'string' ? value['version'] : '' };
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  if (map.size > maxRememberedLinks) map.delete(map.keys().next().value as K);
}
