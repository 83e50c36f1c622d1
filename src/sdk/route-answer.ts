import type { MessageExtraInfo } from './mcp-transport.ts';
import { isRecord } from '../decision/json-value.ts';
import { discoverLinks } from '../flow/discover-links.ts';
import { judgeEmbeddedItems, judgeMessages } from '../flow/judge-embedded.ts';
import { recordRef } from '../flow/record-ref.ts';
import { refusedStepItem } from '../flow/refused-link.ts';
import { RecordWithheldError, recordErrorMessage, recordWithheldError } from '../record/record-error.ts';
import { applyStructured, judgeStructured, type RefusedRef } from '../flow/structured-links.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { judgeJsonTexts, withJsonText } from '../flow/json-text-links.ts';
import { resultLinkDecider } from '../flow/link-decider.ts';
import type { FoundLink } from './found-links.ts';
import { firstLine, gateError } from './gate-answers.ts';
import { type JsonRpcId, messageShape } from '../flow/json-rpc-shape.ts';
import { peerOf } from './requests-in-flight.ts';
import { onReadAnswer } from './route-read.ts';
import {
  judgedPlainAnswer,
  judgesPlainAnswer,
  namesRefused,
  withheldNaming,
  withoutLinkItems,
} from './plain-answers.ts';
import { asksSampling, judgedSampling } from './sampling-input-requests.ts';
import { judgedListing } from './judge-listing.ts';
import { messageLinkSteps } from './message-link-steps.ts';

export { maxListedEntries } from './judge-listing.ts';
import type { TransportSession } from './transport-session.ts';
import {
  inputRequiredOnly,
  inputRequestUrls,
  isInputRequired,
  refusedElicitationNotice,
  refusedElicitationResult,
  urlElicitationOf,
} from '../flow/elicitation-urls.ts';

/** Server→host requests whose messages may carry embedded resources, judged before the host sees them. */
export const judgedServerRequests: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create']);

/** Whether a message from the server passes whole in a batch: a notification, or a request the gate does not judge. */
export function passesWhole(s: TransportSession, shape: ReturnType<typeof messageShape>): boolean {
  // a sampling request's links are recorded before it goes on, whoever judges its items
  return (
    shape.kind === 'notification' ||
    (shape.kind === 'request' && !judgesRequest(s, shape.method) && shape.method !== 'sampling/createMessage')
  );
}

/** One message from the server: requests and notifications pass at once; answers are matched; the rest is dropped. */
export function onInbound(s: TransportSession, message: unknown, extra?: MessageExtraInfo): void {
  const shape = messageShape(message);
  // a task's status pushed with its result or input requests (Tasks extension, 2026-07-28) is not judged here: it is
  // dropped, and the host gets the same task, judged, from `tasks/get` (servers need not send these at all)
  if (shape.kind === 'notification' && shape.method === 'notifications/tasks' && s.mode === 'enforce') {
    const params = (message as Record<string, unknown>)['params'];
    if (isRecord(params) && (params['result'] !== undefined || params['inputRequests'] !== undefined)) return;
  }
  if (shape.kind === 'request' && shape.method === 'elicitation/create') {
    const urls = urlElicitationOf((message as Record<string, unknown>)['params']);
    if (urls.length > 0) return judgeElicitationRequest(s, shape.id, message, urls, extra);
  }
  // a notification naming a link refused in this session is dropped (enforce mode)
  if (shape.kind === 'notification' && s.mode === 'enforce' && s.refused.names(message)) return;
  // so is a request (the server hears the gate's error), but a sampling request, whose links are judged on their own
  if (shape.kind === 'request' && s.mode === 'enforce' && shape.method !== 'sampling/createMessage')
    if (s.refused.names(message)) {
      const why = 'linkgate withheld the request: it names the address of a link the gate refused in this session';
      if (shape.id !== null) void s.inner.send(gateError(shape.id, why) as never).catch(() => {});
      return;
    }
  if (shape.kind === 'request' && judgesRequest(s, shape.method)) {
    const m = message as Record<string, unknown>;
    return s.hold('request', shape.id, async () => {
      try {
        s.deliver(await judgedMessages(s, m, 'params'), extra);
      } catch (error) {
        // the server's request fails rather than waiting: nothing unjudged reaches the host
        if (shape.id !== null) await s.inner.send(gateError(shape.id, couldNotJudge(error)) as never).catch(() => {});
        throw error;
      }
    });
  }
  if (shape.kind === 'request' && shape.method === 'sampling/createMessage') {
    // a front end that judges the items itself (the proxy) still has the links recorded here, before they go on
    const m = message as Record<string, unknown>;
    return s.hold('request', shape.id, async () => {
      try {
        await messageLinkSteps(s, shape.id, isRecord(m['params']) ? m['params']['messages'] : undefined);
      } catch (error) {
        if (shape.id !== null) await s.inner.send(gateError(shape.id, couldNotJudge(error)) as never).catch(() => {});
        throw error;
      }
      s.deliver(message, extra);
    });
  }
  if (shape.kind === 'request' || shape.kind === 'notification') return s.deliver(message, extra);
  if (shape.kind === 'answer') return onAnswer(s, shape.id, message as Record<string, unknown>, extra);
  // a malformed message never reaches the host; when it names a request in flight, that request fails
  if (shape.id !== null && s.requests.has(shape.id)) {
    const failed = gateError(shape.id, `linkgate: the server sent a malformed answer: ${shape.why}`);
    return onAnswer(s, shape.id, failed, extra);
  }
  s.fail(new Error(`dropped a message from the server that is not json-rpc: ${shape.why}`));
}

