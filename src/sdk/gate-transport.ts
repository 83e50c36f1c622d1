import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { Decision } from '../decision/decision.ts';
import { decisionMetaKey } from '../flow/decision-meta.ts';
import { discoverLinks, linkFacts } from '../flow/discover-links.ts';
import { reasonCodesOf } from '../flow/gate-notice.ts';
import { judgeEmbeddedItems, judgeMessages } from '../flow/judge-embedded.ts';
import { answerOf } from '../flow/link-reader.ts';
import {
  discoverLink,
  judgeRead,
  type LinkStep,
  linkRefused,
  type ReadJudgement,
  readFailed,
  sendRead,
  skipRead,
  startLink,
} from '../flow/link-steps.ts';
import type { ReadCache } from '../flow/read-cache.ts';
import { GateError } from '../gate-error.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../json-value.ts';
import { maskUri } from '../link/mask-uri.ts';
import type { LinkContext } from '../record/build-stages.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord, NextStep, PeerInfo, RequestedStage } from '../record/link-record.ts';
import { telemetrySink } from '../record/link-telemetry.ts';
import type { RecordSink } from '../record/record-sink.ts';

export { decisionMetaKey } from '../flow/decision-meta.ts';

/** Server→host requests whose messages may carry embedded resources, judged before the host sees them. */
export const judgedServerRequests: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create']);

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
  /**
   * whether this transport judges the embedded resources of tool results, prompt results and server requests (default
   * true); false when the caller judges them itself (the proxy, which splices its changes into the original bytes)
   */
  judgeEmbedded?: boolean;
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
  step: LinkStep;
  requested: RequestedStage;
  started: number;
  timer: NodeJS.Timeout;
}

/**
 * Wraps a client Transport (stdio, Streamable HTTP, any with the same interface) so the gate sees raw JSON-RPC both ways:
 * links in `tools/call` results are remembered, a denied `resources/read` is answered locally (never sent), a denied
 * result becomes an error and a partial one keeps only the allowed items, with the decision under `_meta`. The
 * decisions and records are the flow's steps (`src/flow/link-steps.ts`); this file only routes messages to them.
 */
