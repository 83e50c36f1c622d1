import type { MessageExtraInfo } from './mcp-transport.ts';
import { isRecord } from '../decision/json-value.ts';
import { gateError } from './gate-answers.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { peerOf } from './requests-in-flight.ts';
import { onReadAnswer } from './route-read.ts';
import {
  judgedPlainAnswer,
  judgesPlainAnswer,
  namesRefused,
  searchedWithoutRefused,
  withheldNaming,
} from './plain-answers.ts';
import { asksSampling, judgedSampling } from './sampling-input-requests.ts';
import { judgedListing } from './judge-listing.ts';
import { judgedMessages, messageLinkSteps } from './message-link-steps.ts';
import { answerJudged } from './answer-judged.ts';
import { blockSteps, blocksEmbedded } from './early-items.ts';
import { onTaskResult, onToolResult } from './route-tool-result.ts';
import type { TransportSession } from './transport-session.ts';
import {
  inputRequiredOnly,
  inputRequestUrls,
  isInputRequired,
  refusedElicitationNotice,
  refusedElicitationResult,
} from '../flow/elicitation-urls.ts';

export { maxListedEntries } from './judge-listing.ts';

// The server's answers to the host's requests: each matched to the request it answers, judged as that request's
// method needs (a read, a tool result, a prompt, a listing, a plain answer), and passed on once judged.

/** Routes one answer from the server: only to a request that was sent, judged when it answers a read. */
export function onAnswer(s: TransportSession, id: JsonRpcId, m: Record<string, unknown>, extra?: MessageExtraInfo) {
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
  if ((method === 'tasks/list' || method === 'tasks/cancel') && s.mode === 'enforce' && isRecord(m['result'])) {
    const bare = withoutTaskResults(m, method);
    if (!judgesPlainAnswer(s, bare, method)) return s.deliver(bare, extra);
    return answerJudged(s, id, () => judgedPlainAnswer(s, bare, method), extra);
  }
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
  if (method === 'tools/call' || method === 'tasks/result') return onToolResult(s, id, m, method, tool, extra);
  if (method === 'prompts/get') return answerJudged(s, id, () => judgedPrompt(s, m), extra);
  if ((method === 'resources/list' || method === 'resources/templates/list') && s.mode === 'enforce')
    return answerJudged(s, id, async () => judgedPlainAnswer(s, await judgedListing(s, m), method), extra);
  if (judgesPlainAnswer(s, m, method)) return answerJudged(s, id, () => judgedPlainAnswer(s, m, method), extra);
  s.deliver(m, extra);
}

/**
 * A prompt's answer: its links recorded and noted, its items judged where this front end judges them (the proxy judges
 * them itself), and withheld when what is left names a refused link's address.
 */
async function judgedPrompt(s: TransportSession, m: Record<string, unknown>): Promise<Record<string, unknown>> {
  const id = m['id'] as JsonRpcId;
  if (s.judgeItems) {
    const judged = await judgedMessages(s, m, 'result');
    await s.noted.settled();
    return namesRefused(s, judged) ? withheldNaming(id) : judged;
  }
  const messages = isRecord(m['result']) ? m['result']['messages'] : undefined;
  // the bodies judged beside the links' decisions, for the caller that edits the items (one deadline for both)
  const embedded = s.handsEarlyItems && isRecord(m['result']) ? blocksEmbedded(s.gate, messages) : null;
  const steps = await messageLinkSteps(s, id, messages);
  await s.noted.settled();
  if (namesRefused(s, searchedWithoutRefused(m, ['result', 'messages'], steps))) return withheldNaming(id);
  if (embedded !== null) s.onEarlyItems?.('answer', id, { steps: blockSteps(messages, steps), embedded });
  return m;
}

/**
 * An `input_required` answer (MCP 2026-07-28), its URL-mode elicitations judged and recorded as links are (observe mode
 * too): as it came when all are allowed and the rest of it names no refused address; with one refused, the gate's
 * answer instead: a tool result with the notice as an error, a gate error for a prompt.
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
    const judged = { ...m, result: await judgedSampling(s, inputRequiredOnly(result, method === 'tasks/get'), id) };
    // its sampling requests' refused links became notices: the rest (their prose, the elicitations' messages) may
    // not name a refused address
    await s.noted.settled();
    return namesRefused(s, judged) ? withheldNaming(id) : judged;
  }
  if (method === 'tools/call') return { jsonrpc: '2.0', id, result: refusedElicitationResult(refused) };
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