/** Routes one answer from the server: only to a request that was sent, judged when it answers a read. */
function onAnswer(s: TransportSession, id: JsonRpcId, m: Record<string, unknown>, extra?: MessageExtraInfo): void {
  const sent = s.requests.take(id);
  if (sent === undefined) {
    if (!s.requests.wasExpired(id))
      s.fail(new Error(`dropped an answer for id \`${String(id)}\` that no request is waiting on`));
    return;
  }
  const pending = s.reads.take(id);
  if (pending !== undefined) return s.hold('answer', id, () => onReadAnswer(s, id, m, pending, extra));
  const { method, tool } = sent;
  // an error answer has its data judged, and is withheld when it names a refused link's address
  if (m['error'] !== undefined && judgesPlainAnswer(s, m, method))
    return answerJudged(s, id, () => judgedPlainAnswer(s, m, method), extra);
  if ((method === 'tools/call' || method === 'prompts/get') && isInputRequired(m['result'])) {
    const urls = inputRequestUrls(m['result']);
    if (urls.length > 0 || asksSampling(m['result']))
      return answerJudged(s, id, () => judgedInputRequired(s, m, method, urls, tool), extra);
  }
  if (id === s.requests.initializeId && isRecord(m['result'])) s.serverInfo = peerOf(m['result']['serverInfo']);
  // a task is handed on with its result only from `tasks/get` (judged below) and `tasks/result`: one a `tasks/list` or
  // `tasks/cancel` answer carries (or its input requests) is not judged, so it is left out
  if ((method === 'tasks/list' || method === 'tasks/cancel') && s.mode === 'enforce' && isRecord(m['result']))
    return s.deliver(withoutTaskResults(m, method), extra);
  if (method === 'tasks/get' && isRecord(m['result'])) {
    const task = m['result'];
    if (task['status'] === 'input_required') {
      const urls = inputRequestUrls(task);
      if (urls.length > 0 || asksSampling(task))
        return answerJudged(s, id, () => judgedInputRequired(s, m, method, urls, tool), extra);
    }
    // a result is judged whatever status it comes with: a host may show one the server sent beside `working`
    if (isRecord(task['result'])) return onTaskResult(s, id, m, task, tool, extra);
  }
  if (method === 'tools/call' || method === 'tasks/result') {
    const result = m['result'];
    // a task-augmented call answers with the task; its result comes later through `tasks/result` (2025-11-25) or
    // `tasks/get` (the Tasks extension of 2026-07-28, whose task handle is flat: `resultType: task`, `taskId`)
    if (method === 'tools/call' && isRecord(result) && isRecord(result['task']))
      s.requests.noteTask(String(result['task']['taskId']), tool);
    if (method === 'tools/call' && isRecord(result) && result['resultType'] === 'task')
      s.requests.noteTask(String(result['taskId']), tool);
    // the links of one result are found at one time (one clock reading, not one per link)
    const foundAt = s.now();
    const { found, evicted } = s.found.remember(discoverLinks(result).links, tool, id, () => foundAt);
    if (evicted.length > 0)
      s.queue(() => s.recordUnread(evicted, 'the host did not read it before more links arrived'));
    // every listed link is recorded before the result is passed on (a later record of the link supersedes it)
    if (s.judgeItems)
      return answerJudged(
        s,
        id,
        async () => {
          const judged = await judgedToolResult(s, m, found);
          if (!(await s.emitDiscovered(found)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
          // what is left names no refused link's address (its own links became notices)
          return namesRefused(s, judged) ? withheldNaming(id) : judged;
        },
        extra,
      );
    if (found.length > 0)
      return s.hold('answer', id, async () => {
        // the result's prose may not name a link refused before it (its own links become notices in the proxy)
        const naming = namesRefused(s, withoutLinkItems(m));
        // each link decided once: the discovery records and the caller's edits of the items share the decision
        const steps = await s.stepsOf(found);
        s.refused.note(steps);
        const recorded = await s.emitDiscovered(found, steps);
        if (s.onToolResultSteps !== undefined) {
          const byIndex = new Map<number, LinkStep>();
          found.forEach((f, i) => byIndex.set(f.contentIndex ?? -1, steps[i] as LinkStep));
          s.onToolResultSteps(id, byIndex);
        }
        if (naming) return s.deliver(withheldNaming(id), extra);
        s.deliver(recorded || !s.withholdsOnRecordError ? m : gateError(id, recordErrorMessage(s.recordError)), extra);
      });
  }
  if (method === 'prompts/get' && s.judgeItems) return answerJudged(s, id, () => judgedMessages(s, m, 'result'), extra);
  // a front end that judges the items itself (the proxy) still has the prompt's links recorded here
  if (method === 'prompts/get')
    return answerJudged(
      s,
      id,
      async () => {
        await messageLinkSteps(s, id, isRecord(m['result']) ? m['result']['messages'] : undefined);
        return m;
      },
      extra,
    );
  if ((method === 'resources/list' || method === 'resources/templates/list') && s.mode === 'enforce')
    return answerJudged(s, id, async () => judgedPlainAnswer(s, await judgedListing(s, m), method), extra);
  if (judgesPlainAnswer(s, m, method)) return answerJudged(s, id, () => judgedPlainAnswer(s, m, method), extra);
  s.deliver(m, extra);
}

/**
 * A completed task's `tasks/get` answer (Tasks extension, 2026-07-28): its `result` is the tool call's result, so its
 * links and embedded resources are found, recorded and judged as a tool result's are, by every front end (the proxy
 * included: it judges no task result itself).
 */
function onTaskResult(
  s: TransportSession,
  id: JsonRpcId,
  m: Record<string, unknown>,
  task: Record<string, unknown>,
  tool: string | null,
  extra?: MessageExtraInfo,
): void {
  const result = task['result'];
  const foundAt = s.now();
  const { found, evicted } = s.found.remember(discoverLinks(result).links, tool, id, () => foundAt);
  if (evicted.length > 0) s.queue(() => s.recordUnread(evicted, 'the host did not read it before more links arrived'));
  answerJudged(
    s,
    id,
    async () => {
      const inner = { ...m, result };
      const judged = await judgedToolResult(s, inner, found);
      if (!(await s.emitDiscovered(found)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
      return judged === inner ? m : { ...m, result: { ...task, result: judged['result'] } };
    },
    extra,
  );
}

/**
 * Passes on the message `judge` makes of answer `id`; when judging fails, the host's request gets the gate's error at
 * once (nothing unjudged is handed on) and the failure goes to `onerror`. The links a tool result held stay
 * remembered, so each still gets its record.
 */
function answerJudged(s: TransportSession, id: JsonRpcId, judge: () => Promise<unknown>, extra?: MessageExtraInfo) {
  s.hold('answer', id, async () => {
    let judged: unknown;
    try {
      judged = await judge();
    } catch (error) {
      // a records failure that withholds was reported as it happened
      if (error instanceof RecordWithheldError) return s.deliver(gateError(id, error.message), extra);
      s.deliver(gateError(id, couldNotJudge(error)), extra);
      throw error;
    }
    s.deliver(judged, extra);
  });
}

/**
 * A server's URL-mode `elicitation/create` (2025-11-25): its url is judged and recorded as a link is (observe mode too),
 * and the request passed on when the link decision allows it; refused (or unrecorded, when that withholds), the host
 * never sees it and the server gets `decline`, as if the user had said no.
 */
function judgeElicitationRequest(
  s: TransportSession,
  id: JsonRpcId | null,
  message: unknown,
  urls: ReturnType<typeof urlElicitationOf>,
  extra?: MessageExtraInfo,
): void {
  s.hold('request', id, async () => {
    const decline = async () => {
      if (id !== null)
        await s.inner.send({ jsonrpc: '2.0', id, result: { action: 'decline' } } as never).catch(() => {});
    };
    let refused: Awaited<ReturnType<TransportSession['judgeElicitations']>>;
    try {
      refused = await s.judgeElicitations(urls, null, id);
    } catch (error) {
      // a records failure that withholds was reported as it happened
      if (!(error instanceof RecordWithheldError)) s.fail(error);
      return decline();
    }
    if (refused === null) return onInboundJudged(s, message, extra);
    s.fail(new Error(refusedElicitationNotice(refused.decision, refused.scheme, refused.ref)));
    return decline();
  });
}

// an allowed elicitation request goes on as any server request would
function onInboundJudged(s: TransportSession, message: unknown, extra?: MessageExtraInfo): Promise<void> | void {
  if (!judgesRequest(s, 'elicitation/create')) return s.deliver(message, extra);
  return judgedMessages(s, message as Record<string, unknown>, 'params').then((judged) => s.deliver(judged, extra));
}

/**
 * An `input_required` answer (MCP 2026-07-28), its URL-mode elicitations judged and recorded as links are (observe mode
 * too): as it came when all are allowed; with one refused, the gate's answer instead: a tool result with the notice as
 * an error, a gate error for a prompt.
 */
async function judgedInputRequired(
  s: TransportSession,
  m: Record<string, unknown>,
  method: string,
  urls: ReturnType<typeof inputRequestUrls>,
  tool: string | null,
): Promise<Record<string, unknown>> {
  const id = m['id'] as JsonRpcId;
  const refused = urls.length > 0 ? await s.judgeElicitations(urls, tool, id) : null;
  if (refused === null) {
    const result = m['result'] as Record<string, unknown>;
    return { ...m, result: await judgedSampling(s, inputRequiredOnly(result, method === 'tasks/get'), id) };
  }
  if (method === 'tools/call')
    return { jsonrpc: '2.0', id, result: refusedElicitationResult(refused.decision, refused.scheme, refused.ref) };
  return gateError(id, refusedElicitationNotice(refused.decision, refused.scheme, refused.ref));
}

// a `tasks/list` or `tasks/cancel` answer without the `result` and `inputRequests` of its tasks (the same message
// when none has one)
function withoutTaskResults(m: Record<string, unknown>, method: string): Record<string, unknown> {
  const result = m['result'] as Record<string, unknown>;
  const carries = (t: unknown) => isRecord(t) && (t['result'] !== undefined || t['inputRequests'] !== undefined);
  const bare = (t: unknown) => {
    if (!carries(t)) return t;
    const { result: _, inputRequests: __, ...rest } = t as Record<string, unknown>;
    return rest;
  };
  if (method === 'tasks/cancel') return carries(result) ? { ...m, result: bare(result) } : m;
  const list = result['tasks'];
  if (!Array.isArray(list) || !list.some(carries)) return m;
  return { ...m, result: { ...result, tasks: list.map(bare) } };
}

function couldNotJudge(error: unknown): string {
  return `linkgate could not judge the answer, so it passes on none of it: ${firstLine(error)}`;
}

/**
 * A tool result's message with each link its link decision refused (enforce mode) and each withheld embedded resource
 * replaced by its notice, in `content` and in `structuredContent` alike (the same message when none is).
 */
async function judgedToolResult(s: TransportSession, message: Record<string, unknown>, found: readonly FoundLink[]) {
  const result = message['result'];
  if (!isRecord(result)) return message;
  const content: unknown[] = Array.isArray(result['content']) ? result['content'] : [];
  // the refused link stays remembered: its one record is written by a read of it (refused, never sent) or, unread,
  // by `flush`, so every link a tool result held has exactly one record, as in observe mode
  // decided side by side, and beside the embedded resources (their bodies and the labels their uris are), so a gate
  // that stays silent costs one deadline per message, not one per link, nor one for the links and one for the labels
  const inContent = found.filter((f) => f.contentIndex !== null);
  const stepping = s.stepsOf(inContent);
  const judged = await judgeEmbeddedItems(s.gate, content, s.mode);
  if (!(await s.emitEmbedded(judged.records)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
  // structuredContent is judged beside the content's links: a silent gate costs one deadline for both
  let refsMade: (refs: Map<string, RefusedRef>) => void = () => {};
  const refsOf = new Promise<Map<string, RefusedRef>>((resolve) => {
    refsMade = resolve;
  });
  // the links of `content` are decided by the ledger: the same link or uri in the JSON texts and `structuredContent`
  // takes that decision, and a link found only there is decided once for both
  const known = inContent.map((f, i) => ({
    link: f.link,
    decision: () => stepping.then((steps) => (steps[i] as LinkStep).linkDecision),
  }));
  const decide = resultLinkDecider(s.gate, s.server, known);
  const judging = { server: s.server, mode: s.mode, refs: refsOf, decide };
  const structuring = judgeStructured(s.gate, result['structuredContent'], judging);
  const jsonTexts = judgeJsonTexts(s.gate, content, judging, true, true);
  const steps = await stepping;
  s.refused.note(steps);
  const refs = new Map<string, RefusedRef>();
  inContent.forEach((f, i) => {
    const step = steps[i];
    const replacedBy = step === undefined ? null : refusedStepItem(step, f.link);
    if (replacedBy === null || step === undefined || f.contentIndex === null) return;
    judged.changed.set(f.contentIndex, replacedBy);
    refs.set(step.discovered.uri, { ref: recordRef(step.discovered), link: f.link, decision: step.linkDecision });
  });
  refsMade(refs);
  for (const edit of await jsonTexts)
    if (!judged.changed.has(edit.index)) judged.changed.set(edit.index, withJsonText(content[edit.index], edit));
  const structured = await structuring;
  const structuredChanged = structured.withheld || structured.edits.length > 0;
  if (judged.changed.size === 0 && !structuredChanged) return message;
  const made: Record<string, unknown> = { ...result };
  if (judged.changed.size > 0) made['content'] = content.map((item, i) => judged.changed.get(i) ?? item);
  if (structuredChanged) made['structuredContent'] = applyStructured(result['structuredContent'], structured);
  return { ...message, result: made };
}

/** A message whose `key` (`result` of `prompts/get`, `params` of a server request) holds `messages`, judged the same way. */
async function judgedMessages(s: TransportSession, message: Record<string, unknown>, key: 'result' | 'params') {
  const holder = message[key];
  if (!isRecord(holder)) return message;
  // the links' steps and the embedded resources judged side by side: a silent gate costs one deadline
  const steps = messageLinkSteps(s, message['id'], holder['messages']);
  const [, judged] = await Promise.all([steps, judgeMessages(s.gate, holder['messages'], s.mode, s.server, steps)]);
  if (!(await s.emitEmbedded(judged.records)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
  return judged.messages === null ? message : { ...message, [key]: { ...holder, messages: judged.messages } };
}

function judgesRequest(s: TransportSession, method: string): boolean {
  return s.judgeItems && judgedServerRequests.has(method);
}
