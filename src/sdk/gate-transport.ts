import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Decision } from '../decision/decision.ts';
import { GateError } from '../gate-error.ts';
import type { Gate } from '../gate/create-gate.ts';
import { maskUri } from '../link/mask-uri.ts';
import { assembleRecord } from '../record/assemble-record.ts';
import {
  contentsOf,
  deliverableIndices,
  deliveredStage,
  discoveredStage,
  receivedFromError,
  receivedFromResult,
  type LinkContext,
} from '../record/build-stages.ts';
import type { ReadOutcome } from '../record/judge-verdict.ts';
import type { LinkRecord, LinkStages, NextStep, PeerInfo } from '../record/link-record.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { emitLinkTelemetry } from '../record/link-telemetry.ts';
import { discoverLinks, linkFacts } from '../flow/discover-links.ts';
import { isRecord, jsonText } from '../json-value.ts';
import type { ReadCache } from './read-cache.ts';
import { deny, reason } from '../decision/deny.ts';

/** The `_meta` key (and `error.data` key) under which the gate's decision travels to the host. */
export const decisionMetaKey = 'io.linkgate/decision';

/** JSON-RPC error code of an answer the gate made itself (denied, timed out); implementation-defined range. */
export const gateErrorCode = -32080;

/** Most links remembered from tool results while waiting for a read; the oldest is recorded link-only when full. */
export const maxRememberedLinks = 1024;

/** Options of the transport decorator. */
export interface GateTransportOptions {
  gate: Gate;
  /** the host's id for this connection (a local label), default `default` */
  server?: string;
  /** `observe` records every decision with `wouldDeny` and enforces none; default `enforce` */
  mode?: 'enforce' | 'observe';
  sink?: RecordSink;
  cache?: ReadCache;
  /** opaque label of the authorization context, for `private` cache entries */
  authContext?: string;
  /** clock (tests pass their own) */
  now?: () => Date;
}

/** A gated transport: a Transport, plus `flush` to record links that were found but never read. */
export interface GateTransport extends Transport, Transport2x {
  /** records every remembered, unread link as `link-only` and forgets it */
  flush(): Promise<void>;
}

type Id = string | number;

/** Optional members a 2.x Transport adds to the 1.x shape. */
interface Transport2x {
  setSupportedProtocolVersions?: ((versions: string[]) => void) | undefined;
  readonly hasPerRequestStream?: boolean;
}

interface FoundLinkState {
  link: Readonly<Record<string, unknown>>;
  contentIndex: number | null;
  tool: string | null;
  responseId: Id | null;
  at: Date;
  /** set once a read was attempted, so the link is not recorded again as unread */
  read: boolean;
}

interface PendingRead {
  found: FoundLinkState;
  linkDecision: Decision;
  requestedAt: Date;
  started: number;
  timer?: NodeJS.Timeout;
}

/**
 * Wraps a client Transport (stdio, Streamable HTTP, any with the same interface) so the gate sees raw JSON-RPC both ways:
 * links in `tools/call` results are remembered, a denied `resources/read` is answered locally (never sent), a denied
 * result becomes an error and a partial one keeps only the allowed items, with the decision under `_meta`.
 */
