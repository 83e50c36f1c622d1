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
import { GateError } from '../errors.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../decision/json-value.ts';
import { maskUri } from '../link/mask-uri.ts';
import type { LinkContext } from '../record/build-stages.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord, NextStep, PeerInfo, RequestedStage } from '../record/link-record.ts';
import { telemetrySink } from '../record/link-telemetry.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { isJsonRpcId, messageShape } from './json-rpc-shape.ts';
import { editMessage, type MessageEdit } from './message-edits.ts';

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
  // requests sent to the server and not yet answered, with their method: only an answer to one of these is passed
  // on, and only once its request went out (an answer that comes first, for an id not sent yet, is dropped)
  const outstanding = new Map<Id, string>();
  // the tool of each `tools/call` and `tasks/result` in flight, and the tool each task was created by
  const toolCalls = new Map<Id, string | null>();
  const taskTools = new Map<string, string | null>();
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
  // records are written one after another, so a sink sees them in order; answers never wait for other answers
  let recordsWritten: Promise<void> = Promise.resolve();
  // work started for messages the gate judges (and records of unread links), so `flush` can wait for all of it
  const working = new Set<Promise<void>>();

  const context = (f: FoundLinkState): LinkContext => ({
    server,
    tool: f.tool,
    responseId: f.responseId,
    protocolVersion,
    client: clientInfo,
    serverInfo,
  });
  const deliver = (message: unknown, extra?: MessageExtraInfo) => wrapper.onmessage?.(message as JSONRPCMessage, extra);
  const fail = (error: unknown) => wrapper.onerror?.(error instanceof Error ? error : new Error(String(error)));
  const emit = (record: LinkRecord): Promise<void> => {
    recordsWritten = recordsWritten.then(async () => {
      try {
        await sink.write(record);
      } catch (error) {
        fail(error);
      }
    });
    return recordsWritten;
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
  // each judged message is its own piece of work: a message the gate does not judge never waits behind it
  const queue = (work: () => Promise<void>) => {
    const running = work()
      .catch(fail)
      .finally(() => working.delete(running));
    working.add(running);
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
    outstanding.set(id, 'resources/read');
    try {
      await inner.send(message, sendOptions);
    } catch (error) {
      outstanding.delete(id);
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
    outstanding.delete(id);
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
    try {
      answerHost(id, message, pending.step, judged, extra);
    } catch (error) {
      // an answer that cannot be passed on as judged fails its request: the host is never left waiting
      deliver(gateError(id, `linkgate: the answer could not be passed on as judged: ${firstLine(error)}`), extra);
    }
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
    // only the contents and the decision change: a front end that kept the answer's bytes edits just those
    const result = isRecord(message['result']) ? message['result'] : {};
    const edits: MessageEdit[] = [{ op: 'keep', path: ['result', 'contents'], indices: judged.deliver }];
    if (isRecord(result['_meta']))
      edits.push({ op: 'set', path: ['result', '_meta'], key: decisionMetaKey, value: judged.decision });
    else edits.push({ op: 'set', path: ['result'], key: '_meta', value: { [decisionMetaKey]: judged.decision } });
    deliver(editMessage(message, edits), extra);
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

  /** Routes one answer from the server: only to a request that was sent, judged when it answers a read. */
  function onAnswer(id: Id, m: Record<string, unknown>, extra?: MessageExtraInfo): void {
    const method = outstanding.get(id);
    if (method === undefined) {
      if (!expired.delete(id))
        fail(new Error(`dropped an answer for id \`${String(id)}\` that no request is waiting on`));
      return;
    }
    outstanding.delete(id);
    const pending = reads.get(id);
    if (pending !== undefined) {
      reads.delete(id);
      clearTimeout(pending.timer);
      queue(() => onReadAnswer(id, m, pending, extra));
      return;
    }
    if (id === initializeId && isRecord(m['result'])) serverInfo = peerOf(m['result']['serverInfo']);
    if (method === 'tools/call' || method === 'tasks/result') {
      const tool = toolCalls.get(id) ?? null;
      toolCalls.delete(id);
      const result = m['result'];
      // a task-augmented call answers with the task; its result comes later through `tasks/result`
      if (method === 'tools/call' && isRecord(result) && isRecord(result['task']))
        remember(taskTools, String(result['task']['taskId']), tool);
      onToolResult(id, tool, result);
      if (judgeItems) return queue(async () => deliver(await judgedToolResult(m), extra));
    }
    if (method === 'prompts/get' && judgeItems)
      return queue(async () => deliver(await judgedMessages(m, 'result'), extra));
    deliver(m, extra);
  }

  /** One message from the server: requests and notifications pass at once; answers are matched; the rest is dropped. */
  function onInbound(message: unknown, extra?: MessageExtraInfo): void {
    const shape = messageShape(message);
    if (shape.kind === 'request' && judgeItems && judgedServerRequests.has(shape.method)) {
      const m = message as Record<string, unknown>;
      return queue(async () => deliver(await judgedMessages(m, 'params'), extra));
    }
    if (shape.kind === 'request' || shape.kind === 'notification') return deliver(message, extra);
    if (shape.kind === 'answer') return onAnswer(shape.id, message as Record<string, unknown>, extra);
    // a malformed message never reaches the host; when it names a request in flight, that request fails
    if (shape.id !== null && outstanding.has(shape.id))
      return onAnswer(
        shape.id,
        gateError(shape.id, `linkgate: the server sent a malformed answer: ${shape.why}`),
        extra,
      );
    fail(new Error(`dropped a message from the server that is not json-rpc: ${shape.why}`));
  }

  /** Notes a request before it goes out, so its answer can be matched. */
  function noteRequest(message: unknown): void {
    const shape = messageShape(message);
    if (shape.kind !== 'request') return;
    const { id, method } = shape;
    const params = (message as { params?: unknown }).params;
    outstanding.set(id, method);
    if (method === 'tools/call')
      toolCalls.set(id, isRecord(params) && typeof params['name'] === 'string' ? params['name'] : null);
    if (method === 'tasks/result')
      toolCalls.set(id, isRecord(params) ? (taskTools.get(String(params['taskId'])) ?? null) : null);
    if (method === 'initialize') {
      initializeId = id;
      clientInfo = peerOf(isRecord(params) ? params['clientInfo'] : undefined);
    }
  }

  async function sendNoted(message: JSONRPCMessage | JSONRPCMessage[], sendOptions?: TransportSendOptions) {
    const list: unknown[] = Array.isArray(message) ? message : [message];
    for (const m of list) noteRequest(m);
    try {
      await inner.send(message as JSONRPCMessage, sendOptions);
    } catch (error) {
      for (const m of list) {
        const shape = messageShape(m);
        if (shape.kind === 'request') {
          outstanding.delete(shape.id);
          toolCalls.delete(shape.id);
        }
      }
      throw error;
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
      const batch: unknown = message;
      if (Array.isArray(batch)) {
        // a batch holding a read goes out one message at a time, so every read meets its link decision
        if (!batch.some(isRead)) return sendNoted(batch as JSONRPCMessage[], sendOptions);
        for (const element of batch) await wrapper.send(element as JSONRPCMessage, sendOptions);
        return;
      }
      const m = message as Record<string, unknown>;
      if (isRead(m)) return onRead(m['id'] as Id, isRecord(m['params']) ? m['params'] : {}, message, sendOptions);
      return sendNoted(message, sendOptions);
    },
    async flush() {
      const unread = [...found.values()].filter((f) => !f.read);
      found.clear();
      for (const f of unread) queue(() => recordUnread(f, 'the host did not read it'));
      while (working.size > 0) await Promise.all(working);
      await recordsWritten;
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
    const batch: unknown = message;
    if (!Array.isArray(batch)) return onInbound(message, extra);
    // a batch of notifications and requests that need no judging passes whole; one holding anything else is taken
    // apart, so each answer meets the gate on its own and nothing malformed rides along
    const shapes = batch.map(messageShape);
    const whole = (s: ReturnType<typeof messageShape>) =>
      s.kind === 'notification' || (s.kind === 'request' && !(judgeItems && judgedServerRequests.has(s.method)));
    if (shapes.length > 0 && shapes.every(whole)) return deliver(message, extra);
    for (const element of batch) onInbound(element, extra);
  };
  inner.onerror = (error) => wrapper.onerror?.(error);
  inner.onclose = () => {
    for (const pending of reads.values()) {
      clearTimeout(pending.timer);
      const why = 'the connection closed before an answer';
      queue(() => emit(readFailed(gate, pending.step, pending.requested, { kind: 'failed', why }).record));
    }
    reads.clear();
    outstanding.clear();
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

/** An error answer the gate made for request `id` (code `gateErrorCode`). */
function gateError(id: Id, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code: gateErrorCode, message } };
}

function isRead(message: unknown): boolean {
  return isRecord(message) && message['method'] === 'resources/read' && isJsonRpcId(message['id']);
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value);
  if (map.size > maxRememberedLinks) map.delete(map.keys().next().value as K);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function peerOf(value: unknown): PeerInfo | null {
  if (!isRecord(value) || typeof value['name'] !== 'string') return null;
  return { name: value['name'], version: typeof value['version'] === 'string' ? value['version'] : '' };
}
