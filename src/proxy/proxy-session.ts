import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Gate } from '../gate/create-gate.ts';
import { type OnRecordError, recordErrorWithholds, recordWithheldError } from '../record/record-error.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { isRecord } from '../decision/json-value.ts';
import { frontedGateTransport, gateErrorCode, judgedServerRequests } from '../sdk/gate-transport.ts';
import { messageShape, type JsonRpcId } from '../flow/json-rpc-shape.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { batchJudged } from './batch-judged.ts';
import { EditedLine } from './edited-line.ts';
import { type EditMaker, itemJudge, type ItemResultMethod } from './gate-result-items.ts';
import { HostOutbox, type OutboxPlace } from './host-outbox.ts';
import type { PacedTransport } from './line-transport.ts';
import { ServerOrder } from './server-order.ts';
import { errorLine } from '../decision/error-line.ts';

/** Methods whose requests or results the proxy gates; everything else passes as it came. */
export const gatedMethods: ReadonlySet<string> = new Set([
  'resources/read',
  'tools/call',
  'tasks/result',
  'prompts/get',
]);

/** Host messages queued for the server past which the proxy stops reading the host until they went out. */
export const maxQueuedHostMessages = 8;

/** Server messages held for the host (behind one being judged) past which the proxy stops reading the server. */
export const maxHeldServerMessages = 16;

/** JSON-RPC code for a request the proxy refused as malformed (bad id, id already in flight). */
export const invalidRequestCode = -32600;

/** Options of one proxy session. */
export interface ProxySessionOptions {
  gate: Gate;
  /** the host's id for the proxied server (a local label), default `default` */
  server?: string;
  /** `observe` forwards everything and records `wouldDeny`; default `enforce` */
  mode?: 'enforce' | 'observe';
  sink?: RecordSink;
  /** enforce mode, when a record cannot be written: `withhold` (default) answers with the failure, `report` passes on */
  onRecordError?: OnRecordError;
  /** one-line notes for the proxy's stderr (a dropped stray answer, say) */
  warn?: (message: string) => void;
}

/** A running session: `closed` settles once both sides are done and every record is written. */
export interface ProxySession {
  /** starts both transports (the server side first) */
  start(): Promise<void>;
  readonly closed: Promise<void>;
  /** fails a request the host is waiting for, as if the server had answered with this error (used for broken lines) */
  failUpstream(id: JsonRpcId, message: string): boolean;
  /** fails a host message that could not be read (over the cap, not JSON) */
  refuseHost(id: JsonRpcId | null, code: number, message: string): void;
}

type Msg = Record<string, unknown>;

/** Answers whose result the proxy judges item by item (tool results, also when fetched later as a task's result). */
const itemMethods: ReadonlyMap<string, ItemResultMethod> = new Map([
  ['tools/call', 'tools/call'],
  ['tasks/result', 'tools/call'],
  ['prompts/get', 'prompts/get'],
]);

/**
 * Joins the host (an MCP client on the proxy's stdio) to the real server through the transport decorator, so reads
 * are gated by the one flow. Answers reach the host only for requests it sent, once they were sent, and only as
 * judged; tool and prompt results get their items judged (enforce mode). Every other message passes unchanged. Each
 * direction keeps its order: a message being judged holds back the requests and notifications behind it (only answers
 * to other requests may pass it, as JSON-RPC matches them by id), and past a few held the proxy stops reading.
 */
