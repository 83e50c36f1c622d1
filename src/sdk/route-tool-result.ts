import type { MessageExtraInfo } from './mcp-transport.ts';
import { isRecord } from '../decision/json-value.ts';
import { judgeEmbeddedItems } from '../flow/judge-embedded.ts';
import { recordRef } from '../flow/record-ref.ts';
import { refusedStepItem } from '../flow/refused-link.ts';
import { recordErrorMessage, recordWithheldError } from '../record/record-error.ts';
import { applyStructured, type RefusedRef } from '../flow/structured-links.ts';
import { type LinkStep, linkRefused } from '../flow/link-steps.ts';
import { MessageLedger } from '../flow/message-ledger.ts';
import { uriOf } from '../link/resource-link.ts';
import { withJsonText } from '../flow/json-text-links.ts';
import { judgeResultValues } from '../flow/refused-beside.ts';
import { resultLinkDecider } from '../flow/link-decider.ts';
import type { FoundLink } from './found-links.ts';
import { gateError } from './gate-answers.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { namesRefused, searchedToolResult, withheldNaming } from './plain-answers.ts';
import type { TransportSession } from './transport-session.ts';
import { answerJudged } from './answer-judged.ts';
import type { Noting } from './refusals-noted.ts';
import { contentEmbedded } from './early-items.ts';
import type { BatchMember } from './batch-refusals.ts';
import { StepsByIndex } from './steps-by-index.ts';

// A tool result (and a task's result, which is one): its links found, decided once each and recorded before it goes
// on; each refused link noted (`refused-addresses.ts`) and, where this front end judges the items, replaced by
// its notice in `content` and `structuredContent` alike; what is left may not name a refused link's address.