export function gateTransport(inner: Transport, options: GateTransportOptions): GateTransport {
  const { gate } = options;
  const server = options.server ?? 'default';
  const enforced = (options.mode ?? 'enforce') === 'enforce';
  const now = options.now ?? (() => new Date());
  const deadlineMs = gate.policy.document.read.readTimeoutMs;
  const toolCalls = new Map<Id, string | null>();
  const reads = new Map<Id, PendingRead>();
  const found = new Map<string, FoundLinkState>();
  // ids answered locally at their deadline: a late answer from the server is dropped, not passed to the host
  const expired = new Set<Id>();
  let initializeId: Id | null = null;
  let clientInfo: PeerInfo | null = null;
  let serverInfo: PeerInfo | null = null;
  let protocolVersion: string | null = null;
  // inbound messages are handled one after another so the host sees them in wire order
  let inbound: Promise<void> = Promise.resolve();

  const context = (f: FoundLinkState): LinkContext => ({
    server,
    tool: f.tool,
    responseId: f.responseId,
    protocolVersion,
    client: clientInfo,
    serverInfo,
  });
  const deliver = (message: unknown, extra?: MessageExtraInfo) => wrapper.onmessage?.(message as JSONRPCMessage, extra);
  const emit = async (record: LinkRecord) => {
    emitLinkTelemetry(record, { sessionId: inner.sessionId });
    try {
      await options.sink?.write(record);
    } catch (error) {
      wrapper.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const record = async (
    f: FoundLinkState,
    stages: Omit<LinkStages, 'discovered'>,
    link: Decision,
    read: Decision | null,
    outcome: ReadOutcome,
  ): Promise<LinkRecord> => {
    const assembled = assembleRecord({
      stages: { discovered: discoveredStage(linkFacts(f.link), f.contentIndex, context(f), f.at), ...stages },
      decisions: { link, read },
      outcome,
      enforced,
    });
    await emit(assembled);
    return assembled;
  };
  const queue = (work: () => Promise<void>) => {
    inbound = inbound
      .then(work)
      .catch((error: unknown) => wrapper.onerror?.(error instanceof Error ? error : new Error(String(error))));
  };
  // the message names the reason codes and the boundary to check next, so a person or a model can act on it
  const denial = (id: Id, uri: string, decision: Decision, what: string, recorded: LinkRecord) => ({
    jsonrpc: '2.0',
    id,
    error: {
      code: gateErrorCode,
      message: denialMessage(uri, decision, what, recorded.next),
      data: { [decisionMetaKey]: decision },
    },
  });

  async function onRead(
    id: Id,
    params: Record<string, unknown>,
    message: JSONRPCMessage,
    sendOptions?: TransportSendOptions,
  ): Promise<void> {
    const uri = typeof params['uri'] === 'string' ? params['uri'] : '';
    // a later read of the same link keeps its tool-result context; a uri never seen in a tool result gets none
    const f = found.get(uri) ?? {
      link: { type: 'resource_link', uri, name: uri },
      contentIndex: null,
      tool: null,
      responseId: null,
      at: now(),
      read: true,
    };
    f.read = true;
    const linkDecision = await gate.decide({ stage: 'link', server, readFrom: server, link: f.link });
    if (enforced && linkDecision.effect === 'deny') {
      queue(async () => {
        const recorded = await record(f, { requested: null, received: null, delivered: null }, linkDecision, null, {
          kind: 'not-attempted',
          why: 'the link was denied',
        });
        deliver(denial(id, uri, linkDecision, 'denied by policy', recorded));
      });
      return;
    }
    const hit = options.cache?.lookup(cacheKey(uri));
    if (hit !== undefined) {
      const pending: PendingRead = { found: f, linkDecision, requestedAt: now(), started: performance.now() };
      queue(() =>
        onReadAnswer(id, { jsonrpc: '2.0', id, result: hit.result }, pending, { ageMs: hit.ageMs, ttlMs: hit.ttlMs }),
      );
      return;
    }
    const timer = setTimeout(() => onDeadline(id), deadlineMs);
    timer.unref();
    reads.set(id, { found: f, linkDecision, requestedAt: now(), started: performance.now(), timer });
    try {
      await inner.send(message, sendOptions);
    } catch (error) {
      // an HTTP transport rejects here when the POST or its body fails (a byte cap, a refused connection): the client
      // rejects the request with this error, so the read is recorded as failed now, not answered again at the deadline
      const pending = reads.get(id);
      if (pending !== undefined) {
        reads.delete(id);
        clearTimeout(pending.timer);
        // only linkgate's own messages go into the record: a transport error may quote the server's response body
        const why =
          error instanceof GateError ? `the request failed: ${error.message}` : 'the request failed before an answer';
        queue(() => recordFailed(id, pending, why));
      }
      throw error;
    }
  }

  async function recordFailed(id: Id, pending: PendingRead, why: string): Promise<void> {
    const decision = deny(gate.policy, reason('read.error', 'read', 'read', why));
    const requested = {
      at: pending.requestedAt.toISOString(),
      requestId: id,
      server,
      deadlineMs,
      transport: 'resources/read' as const,
    };
    await record(pending.found, { requested, received: null, delivered: null }, pending.linkDecision, decision, {
      kind: 'failed',
      why,
    });
  }

  function onDeadline(id: Id): void {
    const pending = reads.get(id);
    if (pending === undefined) return;
    reads.delete(id);
    expired.add(id);
    if (expired.size > maxRememberedLinks) expired.delete(expired.values().next().value as Id);
    // tell the server to stop; its late answer, if any, is dropped because the id is no longer pending
    inner
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'linkgate read deadline' },
      })
      .catch(() => {});
    const decision = deny(
      gate.policy,
      reason('read.timeout', 'read.readTimeoutMs', 'read', `no answer within the \`${deadlineMs}\` ms deadline`),
    );
    queue(async () => {
      const requested = {
        at: pending.requestedAt.toISOString(),
        requestId: id,
        server,
        deadlineMs,
        transport: 'resources/read' as const,
      };
      const recorded = await record(
        pending.found,
        { requested, received: null, delivered: null },
        pending.linkDecision,
        decision,
        { kind: 'timeout', deadlineMs },
      );
      deliver(denial(id, linkFacts(pending.found.link).uri, decision, 'timed out', recorded));
    });
  }

  async function onReadAnswer(
    id: Id,
    message: Record<string, unknown>,
    pending: PendingRead,
    cache: { ageMs: number; ttlMs: number } | null,
    extra?: MessageExtraInfo,
  ): Promise<void> {
    const f = pending.found;
    const uri = linkFacts(f.link).uri;
    const elapsedMs = cache === null ? Math.round(performance.now() - pending.started) : 0;
    const requested =
      cache === null
        ? {
            at: pending.requestedAt.toISOString(),
            requestId: id,
            server,
            deadlineMs,
            transport: 'resources/read' as const,
          }
        : null;
    const readInput = (result: Record<string, unknown>) => ({
      stage: 'read',
      server,
      readFrom: server,
      link: f.link,
      elapsedMs,
      result,
    });
    if (isRecord(message['error'])) {
      const error = { code: Number(message['error']['code']), message: jsonText(message['error']['message']) };
      const { decision } = await gate.decideReadDetailed(readInput({ error }));
      await record(
        f,
        { requested, received: receivedFromError(error, elapsedMs, now()), delivered: null },
        pending.linkDecision,
        decision,
        { kind: 'error', code: error.code },
      );
      deliver(message, extra);
      return;
    }
    const result = isRecord(message['result']) ? message['result'] : {};
    const { decision, evidence } = await gate.decideReadDetailed(readInput(result));
    const received = receivedFromResult(result, evidence, elapsedMs, now(), cache);
    const resultType = result['resultType'] ?? 'complete';
    const stages = { requested, received, delivered: null };
    if (resultType !== 'complete') {
      const outcome: ReadOutcome =
        resultType === 'input_required'
          ? { kind: 'input-required' }
          : { kind: 'result-type-unknown', resultType: jsonText(resultType).slice(0, 40) };
      const recorded = await record(f, stages, pending.linkDecision, decision, outcome);
      // the host may answer input itself only when the policy says so; otherwise the read ends here
      const passInput = resultType === 'input_required' && gate.policy.document.read.answerInputRequired === true;
      deliver(!enforced || passInput ? message : denial(id, uri, decision, 'did not complete', recorded), extra);
      return;
    }
    if (cache === null) options.cache?.store(cacheKey(uri), result);
    const contents = contentsOf(result);
    if (!enforced) {
      const all = contents.map((_, i) => i);
      await record(
        f,
        { ...stages, delivered: deliveredStage(received, contents, all, [], now()) },
        pending.linkDecision,
        decision,
        { kind: 'complete' },
      );
      deliver(message, extra);
      return;
    }
    const { deliver: keep, dropped } = deliverableIndices(decision, contents.length);
    const delivered = deliveredStage(received, contents, keep, dropped, now());
    const recorded = await record(f, { ...stages, delivered }, pending.linkDecision, decision, { kind: 'complete' });
    if (delivered === null) {
      deliver(denial(id, uri, decision, 'denied by policy', recorded), extra);
    } else if (decision.effect === 'allow') {
      deliver(message, extra);
    } else {
      const meta = isRecord(result['_meta']) ? result['_meta'] : {};
      const filtered = {
        ...result,
        contents: keep.map((i) => contents[i]),
        _meta: { ...meta, [decisionMetaKey]: decision },
      };
      deliver({ ...message, result: filtered }, extra);
    }
  }

  function onToolResult(id: Id, tool: string | null, result: unknown): void {
    for (const { index, link } of discoverLinks(result).links) {
      const uri = linkFacts(link).uri;
      found.delete(uri);
      found.set(uri, { link, contentIndex: index, tool, responseId: id, at: now(), read: false });
      if (found.size > maxRememberedLinks) {
        const oldest = found.entries().next();
        if (oldest.done !== true) {
          found.delete(oldest.value[0]);
          if (!oldest.value[1].read)
            queue(() => recordUnread(oldest.value[1], 'the host did not read it before more links arrived'));
        }
      }
    }
  }

  async function recordUnread(f: FoundLinkState, why: string): Promise<void> {
    const linkDecision = await gate.decide({ stage: 'link', server, readFrom: server, link: f.link });
    const outcomeWhy = enforced && linkDecision.effect === 'deny' ? 'the link was denied' : why;
    await record(f, { requested: null, received: null, delivered: null }, linkDecision, null, {
      kind: 'not-attempted',
      why: outcomeWhy,
    });
  }

  function cacheKey(uri: string) {
    return { server, uri, ...(options.authContext === undefined ? {} : { authContext: options.authContext }) };
  }

  const wrapper: GateTransport = {
    start: () => inner.start(),
    async close() {
      for (const pending of reads.values()) clearTimeout(pending.timer);
      await wrapper.flush();
      await inner.close();
    },
    async send(message: JSONRPCMessage, sendOptions?: TransportSendOptions) {
      const m = message as Record<string, unknown>;
      const id = m['id'];
      const params = isRecord(m['params']) ? m['params'] : {};
      if (typeof m['method'] === 'string' && (typeof id === 'string' || typeof id === 'number')) {
        if (m['method'] === 'resources/read') return onRead(id, params, message, sendOptions);
        if (m['method'] === 'tools/call') toolCalls.set(id, typeof params['name'] === 'string' ? params['name'] : null);
        if (m['method'] === 'initialize') {
          initializeId = id;
          clientInfo = peerOf(params['clientInfo']);
        }
      }
      return inner.send(message, sendOptions);
    },
    async flush() {
      const unread = [...found.values()].filter((f) => !f.read);
      found.clear();
      for (const f of unread) queue(() => recordUnread(f, 'the host did not read it'));
      await inbound;
    },
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion(version: string) {
      protocolVersion = version;
      inner.setProtocolVersion?.(version);
    },
    // members a 2.x Transport may have (`@modelcontextprotocol/client`): the client reads or calls them on the wrapper
    setSupportedProtocolVersions(versions: string[]) {
      (inner as Transport2x).setSupportedProtocolVersions?.(versions);
    },
  };
  if ('hasPerRequestStream' in inner)
    Object.defineProperty(wrapper, 'hasPerRequestStream', { get: () => (inner as Transport2x).hasPerRequestStream });

  inner.onmessage = (message, extra) => {
    const m = message as Record<string, unknown>;
    const id = m['id'];
    const isResponse = (typeof id === 'string' || typeof id === 'number') && m['method'] === undefined;
    if (isResponse && reads.has(id)) {
      const pending = reads.get(id) as PendingRead;
      reads.delete(id);
      clearTimeout(pending.timer);
      queue(() => onReadAnswer(id, m, pending, null, extra));
      return;
    }
    if (isResponse && expired.delete(id)) return;
    if (isResponse && toolCalls.has(id)) {
      const tool = toolCalls.get(id) ?? null;
      toolCalls.delete(id);
      onToolResult(id, tool, m['result']);
    }
    if (isResponse && id === initializeId && isRecord(m['result'])) serverInfo = peerOf(m['result']['serverInfo']);
    queue(async () => deliver(message, extra));
  };
  inner.onerror = (error) => wrapper.onerror?.(error);
  inner.onclose = () => {
    for (const [id, pending] of reads) {
      clearTimeout(pending.timer);
      queue(() => recordFailed(id, pending, 'the connection closed before an answer'));
    }
    reads.clear();
    wrapper.onclose?.();
  };
  return wrapper;
}

/** The message of a read the gate answered itself: masked uri, what happened, the reason codes and the next boundary. */
export function denialMessage(uri: string, decision: Decision, what: string, next: NextStep | null): string {
  const codes = [...new Set(decision.reasons.map((r) => r.code))].join(', ');
  const why = codes === '' ? '' : ` (${codes})`;
  const then = next === null ? '' : `; check next: ${next.boundary}: ${next.hint}`;
  return `linkgate: read of \`${maskUri(uri)}\` ${what}${why}${then}`;
}

function peerOf(value: unknown): PeerInfo | null {
  if (!isRecord(value) || typeof value['name'] !== 'string') return null;
  return { name: value['name'], version: typeof value['version'] === 'string' ? value['version'] : '' };
}
