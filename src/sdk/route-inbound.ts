import type { MessageExtraInfo } from './mcp-transport.ts';
import { isRecord } from '../decision/json-value.ts';
import { RecordWithheldError } from '../record/record-error.ts';
import { couldNotJudge, gateError } from './gate-answers.ts';
import { type JsonRpcId, messageShape } from '../flow/json-rpc-shape.ts';
import { onAnswer } from './route-answer.ts';
import { namesRefused, searchedWithoutRefused } from './plain-answers.ts';
import { judgedMessages, messageLinkSteps } from './message-link-steps.ts';
import { blockSteps, blocksEmbedded } from './early-items.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import type { TransportSession } from './transport-session.ts';
import { refusedElicitationNotice, urlElicitationOf } from '../flow/elicitation-urls.ts';

// What the server sends, routed: its notifications and its own requests (judged first when they may carry links or
// embedded resources), and its answers (`route-answer.ts`). Whatever is checked for the addresses of refused links
// waits, in order, while refusals are still being noted (`refusals-noted.ts`).

/** Server→host requests whose messages may carry embedded resources, judged before the host sees them. */
export const judgedServerRequests: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create']);

/** Whether a message from the server passes whole in a batch: a notification, or a request the gate does not judge. */
export function passesWhole(s: TransportSession, shape: ReturnType<typeof messageShape>): boolean {
  // a sampling request's links are recorded before it goes on, whoever judges its items
  return (
    shape.kind === 'notification' ||
    (shape.kind === 'request' &&
      !judgesRequest(s, shape.method) &&
      shape.method !== 'sampling/createMessage' &&
      shape.method !== 'elicitation/create')
  );
}

/**
 * A batch whose every message passes whole (`passesWhole`): handed on as one, without those of its messages that name
 * a refused link's address (each request so left out fails at the server), once no refusal is still being noted.
 */
export function onWholeBatch(s: TransportSession, batch: unknown[], extra?: MessageExtraInfo): void {
  if (s.mode !== 'enforce') return s.deliver(batch, extra);
  s.afterNoted('notification', null, () => {
    if (!s.refused.names(batch)) return s.deliver(batch, extra);
    const kept = batch.filter((m) => !withheldNaming(s, m, messageShape(m)));
    if (kept.length > 0) s.deliver(kept, extra);
  });
}

/** One message from the server: requests and notifications pass at once; answers are matched; the rest is dropped. */
export function onInbound(s: TransportSession, message: unknown, extra?: MessageExtraInfo): void {
  const shape = messageShape(message);
  if (shape.kind === 'answer') return onAnswer(s, shape.id, message as Record<string, unknown>, extra);
  if ((shape.kind === 'notification' || shape.kind === 'request') && s.mode === 'enforce')
    // checked only once every refusal noted before it is (a result in the same chunk refusing what it names)
    return s.afterNoted(shape.kind, shape.kind === 'request' ? shape.id : null, () =>
      routeInbound(s, message, shape, extra),
    );
  routeInbound(s, message, shape, extra);
}

function routeInbound(
  s: TransportSession,
  message: unknown,
  shape: ReturnType<typeof messageShape>,
  extra?: MessageExtraInfo,
): void {
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
  // a notification or request naming a link refused in this session is withheld (enforce mode); a sampling request's
  // own links are judged first, then the rest of it is searched
  if (shape.kind !== 'request' || shape.method !== 'sampling/createMessage')
    if (withheldNaming(s, message, shape)) return;
  if (shape.kind === 'request' && judgesRequest(s, shape.method)) {
    const m = message as Record<string, unknown>;
    return s.hold('request', shape.id, async () => {
      try {
        const judged = await judgedMessages(s, m, 'params');
        // its own refused links became notices: what is left may not name a refused address
        await s.noted.settled();
        if (withheldNaming(s, judged, shape)) return;
        s.deliver(judged, extra);
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
    const messages = isRecord(m['params']) ? m['params']['messages'] : undefined;
    // the bodies judged beside the links' decisions, for the caller that edits the items (one deadline for both)
    const embedded = s.handsEarlyItems ? blocksEmbedded(s.gate, messages) : null;
    return s.hold('request', shape.id, async () => {
      let steps: Map<unknown, LinkStep>;
      try {
        steps = await messageLinkSteps(s, shape.id, messages);
        await s.noted.settled();
        // its refused links become notices in the front end: the rest of it may not name a refused address
        if (withheldNaming(s, searchedWithoutRefused(m, ['params', 'messages'], steps), shape)) return;
      } catch (error) {
        await s.inner.send(gateError(shape.id, couldNotJudge(error)) as never).catch(() => {});
        throw error;
      }
      if (embedded !== null) s.onEarlyItems?.('request', shape.id, { steps: blockSteps(messages, steps), embedded });
      s.deliver(message, extra);
    });
  }
  if (shape.kind !== 'invalid') return s.deliver(message, extra);
  // a malformed message never reaches the host; when it names a request in flight, that request fails
  if (shape.id !== null && s.requests.has(shape.id)) {
    const failed = gateError(shape.id, `linkgate: the server sent a malformed answer: ${shape.why}`);
    return onAnswer(s, shape.id, failed, extra);
  }
  s.fail(new Error(`dropped a message from the server that is not json-rpc: ${shape.why}`));
}

/**
 * Whether the server's notification or request `searched` (the message, or what of it is searched) names the address
 * of a link refused in this session (enforce mode): then it is withheld, and a request fails at the server.
 */
function withheldNaming(s: TransportSession, searched: unknown, shape: ReturnType<typeof messageShape>): boolean {
  if (shape.kind !== 'notification' && shape.kind !== 'request') return false;
  if (!namesRefused(s, searched)) return false;
  if (shape.kind === 'request') {
    const why = 'linkgate withheld the request: it names the address of a link the gate refused in this session';
    void s.inner.send(gateError(shape.id, why) as never).catch(() => {});
  }
  return true;
}

/**
 * A server's URL-mode `elicitation/create` (2025-11-25): its url is judged and recorded as a link is (observe mode too),
 * and the request passed on when the link decision allows it and the rest of it names no refused address; refused
 * (or unrecorded, when that withholds), the host never sees it and the server gets `decline`, as if the user had said
 * no.
 */
function judgeElicitationRequest(
  s: TransportSession,
  id: JsonRpcId,
  message: unknown,
  urls: ReturnType<typeof urlElicitationOf>,
  extra?: MessageExtraInfo,
): void {
  s.hold('request', id, async () => {
    const decline = async () => {
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
    if (refused !== null) {
      s.fail(new Error(refusedElicitationNotice(refused.decision, refused.scheme, refused.ref)));
      return decline();
    }
    // its prose (the message shown beside the url) may not name a refused address either
    await s.noted.settled();
    if (namesRefused(s, message)) return decline();
    if (!judgesRequest(s, 'elicitation/create')) return s.deliver(message, extra);
    const judged = await judgedMessages(s, message as Record<string, unknown>, 'params');
    s.deliver(judged, extra);
  });
}

function judgesRequest(s: TransportSession, method: string): boolean {
  return s.judgeItems && judgedServerRequests.has(method);
}
