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
 * The decorator's requests sent to the server and not yet answered, by id: only an answer to one of these is passed
 * on, and only once its request went out (an answer that comes first, for an id not sent yet, is dropped).
 */
export class RequestsInFlight {
  private readonly outstanding = new Map<JsonRpcId, string>();
  // the tool of each `tools/call` and `tasks/result` in flight, and the tool each task was created by
  private readonly toolCalls = new Map<JsonRpcId, string | null>();
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
    this.outstanding.set(id, method);
    if (method === 'tools/call')
      this.toolCalls.set(id, isRecord(params) && typeof params['name'] === 'string' ? params['name'] : null);
    if (method === 'tasks/result' || method === 'tasks/get')
      this.toolCalls.set(id, isRecord(params) ? (this.taskTools.get(String(params['taskId'])) ?? null) : null);
    if (method === 'initialize') {
      this.initializeId = id;
      this.client = peerOf(isRecord(params) ? params['clientInfo'] : undefined);
    }
  }

  /** Notes a `resources/read` that goes out (its tool context lives with the read). */
  noteRead(id: JsonRpcId): void {
    this.outstanding.set(id, 'resources/read');
  }

  /** Forgets a request that never went out (its send failed). */
  forget(message: unknown): void {
    const shape = messageShape(message);
    if (shape.kind !== 'request') return;
    this.outstanding.delete(shape.id);
    this.toolCalls.delete(shape.id);
  }

  /** Whether a request with `id` waits for its answer. */
  has(id: JsonRpcId): boolean {
    return this.outstanding.has(id);
  }

  /** Takes the request `id` answers; undefined when none waits (then `wasExpired` says whether to drop it quietly). */
  take(id: JsonRpcId): SentRequest | undefined {
    const method = this.outstanding.get(id);
    if (method === undefined) return undefined;
    this.outstanding.delete(id);
    const tool = this.toolCalls.get(id) ?? null;
    this.toolCalls.delete(id);
    return { method, tool };
  }

  /** Remembers that the task `taskId` was created by `tool`, for its later `tasks/result`. */
  noteTask(taskId: string, tool: string | null): void {
    remember(this.taskTools, taskId, tool);
  }

  /** Marks `id` answered locally at its deadline: its request no longer waits, and a late answer is dropped. */
  expire(id: JsonRpcId): void {
    this.outstanding.delete(id);
    this.expired.add(id);
    if (this.expired.size > maxRememberedLinks) this.expired.delete(this.expired.values().next().value as JsonRpcId);
  }

  /** Whether `id` was answered locally at its deadline (forgotten once asked). */
  wasExpired(id: JsonRpcId): boolean {
    return this.expired.delete(id);
  }

  /** Forgets every request in flight (the connection closed). */
  clear(): void {
    this.outstanding.clear();
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