export function proxySession(host: Transport, upstream: Transport, options: ProxySessionOptions): ProxySession {
  const { gate } = options;
  const server = options.server ?? 'default';
  const enforced = (options.mode ?? 'enforce') === 'enforce';
  const warn = options.warn ?? (() => {});
  // embedded resources are judged here, not in the decorator, so the judged items are spliced into the original bytes
  const withholds = recordErrorWithholds(options.mode ?? 'enforce', options.onRecordError);
  // a host over a line transport gets a judged result as its original bytes with the edits spliced in: the judge
  // makes no copy of the message (an in-memory host gets the edited message itself)
  const edited: EditMaker | undefined =
    'writesEditedLines' in host ? (message, edits) => new EditedLine(message, edits) : undefined;
  const hostNow =
    'sendNow' in host && typeof host.sendNow === 'function'
      ? (host.sendNow as (message: JSONRPCMessage) => void).bind(host)
      : null;
  const items = itemJudge(
    gate,
    server,
    async (record) => {
      try {
        await options.sink?.writeEmbedded?.(record);
      } catch (error) {
        warn(errorLine(error));
        // the answer is then failed, not passed on (judgeThenSend)
        if (withholds) throw recordWithheldError(error);
      }
    },
    edited,
    // a link decided here (one only in `structuredContent` or a JSON text) is noted as refused as the decorator's are
    (uri, decision) => gated.noteDecided(uri, decision),
  );
  // answers being judged: the session closes only after they went out
  const judging = new Set<Promise<void>>();
  let hostOpen = true;
  let upstreamOpen = true;
  let settle: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    settle = resolve;
  });
  // backpressure: while one side does not read what the proxy writes to it, the proxy stops reading the other
  const hostPace = paced(host);
  const upstreamPace = paced(upstream);
  // a side's input is paused while any reason holds it (the other side backed up, host messages still queued)
  const holds = new Map<PacedTransport, number>();
  const hold = (reader: PacedTransport) => {
    const n = holds.get(reader) ?? 0;
    holds.set(reader, n + 1);
    if (n === 0) reader.pauseInput();
  };
  const letGo = (reader: PacedTransport) => {
    const n = (holds.get(reader) ?? 1) - 1;
    holds.set(reader, n);
    if (n === 0) reader.resumeInput();
  };
  const backedUp = new Set<PacedTransport>();
  const holdWhileBackedUp = (writer: PacedTransport | null, reader: PacedTransport | null) => {
    if (writer === null || reader === null || !writer.backedUp || backedUp.has(writer)) return;
    backedUp.add(writer);
    hold(reader);
    writer.whenDrained(() => {
      backedUp.delete(writer);
      letGo(reader);
    });
  };
  // what goes to the host, in the server's order; past a few held, the server is not read until they went out
  let serverHeld = false;
  const outbox = new HostOutbox(
    (message, id) => write(message, id),
    (waiting) => {
      if (upstreamPace === null || serverHeld === waiting > maxHeldServerMessages) return;
      serverHeld = !serverHeld;
      if (serverHeld) hold(upstreamPace);
      else letGo(upstreamPace);
    },
  );
  // the decorator says which server messages it holds to judge: each keeps its place in the server's order
  const order = new ServerOrder(outbox);
  // the decorator's link step of each link of a tool result (decided once, recorded as discovered), handed over just
  // before the result reaches `fromServer`, which takes it
  const linkSteps = new Map<JsonRpcId, ReadonlyMap<number, LinkStep>>();
  const gated = frontedGateTransport(upstream, {
    gate,
    server,
    mode: options.mode ?? 'enforce',
    judgeEmbedded: false,
    onToolResultSteps: (id, steps) => linkSteps.set(id, steps),
    onEarlyItems: items.early,
    onHeld: order.held,
    frontEnd: 'proxy',
    ...(options.onRecordError === undefined ? {} : { onRecordError: options.onRecordError }),
    ...optionalSink(options),
  });
  // the host's requests it still waits on, with their method (the decorator's one table): an answer for any other
  // id is dropped
  const pending = gated.waiting;
  // host messages wait their turn in one queue, taken one at a time (each read meets its link decision in order):
  // past a few queued, the proxy stops reading the host until the queue has caught up
  let hostQueued = 0;
  let hostHeld = false;
  // the messages behind the one being taken (from `hostHead` on), and who waits for the queue to be empty
  let hostWaiting: unknown[] = [];
  let hostHead = 0;
  let hostIdle: (() => void)[] = [];

  // `id`: the request this message answers; when the message cannot be written (too deep to serialize, say), that
  // request fails with an error the host sees instead of waiting forever
  // the error answers of answers that could not be written
  const unwritten = new WeakSet<object>();
  const write = (message: unknown, id: JsonRpcId | null) => {
    if (!hostOpen) return;
    const failed = (error: unknown) => {
      // the error answer that could not be written either is not answered again (a closed output fails every write)
      if (id === null || !hostOpen || unwritten.has(message as object))
        return warn(`cannot write to the host: ${errorLine(error)}`);
      const answer = errorAnswer(id, gateErrorCode, `linkgate: the answer could not be passed on: ${errorLine(error)}`);
      unwritten.add(answer);
      toHost(answer, id);
    };
    // a line transport writes in this turn (no promise per answer); a failure fails the request as a rejection would
    if (hostNow === null) host.send(message as JSONRPCMessage).catch(failed);
    else
      try {
        hostNow(message as JSONRPCMessage);
      } catch (error) {
        failed(error);
      }
    holdWhileBackedUp(hostPace, upstreamPace);
  };
  // into the place kept for it, or after everything taken so far
  const toHost = (message: unknown, id: JsonRpcId | null = null, place: OutboxPlace | null = order.placeOf(id)) => {
    if (place === null) outbox.put(message, id);
    else place.fill(message, id);
  };
  const answerError = (id: JsonRpcId | null, code: number, message: string) =>
    toHost(errorAnswer(id, code, message), id);

  // a message the host sent, judged and sent on; a promise only while something is still to happen
  function fromHost(message: unknown): Promise<void> | undefined {
    if (Array.isArray(message)) return fromHostBatch(message);
    const shape = messageShape(message);
    // what is not a request, notification or answer goes nowhere: the host hears why when it gave an id
    if (shape.kind === 'invalid') {
      answerError(shape.id, invalidRequestCode, `linkgate: ${shape.why}`);
      return undefined;
    }
    if (shape.kind !== 'request') return sendUp(message, null);
    const { id } = shape;
    if (pending.methodOf(id) === undefined) return sendUp(message, id);
    answerError(id, invalidRequestCode, `linkgate: id \`${String(id)}\` is already in use by a request in flight`);
    return undefined;
  }

  async function fromHostBatch(message: unknown[]): Promise<void> {
    // a batch passes whole when it is well formed and holds no gated request; else each element goes alone
    const shapes = message.map(messageShape);
    const whole =
      shapes.length > 0 &&
      shapes.every(
        (s) =>
          s.kind === 'notification' ||
          s.kind === 'answer' ||
          (s.kind === 'request' && !gatedMethods.has(s.method) && pending.methodOf(s.id) === undefined),
      );
    if (!whole) {
      for (const element of message) await fromHost(element);
      return;
    }
    return sendUp(message, null);
  }

  async function sendUp(message: unknown, id: JsonRpcId | null): Promise<void> {
    try {
      await gated.send(message as JSONRPCMessage);
      holdWhileBackedUp(upstreamPace, hostPace);
    } catch (error) {
      // the decorator forgot a request it could not send: the host still waits, and hears why
      if (id === null) return warn(`cannot forward a message to the server: ${errorLine(error)}`);
      answerError(id, gateErrorCode, `linkgate: the request could not be sent to the server: ${errorLine(error)}`);
    }
  }

  // the decorator passes on only answers to requests that were sent, each once, and never a malformed message
  function fromServer(message: unknown): void {
    const shape = Array.isArray(message) ? null : messageShape(message);
    const place =
      shape?.kind === 'request'
        ? order.placeOfRequest(shape.id)
        : order.placeOf(shape?.kind === 'answer' ? shape.id : null);
    // a server→host request carrying embedded resources (sampling, elicitation) has them judged first
    if (shape?.kind === 'request' && enforced && judgedServerRequests.has(shape.method))
      return judgeThenSend(
        noting(() => items.judgeRequest(message as Msg)),
        message as Msg,
        null,
        place ?? outbox.keep(false),
      );
    if (shape?.kind !== 'answer') return toHost(message, null, place);
    const { id } = shape;
    const steps = linkSteps.get(id);
    linkSteps.delete(id);
    // the decorator passes on only answers to requests the host waits on, and ends the wait once this returns
    const method = pending.methodOf(id);
    if (method === undefined) {
      place?.drop();
      return warn(`dropped an answer for id \`${String(id)}\` that no request is waiting on`);
    }
    const m = message as Msg;
    const result = m['result'];
    if (method === 'initialize' && isRecord(result) && typeof result['protocolVersion'] === 'string')
      gated.setProtocolVersion?.(result['protocolVersion']);
    const judged = itemMethods.get(method);
    // one of a server batch goes on once every member was judged, searched for what the others refused
    const member = enforced ? gated.memberOf(id) : null;
    if (!enforced || judged === undefined || !isRecord(result)) {
      if (member === null) return toHost(m, id, place);
      return judgeThenSend(batchJudged(member, Promise.resolve(null), m), m, id, place ?? outbox.keep(true));
    }
    // a link refused in a JSON text or `structuredContent`, and its address beside it, are the judge's (the flow's
    // second pass: `judgeResultValues`)
    const judging = noting(() => items.judge(judged, m, steps, member?.decided));
    judgeThenSend(member === null ? judging : batchJudged(member, judging, m), m, id, place ?? outbox.keep(true));
  }

  // what the server sends after a message being judged is searched for refused addresses only once the links the
  // judge decides itself are noted (the decorator holds it until this starts)
  function noting(judge: () => Promise<object | null>): Promise<object | null> {
    const noted = gated.notingRefusals();
    return judge().finally(noted);
  }

  // sends `message` as judged, in its `place`, once judging is done; a failure fails the request `id` answers (or
  // drops a request)
  function judgeThenSend(judged: Promise<object | null>, message: Msg, id: JsonRpcId | null, place: OutboxPlace) {
    const work = judged
      .then(
        (changed) => place.fill(changed ?? message, id),
        (error: unknown) => {
          if (id !== null)
            return place.fill(
              errorAnswer(id, gateErrorCode, `linkgate: the answer could not be judged: ${errorLine(error)}`),
              id,
            );
          place.drop();
          warn(`dropped a server request that could not be judged: ${errorLine(error)}`);
        },
      )
      .finally(() => judging.delete(work));
    judging.add(work);
  }

  const finish = async () => {
    // answers the decorator still holds go out first; links never read are recorded as such
    await gated.flush().catch((error: unknown) => warn(errorLine(error)));
    while (judging.size > 0) await Promise.all(judging);
    for (const id of pending.ids()) {
      pending.answered(id);
      answerError(id, gateErrorCode, 'linkgate: the server closed before answering');
    }
    order.dropAll();
    hostOpen = false;
    await host.close().catch(() => {});
    settle();
  };

  host.onmessage = (message) => {
    hostQueued += 1;
    if (hostQueued > maxQueuedHostMessages && !hostHeld && hostPace !== null) {
      hostHeld = true;
      hold(hostPace);
    }
    // with none before it still being taken, it is taken now, so a read whose link is decided at once goes to the
    // server in this turn; else it waits its turn in the queue
    if (hostQueued === 1) void takeFromHost(message);
    else hostWaiting.push(message);
  };
  // takes `first`, then each message queued behind it, in order (a failure is noted, never passed on to the next)
  async function takeFromHost(first: unknown): Promise<void> {
    let message = first;
    for (;;) {
      try {
        const taking = fromHost(message);
        if (taking !== undefined) await taking;
      } catch (error) {
        warn(errorLine(error));
      }
      hostQueued -= 1;
      if (hostQueued === 0) break;
      message = hostWaiting[hostHead];
      hostWaiting[hostHead] = undefined;
      hostHead += 1;
    }
    hostWaiting = [];
    hostHead = 0;
    if (hostHeld && hostPace !== null) {
      hostHeld = false;
      letGo(hostPace);
    }
    const idle = hostIdle;
    hostIdle = [];
    for (const resume of idle) resume();
  }
  // settles once every host message taken so far went on
  const hostTaken = (): Promise<void> =>
    hostQueued === 0 ? Promise.resolve() : new Promise((resume) => hostIdle.push(resume));
  gated.onmessage = (message) => {
    try {
      fromServer(message);
    } catch (error) {
      warn(errorLine(error));
    }
  };
  gated.onerror = (error) => warn(errorLine(error));
  host.onerror = (error) => warn(errorLine(error));
  gated.onclose = () => {
    if (!upstreamOpen) return;
    upstreamOpen = false;
    void finish();
  };
  host.onclose = () => {
    // the host is gone: let the server finish what it has, record unread links, then stop it
    void hostTaken().then(async () => {
      if (upstreamOpen) await gated.close().catch((error: unknown) => warn(errorLine(error)));
    });
  };

  return {
    async start() {
      await gated.start();
      await host.start();
    },
    closed,
    failUpstream(id, message) {
      if (pending.methodOf(id) === undefined) return false;
      // handed to the decorator as the server's answer, so a read in flight is recorded as failed
      upstream.onmessage?.({ jsonrpc: '2.0', id, error: { code: gateErrorCode, message } });
      return true;
    },
    refuseHost: answerError,
  };
}

function paced(transport: Transport): PacedTransport | null {
  const t = transport as Transport & Partial<PacedTransport>;
  return typeof t.pauseInput === 'function' && typeof t.whenDrained === 'function' ? (t as PacedTransport) : null;
}

function errorAnswer(id: JsonRpcId | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function optionalSink(options: ProxySessionOptions): { sink?: RecordSink } {
  return options.sink === undefined ? {} : { sink: options.sink };
}
