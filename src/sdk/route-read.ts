import type { JsonRpcMessage as JSONRPCMessage, MessageExtraInfo, TransportSendOptions } from './mcp-transport.ts';
import { judgeReadAnswer } from '../flow/read-body-links.ts';
import type { KeptBodyLink } from '../flow/kept-body-links.ts';
import type { FoundLink } from './found-links.ts';
import { uriOf } from '../link/resource-link.ts';
import { isRecord } from '../decision/json-value.ts';
import { GateError } from '../errors.ts';
import { decisionMetaKey } from '../flow/decision-meta.ts';
import { shownDecision, stepSubject } from '../flow/gate-notice.ts';
import { linkFacts } from '../flow/discover-links.ts';
import { answerOf } from '../flow/link-reader.ts';
import {
  isEnforced,
  type LinkStep,
  linkRefused,
  type ReadJudgement,
  readFailed,
  sendRead,
  skipRead,
} from '../flow/link-steps.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { RecordWithheldError, recordErrorMessage } from '../record/record-error.ts';
import { inputRequestUrls, isInputRequired } from '../flow/elicitation-urls.ts';
import { gateError, readDenial } from './gate-answers.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { editMessage, type MessageEdit } from './message-edits.ts';
import { judgedPlainAnswer, judgesPlainAnswer, namesRefused, withheldNaming } from './plain-answers.ts';
import { oversizeOf } from './oversize-answer.ts';
import type { PendingRead } from './reads-in-flight.ts';
import type { ReadCache } from '../flow/read-cache.ts';
import type { TransportSession } from './transport-session.ts';
import { errorLine } from '../decision/error-line.ts';

/**
 * A `resources/read` from the host: a refused link is answered locally (never sent), a cached result is judged again,
 * anything else goes to the server with a deadline.
 */
export async function onRead(
  s: TransportSession,
  id: JsonRpcId,
  params: Record<string, unknown>,
  message: JSONRPCMessage,
  sendOptions?: TransportSendOptions,
): Promise<void> {
  const uri = typeof params['uri'] === 'string' ? params['uri'] : '';
  // a later read of the same link keeps its tool-result context and its link decision (the ledger); a uri never seen
  // in a tool result gets none
  const resolvesNames = s.gate.policy.document.links.resolveNames === true;
  const deciding = s.stepNow(s.found.forRead(uri, s.now), resolvesNames);
  let step: LinkStep;
  // decided at once (the usual gate), the refusal is noted before anything else runs: the read goes on with no wait
  if (!(deciding instanceof Promise)) {
    step = deciding;
    s.refused.note([step]);
  } else {
    // a refused read's address is noted as a tool result's refused links are: what the server sends meanwhile waits
    const noted = s.noted.start();
    try {
      step = await deciding;
      s.refused.note([step]);
    } finally {
      noted();
    }
  }
  if (linkRefused(step)) {
    s.queue(async () => {
      const recorded = skipRead(step, 'the link was denied');
      await s.emit(recorded);
      s.deliver(readDenial(id, step, step.linkDecision, 'refused to read', recorded.next, s.refusedReads));
    });
    return;
  }
  let hit: ReturnType<ReadCache['lookup']>;
  try {
    hit = s.cache?.lookup(s.cacheKey(uri));
  } catch (error) {
    // a cache that cannot be looked up fails the read with the gate's error (nothing is read past it)
    s.queue(() => cacheFault(s, id, error));
    return;
  }
  if (hit !== undefined) {
    const found = hit;
    s.queue(async () => {
      try {
        await answerFromCache(s, id, uri, step, found);
      } catch (error) {
        await cacheFault(s, id, error);
      }
    });
    return;
  }
  const requested = sendRead(s.gate, step, s.now(), id);
  s.reads.start(id, { step, requested, started: performance.now() }, s.deadlineMs, (late) => onDeadline(s, late));
  s.requests.noteRead(id);
  try {
    await s.inner.send(message, sendOptions);
  } catch (error) {
    s.requests.forgetId(id);
    // an HTTP transport rejects here when the POST or its body fails (a byte cap, a refused connection): the client
    // rejects the request with this error, so the read is recorded as failed now, not answered again at the deadline
    const pending = s.reads.take(id);
    if (pending !== undefined) {
      // only linkgate's own messages go into the record: a transport error may quote the server's response body
      const why =
        error instanceof GateError ? `the request failed: ${error.message}` : 'the request failed before an answer';
      s.queue(() => s.emit(readFailed(s.gate, pending.step, pending.requested, { kind: 'failed', why }).record));
    }
    throw error;
  }
}