/** The answer `m` to the `tools/call` or `tasks/result` `id` (of `tool`): recorded, judged and passed on. */
export function onToolResult(
  s: TransportSession,
  id: JsonRpcId,
  m: Record<string, unknown>,
  method: string,
  tool: string | null,
  extra?: MessageExtraInfo,
): void {
  const result = m['result'];
  // a task-augmented call answers with the task; its result comes later through `tasks/result` (2025-11-25) or
  // `tasks/get` (the Tasks extension of 2026-07-28, whose task handle is flat: `resultType: task`, `taskId`)
  if (method === 'tools/call' && isRecord(result) && isRecord(result['task']))
    s.requests.noteTask(String(result['task']['taskId']), tool);
  if (method === 'tools/call' && isRecord(result) && result['resultType'] === 'task')
    s.requests.noteTask(String(result['taskId']), tool);
  const found = remembered(s, result, tool, id);
  // every listed link is recorded before the result is passed on (a later record of the link supersedes it)
  if (s.judgeItems)
    return answerJudged(
      s,
      id,
      async () => {
        const judged = await judgedToolResult(s, m, found);
        if (!(await s.emitDiscovered(found)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
        // what is left names no refused link's address (its own links became notices), nor one a result beside it
        // refused
        await s.noted.settled();
        return namesRefused(s, judged) ? withheldNaming(id) : judged;
      },
      extra,
    );
  // here the caller judges the items (the proxy): a noting ends only once the result was passed on, so what the server
  // sent after it waits until the caller, taking it, starts noting the refusals it decides itself (`notingRefusals`)
  if (found.length === 0 && s.searchesRefused) {
    const noted = s.noted.start();
    // one of a batch: searched for what the others refused too (it refuses nothing itself here; its caller may)
    const sibling = joinBatch(s, id, noted);
    sibling?.decided([]);
    return answerJudged(
      s,
      id,
      async () => {
        await noted.earlier(sibling?.notings);
        await sibling?.all();
        return namesRefused(s, m) || sibling?.named(m) === true ? withheldNaming(id) : m;
      },
      extra,
      () => {
        handedOn(s, id, sibling);
        noted();
      },
    );
  }
  if (found.length === 0) return s.deliver(m, extra);
  // noted from now: what the server sends after it is checked once its refusals are, and those its caller decides
  const noted = s.noted.start();
  // the bodies judged beside the links' decisions, for the caller that edits the items (one deadline for both)
  const embedded = s.handsEarlyItems && isRecord(result) ? contentEmbedded(s.gate, result['content']) : null;
  // one of a batch: its siblings search for what it refused, and it for theirs, once all are decided
  const sibling = joinBatch(s, id, noted);
  s.hold('answer', id, async () => {
    try {
      // each link decided once: the discovery records and the caller's edits of the items share the decision
      const steps = await s.stepsOf(found);
      sibling?.decided(steps);
      const byIndex = stepsByIndex(found, steps);
      // the result's prose and its allowed links may not name a link refused before it, in this chunk too (its own
      // refused links, and their uris beside them, become notices in the proxy), nor one a result of its batch refused
      await noted.earlier(sibling?.notings);
      await sibling?.all();
      // (copied without its refused links' uris only when there is something to search for)
      const searching = sibling !== undefined || (s.mode === 'enforce' && s.refused.size > 0);
      const searched = searching ? searchedToolResult(m, byIndex) : m;
      const naming = searching && (namesRefused(s, searched) || sibling?.named(searched) === true);
      s.refused.note(steps);
      const recorded = await s.emitDiscovered(found, steps);
      if (naming) return s.deliver(withheldNaming(id), extra);
      s.onToolResultSteps?.(id, byIndex);
      if (!recorded && s.withholdsOnRecordError)
        return s.deliver(gateError(id, recordErrorMessage(s.recordError)), extra);
      if (embedded !== null) s.onEarlyItems?.('answer', id, { steps: byIndex, embedded });
      s.deliver(m, extra);
    } finally {
      sibling?.decided([]);
      handedOn(s, id, sibling);
      noted();
    }
  });
}

// the steps of `found` by content index: over one array when the indices are those of one result's `content` (as
// `rememberResult` finds them, increasing), not a `Map` entry per link
function stepsByIndex(found: readonly FoundLink[], steps: readonly LinkStep[]): ReadonlyMap<number, LinkStep> {
  const indices = found.map((f) => f.contentIndex);
  if (StepsByIndex.fits(indices)) return new StepsByIndex(indices, steps);
  const byIndex = new Map<number, LinkStep>();
  found.forEach((f, i) => byIndex.set(f.contentIndex ?? -1, steps[i] as LinkStep));
  return byIndex;
}

// a tool result of the batch being taken apart joins its ledger, and the caller that judges its items (the proxy)
// can take it while it is passed on (`memberOf`)
function joinBatch(s: TransportSession, id: JsonRpcId, noted: Noting): BatchMember | undefined {
  const member = s.batch?.join(noted);
  if (member !== undefined) s.batchMembers.set(id, member);
  return member;
}

// the decorator is done with a batch's member: its caller took it or never will
function handedOn(s: TransportSession, id: JsonRpcId, member: BatchMember | undefined): void {
  if (member === undefined) return;
  if (s.batchMembers.get(id) === member) s.batchMembers.delete(id);
  member.handedOn();
}

/**
 * A completed task's `tasks/get` answer (Tasks extension, 2026-07-28): its `result` is the tool call's result, so its
 * links and embedded resources are found, recorded and judged as a tool result's are, by every front end (the proxy
 * included: it judges no task result itself).
 */
export function onTaskResult(
  s: TransportSession,
  id: JsonRpcId,
  m: Record<string, unknown>,
  task: Record<string, unknown>,
  tool: string | null,
  extra?: MessageExtraInfo,
): void {
  const result = task['result'];
  const found = remembered(s, result, tool, id);
  answerJudged(
    s,
    id,
    async () => {
      const inner = { ...m, result };
      const judged = await judgedToolResult(s, inner, found);
      if (!(await s.emitDiscovered(found)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
      const made = judged === inner ? m : { ...m, result: { ...task, result: judged['result'] } };
      await s.noted.settled();
      return s.mode === 'enforce' && namesRefused(s, made) ? withheldNaming(id) : made;
    },
    extra,
  );
}

// the links of one result, found at one time (one clock reading, not one per link) and remembered; those it pushed
// out are recorded as unread (not even listed when no record would be kept: `recordUnread` writes none then)
function remembered(s: TransportSession, result: unknown, tool: string | null, id: JsonRpcId): FoundLink[] {
  const { found, evicted } = s.found.rememberResult(result, tool, id, s.now(), !s.keepsNoRecords);
  if (evicted.length > 0) s.queue(() => s.recordUnread(evicted, 'the host did not read it before more links arrived'));
  return found;
}

/**
 * A tool result's message with each link its link decision refused (enforce mode) and each withheld embedded resource
 * replaced by its notice, in `content` and in `structuredContent` alike (the same message when none is). Its refusals
 * are noted from the call on (before its first wait) until its links are decided, those of its JSON texts and
 * `structuredContent` too.
 */
async function judgedToolResult(s: TransportSession, message: Record<string, unknown>, found: readonly FoundLink[]) {
  const noted = s.noted.start();
  try {
    return await judgedNoted(s, message, found, noted);
  } finally {
    noted();
  }
}

async function judgedNoted(
  s: TransportSession,
  message: Record<string, unknown>,
  found: readonly FoundLink[],
  noted: Noting,
) {
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
  // a link decided only there is noted as refused as its decision is made, before the noting ends
  const decide = resultLinkDecider(s.gate, s.server, known, (uri, d) => s.refused.noteDecided(uri, d));
  const judging = { server: s.server, mode: s.mode, refs: refsOf, decide };
  // (a link refused there: the strings beside it that name its address become its notice too)
  const values = judgeResultValues(s.gate, content, result['structuredContent'], judging, true);
  const steps = await stepping;
  s.refused.note(steps);
  const refs = new Map<string, RefusedRef>();
  inContent.forEach((f, i) => {
    const step = steps[i];
    if (step === undefined || f.contentIndex === null || !linkRefused(step)) return;
    refs.set(step.discovered.uri, { ref: recordRef(step.discovered), link: f.link, decision: step.linkDecision });
  });
  refsMade(refs);
  const { texts, structured, beyond } = await values;
  // each refused link's notice worded with every link the result refused (a name spelling one's address is left out)
  const ledger = MessageLedger.of([...refs.values(), ...beyond.values()].map((r) => uriOf(r.link)));
  inContent.forEach((f, i) => {
    const step = steps[i];
    const replacedBy = step === undefined ? null : refusedStepItem(step, f.link, ledger);
    if (replacedBy !== null && f.contentIndex !== null) judged.changed.set(f.contentIndex, replacedBy);
  });
  for (const edit of texts)
    if (!judged.changed.has(edit.index)) judged.changed.set(edit.index, withJsonText(content[edit.index], edit));
  noted();
  const structuredChanged = structured.withheld || structured.edits.length > 0;
  if (judged.changed.size === 0 && !structuredChanged) return message;
  const made: Record<string, unknown> = { ...result };
  if (judged.changed.size > 0) made['content'] = content.map((item, i) => judged.changed.get(i) ?? item);
  if (structuredChanged) made['structuredContent'] = applyStructured(result['structuredContent'], structured);
  return { ...message, result: made };
}