export function gateTransport(inner: Transport, options: GateTransportOptions): GateTransport {
  const { gate } = options;
  const server = options.server ?? 'default';
  const mode = options.mode ?? 'enforce';
  const now = options.now ?? (() => new Date());
  const deadlineMs = gate.policy.document.read.readTimeoutMs;
  const toolCalls = new Map<Id, string | null>();
  const promptCalls = new Set<Id>();
  const judgeItems = options.judgeEmbedded !== false;
  const sink = telemetrySink(options.sink, { sessionId: () => inner.sessionId });
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
    try {
      await sink.write(record);
    } catch (error) {
      wrapper.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const emitEmbedded = async (records: readonly EmbeddedRecord[]) => {
    try {
      for (const record of records) await sink.writeEmbedded?.(record);
    } catch (error) {
      wrapper.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const startStep = (f: FoundLinkState): Promise<LinkStep> =>
    startLink(gate, {
      link: f.link,
      discovered: discoverLink(f.link, f.contentIndex, context(f), f.at),
      linkServer: server,
      mode,
    });
  const queue = (work: () => Promise<void>) => {
    inbound = inbound
      .then(work)
      .catch((error: unknown) => wrapper.onerror?.(error instanceof Error ? error : new Error(String(error))));
  };
  // the message names the reason codes and the boundary to check next, so a person or a model can act on it
  const denial = (id: Id, step: LinkStep, decision: Decision, what: string, recorded: LinkRecord) => ({
    jsonrpc: '2.0',
    id,
    error: {
      code: gateErrorCode,
      message: denialMessage(linkFacts(step.link).uri, decision, what, recorded.next),
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
    const step = await startStep(f);
    if (linkRefused(step)) {
      queue(async () => {
        const recorded = skipRead(step, 'the link was denied');
        await emit(recorded);
        deliver(denial(id, step, step.linkDecision, 'denied by policy', recorded));
      });
      return;
    }
    const hit = options.cache?.lookup(cacheKey(uri));
    if (hit !== undefined) {
      const cache = { ageMs: hit.ageMs, ttlMs: hit.ttlMs };
      queue(async () => {
        const judged = await judgeRead(
          gate,
          step,
          { result: hit.result },
          { requested: null, elapsedMs: 0, cache, now },
        );
        await emit(judged.record);
        answerHost(id, { jsonrpc: '2.0', id, result: hit.result }, step, judged);
      });
      return;
    }
    const timer = setTimeout(() => onDeadline(id), deadlineMs);
    timer.unref();
    reads.set(id, { step, requested: sendRead(gate, step, now(), id), started: performance.now(), timer });
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
        queue(() => emit(readFailed(gate, pending.step, pending.requested, { kind: 'failed', why }).record));
      }
      throw error;
    }
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
    queue(async () => {
      const failed = readFailed(gate, pending.step, pending.requested, { kind: 'timeout', deadlineMs });
      await emit(failed.record);
      deliver(denial(id, pending.step, failed.decision, 'timed out', failed.record));
    });
  }

  async function onReadAnswer(
    id: Id,
    message: Record<string, unknown>,
    pending: PendingRead,
    extra?: MessageExtraInfo,
  ): Promise<void> {
    const answer = answerOf(message);
    const elapsedMs = Math.round(performance.now() - pending.started);
    const judged = await judgeRead(gate, pending.step, answer, { requested: pending.requested, elapsedMs, now });
    if (judged.complete && 'result' in answer)
      options.cache?.store(cacheKey(linkFacts(pending.step.link).uri), answer.result);
    await emit(judged.record);
    answerHost(id, message, pending.step, judged, extra);
  }

  /** Passes the read's answer on as the flow decided: as it came, with only the allowed items, or as a denial. */
  function answerHost(
    id: Id,
    message: Record<string, unknown>,
    step: LinkStep,
    judged: ReadJudgement,
    extra?: MessageExtraInfo,
  ): void {
    if (judged.delivery === 'whole') {
      deliver(message, extra);
      return;
    }
    if (judged.delivery === 'none') {
      const what = judged.complete ? 'denied by policy' : 'did not complete';
      deliver(denial(id, step, judged.decision, what, judged.record), extra);
      return;
    }
    const result = isRecord(message['result']) ? message['result'] : {};
    const meta = isRecord(result['_meta']) ? result['_meta'] : {};
    const filtered = {
      ...result,
      contents: judged.deliver.map((i) => judged.contents[i]),
      _meta: { ...meta, [decisionMetaKey]: judged.decision },
    };
    deliver({ ...message, result: filtered }, extra);
  }

  /** A tool result's message with each withheld embedded resource replaced by its notice (the same message when none is). */
  async function judgedToolResult(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = message['result'];
    if (!isRecord(result) || !Array.isArray(result['content'])) return message;
    const content: unknown[] = result['content'];
    const judged = await judgeEmbeddedItems(gate, content, mode);
    await emitEmbedded(judged.records);
    if (judged.changed.size === 0) return message;
    return { ...message, result: { ...result, content: content.map((item, i) => judged.changed.get(i) ?? item) } };
  }

  /** A message whose `key` (`result` of `prompts/get`, `params` of a server request) holds `messages`, judged the same way. */
  async function judgedMessages(message: Record<string, unknown>, key: 'result' | 'params') {
    const holder = message[key];
    if (!isRecord(holder)) return message;
    const judged = await judgeMessages(gate, holder['messages'], mode);
    await emitEmbedded(judged.records);
    return judged.messages === null ? message : { ...message, [key]: { ...holder, messages: judged.messages } };
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
    await emit(skipRead(await startStep(f), why));
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
        if (m['method'] === 'prompts/get') promptCalls.add(id);
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
      queue(() => onReadAnswer(id, m, pending, extra));
      return;
    }
    if (isResponse && expired.delete(id)) return;
    if (isResponse && toolCalls.has(id)) {
      const tool = toolCalls.get(id) ?? null;
      toolCalls.delete(id);
      onToolResult(id, tool, m['result']);
      if (judgeItems) return queue(async () => deliver(await judgedToolResult(m), extra));
    }
    if (isResponse && promptCalls.delete(id) && judgeItems)
      return queue(async () => deliver(await judgedMessages(m, 'result'), extra));
    if (!isResponse && judgeItems && typeof m['method'] === 'string' && judgedServerRequests.has(m['method']))
      return queue(async () => deliver(await judgedMessages(m, 'params'), extra));
    if (isResponse && id === initializeId && isRecord(m['result'])) serverInfo = peerOf(m['result']['serverInfo']);
    queue(async () => deliver(message, extra));
  };
  inner.onerror = (error) => wrapper.onerror?.(error);
  inner.onclose = () => {
    for (const pending of reads.values()) {
      clearTimeout(pending.timer);
      const why = 'the connection closed before an answer';
      queue(() => emit(readFailed(gate, pending.step, pending.requested, { kind: 'failed', why }).record));
    }
    reads.clear();
    wrapper.onclose?.();
  };
  return wrapper;
}

/** The message of a read the gate answered itself: masked uri, what happened, the reason codes and the next boundary. */
export function denialMessage(uri: string, decision: Decision, what: string, next: NextStep | null): string {
  const codes = reasonCodesOf(decision).join(', ');
  const why = codes === '' ? '' : ` (${codes})`;
  const then = next === null ? '' : `; check next: ${next.boundary}: ${next.hint}`;
  return `linkgate: read of \`${maskUri(uri)}\` ${what}${why}${then}`;
}

function peerOf(value: unknown): PeerInfo | null {
  if (!isRecord(value) || typeof value['name'] !== 'string') return null;
  return { name: value['name'], version: typeof value['version'] === 'string' ? value['version'] : '' };
}