// a cached result of the read `id` of `uri`, judged again as the answer it stood for: recorded, then handed on as judged
async function answerFromCache(
  s: TransportSession,
  id: JsonRpcId,
  uri: string,
  step: LinkStep,
  hit: NonNullable<ReturnType<ReadCache['lookup']>>,
): Promise<void> {
  const timing = { requested: null, elapsedMs: 0, cache: { ageMs: hit.ageMs, ttlMs: hit.ttlMs }, now: s.now };
  const { result } = hit;
  const judged = await judgeReadAnswer(s.gate, step, { result }, timing, noteIn(s, id));
  if (await withheldUnrecorded(s, id, judged.record)) return;
  const answer = { jsonrpc: '2.0', id, result };
  if (await withheldNamingRead(s, id, answer, uri)) return;
  answerHost(s, id, answer, step, judged);
}

// a fault on the cached read path (a lookup, an entry or a step that throws): the host gets the gate's error at once,
// never the cached body, and the fault goes to `onerror`
function cacheFault(s: TransportSession, id: JsonRpcId, error: unknown): Promise<void> {
  s.answerGateFault(id, error, undefined, 'cached answer');
  return Promise.reject(error instanceof Error ? error : new Error(errorLine(error)));
}

// the links of a read's JSON body a front end keeps (`keptBodyLinks`) are kept as a tool result's are: in the
// connection's link ledger as links its server returned (a later read of the uri is judged as that link), and the
// address of one refused for its address noted, so the session's later messages are searched for it (and, with the
// refused addresses shared, every connection's)
const noteIn = (s: TransportSession, id: JsonRpcId) => (kept: readonly KeptBodyLink[]) => {
  const evicted: FoundLink[] = [];
  for (const { link, decision } of kept) {
    if (decision.effect === 'deny') s.refused.noteDecided(uriOf(link), decision);
    evicted.push(...s.found.keepFromBody(link, id, s.now()));
  }
  if (evicted.length > 0) s.queue(() => s.recordUnread(evicted, 'the host did not read it before more links arrived'));
};

/** The read `id` met its deadline: the server is told to stop and the host gets the gate's own answer. */
function onDeadline(s: TransportSession, id: JsonRpcId): void {
  const pending = s.reads.take(id);
  if (pending === undefined) return;
  s.requests.expire(id);
  // tell the server to stop; its late answer, if any, is dropped because the id is no longer pending
  s.inner
    .send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason: 'linkgate read deadline' },
    })
    .catch(() => {});
  s.queue(async () => {
    const failed = readFailed(s.gate, pending.step, pending.requested, { kind: 'timeout', deadlineMs: s.deadlineMs });
    await s.emit(failed.record);
    s.deliver(readDenial(id, pending.step, failed.decision, 'timed out reading', failed.record.next, s.refusedReads));
  });
}

/** The server's answer to read `id`: judged, cached when complete, recorded and passed on as judged. */
export async function onReadAnswer(
  s: TransportSession,
  id: JsonRpcId,
  message: Record<string, unknown>,
  pending: PendingRead,
  extra?: MessageExtraInfo,
): Promise<void> {
  const over = oversizeOf(message);
  if (over !== undefined) {
    // the stdio buffer dropped the answer for passing the connection cap: this read ends, the connection stays
    const failed = readFailed(s.gate, pending.step, pending.requested, { kind: 'too-large', ...over });
    await s.emit(failed.record);
    s.deliver(
      readDenial(id, pending.step, failed.decision, 'did not complete the read of', failed.record.next, s.refusedReads),
      extra,
    );
    return;
  }
  const answer = answerOf(message);
  const elapsedMs = Math.round(performance.now() - pending.started);
  const timing = { requested: pending.requested, elapsedMs, now: s.now };
  let judged: ReadJudgement;
  try {
    judged = await judgeReadAnswer(s.gate, pending.step, answer, timing, noteIn(s, id));
  } catch (error) {
    // the flow's steps fail closed themselves; this is the last stop, so the host is never left waiting
    const why = 'the answer could not be judged';
    const failed = readFailed(s.gate, pending.step, pending.requested, {
      kind: 'failed',
      why,
      message: `engine error: ${errorLine(error)}`,
    });
    await s.emit(failed.record);
    s.deliver(
      readDenial(id, pending.step, failed.decision, 'could not judge the read of', failed.record.next, s.refusedReads),
      extra,
    );
    throw error;
  }
  try {
    await handOn(s, id, message, answer, pending, judged, extra);
  } catch (error) {
    // a step after the judgement that fails (a cache that throws, say) fails the read: the host is never left waiting
    s.answerGateFault(id, error, extra);
    throw error;
  }
}

// the judged read answer `message` on its way to the host: cached when complete, withheld when its record could not be
// written (and that withholds), when an input url is refused or when it names a refused address; else passed on
async function handOn(
  s: TransportSession,
  id: JsonRpcId,
  message: Record<string, unknown>,
  answer: ReturnType<typeof answerOf>,
  pending: PendingRead,
  judged: ReadJudgement,
  extra?: MessageExtraInfo,
): Promise<void> {
  if (judged.complete && 'result' in answer)
    s.cache?.store(s.cacheKey(linkFacts(pending.step.link).uri), answer.result);
  // each check below waits only when it has something to do: an allowed read whose record goes nowhere, with no url to
  // judge and nothing refused in the session, is passed on in the turn its read decision came in
  if (!s.keepsNoRecords && (await withheldUnrecorded(s, id, judged.record, extra))) return;
  if (asksInputUrls(answer, judged) && (await refusedInputUrl(s, id, answer, pending.step, judged, extra))) return;
  if (s.searchesRefused && (await withheldNamingRead(s, id, message, linkFacts(pending.step.link).uri, extra))) return;
  // a server error's `data` reaches the host whole: its links and uris are judged as `structuredContent`'s are (a
  // not-found error's `data.uri` may name any address)
  const sent =
    'error' in message && judgesPlainAnswer(s, message, 'resources/read')
      ? await judgedPlainAnswer(s, message, 'resources/read')
      : message;
  try {
    answerHost(s, id, sent, pending.step, judged, extra);
  } catch (error) {
    // an answer that cannot be passed on as judged fails its request: the host is never left waiting
    s.answerGateFault(id, error, extra);
  }
}

/**
 * Whether the read answer `message` of `uri` names the address of a link refused in this session (enforce mode, once
 * every refusal noted before it is; the read's own uri in its contents aside): then the host gets the gate's answer
 * instead, a -32080 error or, with notices for refused reads, a result whose one item is the notice (true: answered).
 */
async function withheldNamingRead(
  s: TransportSession,
  id: JsonRpcId,
  message: Record<string, unknown>,
  uri: string,
  extra?: MessageExtraInfo,
): Promise<boolean> {
  if (s.mode !== 'enforce') return false;
  await s.noted.settled();
  if (!namesRefused(s, searchedReadAnswer(message, uri))) return false;
  const withheld = withheldNaming(id);
  if (s.refusedReads === 'error') s.deliver(withheld, extra);
  else {
    const text = String((withheld['error'] as { message: string }).message);
    s.deliver({ jsonrpc: '2.0', id, result: { contents: [{ uri, mimeType: 'text/plain', text }] } }, extra);
  }
  return true;
}

// a read answer as searched for refused addresses: each of its contents' `uri` that is the read's own left out
function searchedReadAnswer(message: Record<string, unknown>, uri: string): unknown {
  const result = message['result'];
  if (!isRecord(result) || !Array.isArray(result['contents'])) return message;
  const contents = (result['contents'] as unknown[]).map((c) => {
    if (!isRecord(c) || c['uri'] !== uri) return c;
    const { uri: _, ...rest } = c;
    return rest;
  });
  return { ...message, result: { ...result, contents } };
}

/**
 * Writes the read's record before its answer goes anywhere; when it cannot be written and `onRecordError` withholds
 * (enforce mode), the host gets the failure instead of the answer (true: answered).
 */
async function withheldUnrecorded(
  s: TransportSession,
  id: JsonRpcId,
  record: LinkRecord,
  extra?: MessageExtraInfo,
): Promise<boolean> {
  if ((await s.emitChecked(record)) || !s.withholdsOnRecordError) return false;
  s.deliver(gateError(id, recordErrorMessage(s.recordError)), extra);
  return true;
}

/**
 * An `input_required` read answer the host may answer (`read.answerInputRequired`, or observe mode): the urls of its
 * URL-mode elicitations are judged and recorded as links are, and one refused (or unrecorded, when that withholds)
 * ends the read with the gate's denial instead (true: answered).
 */
async function refusedInputUrl(
  s: TransportSession,
  id: JsonRpcId,
  answer: ReturnType<typeof answerOf>,
  step: LinkStep,
  judged: ReadJudgement,
  extra?: MessageExtraInfo,
): Promise<boolean> {
  if (!asksInputUrls(answer, judged)) return false;
  const urls = inputRequestUrls((answer as { result: Record<string, unknown> }).result);
  if (urls.length === 0) return false;
  let refused: Awaited<ReturnType<TransportSession['judgeElicitations']>>;
  try {
    refused = await s.judgeElicitations(urls, step.discovered.tool, id);
  } catch (error) {
    if (!(error instanceof RecordWithheldError)) throw error;
    s.deliver(gateError(id, error.message), extra);
    return true;
  }
  if (refused === null) return false;
  const what = 'refused a url the server asked the host to open, reading';
  s.deliver(readDenial(id, step, refused.decision, what, judged.record.next, s.refusedReads), extra);
  return true;
}

// whether the answer is an `input_required` the host may answer (`refusedInputUrl` judges its urls)
function asksInputUrls(answer: ReturnType<typeof answerOf>, judged: ReadJudgement): boolean {
  return judged.delivery === 'whole' && 'result' in answer && isInputRequired(answer.result);
}

/** Passes the read's answer on as the flow decided: as it came, with only the allowed items, or as a denial. */
function answerHost(
  s: TransportSession,
  id: JsonRpcId,
  message: Record<string, unknown>,
  step: LinkStep,
  judged: ReadJudgement,
  extra?: MessageExtraInfo,
): void {
  // with notices for refused reads, a server's error answer is one too: one unreadable link fails no other read
  const serverError = judged.delivery === 'whole' && 'error' in message && s.refusedReads === 'notice';
  if (judged.delivery === 'whole' && !(serverError && isEnforced(step))) {
    s.deliver(message, extra);
    return;
  }
  if (judged.delivery === 'none' || serverError) {
    const what = judged.complete ? 'refused to read' : 'did not complete the read of';
    s.deliver(readDenial(id, step, judged.decision, what, judged.record.next, s.refusedReads), extra);
    return;
  }
  // only the contents and the decision change: a front end that kept the answer's bytes edits just those
  const result = isRecord(message['result']) ? message['result'] : {};
  const edits: MessageEdit[] = replacedItems(result, judged);
  // the decision beside what the gate changed as every front end hands it on (`shownDecision`): a reason's message
  // that is not the policy's (a withheld item's pdf filter, a declared type) shows its code only, the record keeps it
  const shown = shownDecision(judged.decision, stepSubject(step).uri);
  if (isRecord(result['_meta']))
    edits.push({ op: 'set', path: ['result', '_meta'], key: decisionMetaKey, value: shown });
  else edits.push({ op: 'set', path: ['result'], key: '_meta', value: { [decisionMetaKey]: shown } });
  s.deliver(editMessage(message, edits), extra);
}

// the edit of the answer's contents: the delivered items kept, those the flow changed (a JSON body holding a refused
// link) in their judged form, each in place when none is dropped, else the delivered list whole
function replacedItems(result: Record<string, unknown>, judged: ReadJudgement): MessageEdit[] {
  const keep: MessageEdit = { op: 'keep', path: ['result', 'contents'], indices: judged.deliver };
  const replaced = judged.replaced;
  if (replaced === undefined || replaced.size === 0) return [keep];
  const count = Array.isArray(result['contents']) ? result['contents'].length : 0;
  if (judged.deliver.length !== count)
    return [{ op: 'replace', path: ['result', 'contents'], value: judged.delivered }];
  return [...replaced].map(([index, item]) => ({ op: 'replace', path: ['result', 'contents', index], value: item }));
}
