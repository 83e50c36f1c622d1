import { randomUUID } from 'node:crypto';
import { isRecord } from '../decision/json-value.ts';
import { uriOf } from '../link/resource-link.ts';
import { refusedAddressOf } from '../sdk/refused-addresses.ts';
import { judgeAlteredRead } from '../flow/host-altered-read.ts';
import { discoverLink, readFailed as failedRead, linkRefused, sendRead, skipRead } from '../flow/link-steps.ts';
import { judgeReadAnswer, readBodyJudge } from '../flow/read-body-links.ts';
import type { KeptBodyLink } from '../flow/kept-body-links.ts';
import { checkBudget } from './event-budget.ts';
import { type HookContext, type HookStep, linkContext, modeOf, nowOf, save } from './hook-context.ts';
import { keptLink } from './hook-discovery.ts';
import type { PendingRead, SeenLink } from './session-state.ts';
import type { HookAnswer } from './hook-event.ts';
import { decideReadLink, type ReadEvent } from './hook-pre-read.ts';
import { readNotice } from './read-notice.ts';
import { namingNotice } from './refused-named.ts';
import { SavedFiles } from './saved-files.ts';
import { readContents, readError, readRefusedByHost, readResultType } from './tool-output.ts';

/** The host's read failed: the pending read is recorded as failed. */
export async function readFailed(r: ReadEvent): Promise<HookAnswer> {
  const { event, context } = r;
  const taken = await r.state.takePending(r.callId);
  if (taken === undefined) return { kind: 'none' };
  // the mode is the command line's, never the state entry's
  const pending = { ...taken, mode: modeOf(context) };
  const message =
    typeof event.response === 'string' ? `the host's read failed: ${event.response}` : "the host's read failed";
  const failure = {
    kind: 'failed',
    why: "the host's read failed",
    message: message.slice(0, 200).toLowerCase(),
  } as const;
  await save(context, event, pending, failedRead(context.gate, pending, pending.requested, failure).record);
  return { kind: 'none' };
}

/** After the host read: the read decision over what it received; each withheld item is replaced by the notice. */
export async function readReturned(r: ReadEvent): Promise<HookAnswer> {
  const { event, call, context } = r;
  const { gate } = context;
  const pending = await r.state.takePending(r.callId);
  // the link is judged again now: the pending entry is a file the gated agent can write, so it can only make the
  // decision stricter (a link it says was denied stays denied), never looser, and the mode is the command line's
  const { step: fresh, keptAll } = await decideReadLink(call.server, call.uri, r.state, context);
  const step = stricterStep(pending, fresh, context);
  const raw = readContents(event.response);
  if (raw === null) throw new Error('field `tool_response.contents` is missing or not an array');
  const error = readError(event.response);
  if (error !== null && raw.length === 0 && !linkRefused(step)) {
    // the server answered an error (Claude Code: `{contents: [], error}`): nothing reached the model to judge
    const requested = pending?.requested ?? sendRead(gate, step, nowOf(context));
    // a host that refused the read itself (Gemini CLI reads only listed resources) is the host's doing, not the server's
    const who = readRefusedByHost(event.response) ? 'the host refused the read' : 'the server answered an error';
    const failure = { kind: 'failed', why: who, message: `${who}: ${error}`.slice(0, 200).toLowerCase() } as const;
    const record = failedRead(gate, step, requested, failure).record;
    const next = { boundary: 'host-link-handling', hint: `${who} itself; no request reached a server` } as const;
    await save(context, event, step, who === 'the host refused the read' ? { ...record, next } : record);
    // the error's text reaches the model: one naming an address the session refused is withheld
    const named = await namedRead(r, error);
    return named === null ? { kind: 'none' } : withholdAnswer(call.uri, [{ uri: call.uri }], new Set([0]), named);
  }

  const files = new SavedFiles(event.savedDir);
  // a result over the item cap is denied by its count before any item is judged: no saved file is read for it
  const overCap = raw.length > gate.policy.document.read.maxItems;
  const { contents, saved } = await judgedContents(
    raw,
    files,
    overCap ? null : gate.policy.document.read.maxBytes,
    context,
  );
  if (linkRefused(step)) {
    for (const path of saved) if (path !== null) await files.remove(path);
    const record = skipRead(step, 'the link was denied');
    await save(context, event, step, record);
    const notice = await readNotice('withheld the body of', step, step.linkDecision, record.next, r, keptAll);
    // the policy refused the link: the items standing for its body carry no address either (one notice for a
    // result over the item cap)
    const items = overCap ? raw.slice(0, 1) : raw;
    return withholdAnswer(call.uri, items, new Set(items.map((_, i) => i)), notice, false);
  }

  // the host did the read: the flow judges its result afterwards
  const now = nowOf(context);
  const requested = pending?.requested ?? sendRead(gate, step, now);
  const elapsedMs = event.durationMs ?? Math.max(0, now.getTime() - Date.parse(requested.at));
  const timing = { requested, elapsedMs, now: () => now };
  // the links of the read's JSON bodies the rule keeps (`keptBodyLinks`: every link object, every refused link) are kept
  // as a tool result's are (before anything of this read is handed on): as links the answering server returned, so a
  // later read of the uri from another server is `server.mismatch` and from that server is judged as that link; and,
  // refused for its address, that address, so a later result naming it is withheld
  const refused: string[] = [];
  const seen: SeenLink[] = [];
  const note = (kept: readonly KeptBodyLink[]) => {
    for (const { link, decision, server } of kept) {
      const address = decision.effect === 'deny' ? refusedAddressOf(decision, uriOf(link)) : null;
      if (address !== null) refused.push(address);
      const discovered = discoverLink(link, null, linkContext(server, null), now);
      seen.push({ server, link: keptLink(link), discovered, toolUseId: event.toolUseId });
    }
  };
  const judged =
    event.altered === undefined
      ? await judgeReadAnswer(
          gate,
          step,
          { result: readResult(contents, readResultType(event.response)) },
          timing,
          note,
        )
      : await judgeAlteredRead(gate, step, { contents }, event.altered, timing, readBodyJudge(gate, note));
  // under a name never used again: a read's call id may repeat (a host that gives none: its server and uri)
  const readId = `read-${randomUUID()}`;
  await r.state.addSeen(readId, seen);
  await r.state.addRefused(readId, refused);
  await save(context, event, step, judged.record);
  if (modeOf(context) === 'observe') return { kind: 'none' };
  // a result the flow did not judge item by item (an unknown `resultType`, `input_required`) passes whole or not at all
  const withheld = judged.complete
    ? new Set(judged.dropped.map((d) => d.index))
    : new Set(judged.delivery === 'none' ? raw.map((_, i) => i) : []);
  // a JSON body holding a refused link is handed on as judged: each such link replaced by its notice (read-body-links)
  const replaced = judged.replaced ?? new Map<number, Record<string, unknown>>();
  // what is handed on names no address the session refused (as a tool result's does not): else the whole body is withheld
  const handedOn = raw.map((item, i) => (withheld.has(i) ? null : (replaced.get(i) ?? item)));
  const named = await namedRead(r, [handedOn, error]);
  if (named !== null) {
    for (const path of saved) if (path !== null) await files.remove(path);
    return withholdAnswer(call.uri, overCap ? raw.slice(0, 1) : raw, new Set(raw.map((_, i) => i)), named);
  }
  if (withheld.size === 0 && replaced.size === 0) return { kind: 'none' };
  // the model is never pointed at a withheld saved file: it is removed, whatever made it unsafe
  for (const [index, path] of saved.entries()) if (path !== null && withheld.has(index)) await files.remove(path);
  if (withheld.size === 0) {
    const notice = await readNotice('replaced refused links in the body of', step, judged.decision, null, r, keptAll);
    return withholdAnswer(call.uri, raw, withheld, notice, true, replaced);
  }
  const notice = await readNotice('withheld the body of', step, judged.decision, judged.record.next, r, keptAll);
  // a result over the item cap is answered by one notice, not one per item (half a million items made an answer of
  // 150 MB, past what a host reads in its timeout)
  if (overCap && withheld.size === raw.length) return withholdAnswer(call.uri, raw.slice(0, 1), new Set([0]), notice);
  return withholdAnswer(call.uri, raw, withheld, notice, true, replaced);
}

/**
 * The notice withholding a read's answer when `handedOn` (what of it reaches the model) names an address the session
 * refused earlier, or the session's state no longer holds them all; null when it names none (and in observe mode).
 */
async function namedRead(r: ReadEvent, handedOn: unknown): Promise<string | null> {
  const refused = await r.state.refusedAddresses(r.context.budget);
  return namingNotice(handedOn, refused, ['the body of a read', 'the read'], modeOf(r.context), r.context);
}

/**
 * The step a read's result is judged under: the link decided now, unless the pending entry of the pre event denied
 * it (then that stricter decision), always in the context's mode. A state entry never loosens a decision.
 */
function stricterStep(pending: PendingRead | undefined, fresh: HookStep, context: HookContext): HookStep {
  if (pending === undefined || pending.linkDecision.effect !== 'deny' || fresh.linkDecision.effect === 'deny')
    return fresh;
  return { ...fresh, linkDecision: pending.linkDecision, mode: modeOf(context) };
}

/** The read's result as the flow judges it: its contents, and its `resultType` when the host passed one on. */
function readResult(contents: Record<string, unknown>[], resultType: unknown): Record<string, unknown> {
  return resultType === undefined ? { contents } : { contents, resultType };
}

/**
 * The read tool's items as the gate judges them, and the file each one's body was saved to (null: inline); with
 * `maxBytes` null no saved file is read (an item whose body is one has none, which the gate denies).
 */
async function judgedContents(
  raw: readonly unknown[],
  files: SavedFiles,
  maxBytes: number | null,
  context: HookContext,
) {
  const saved: (string | null)[] = [];
  const contents: Record<string, unknown>[] = [];
  for (const item of raw) {
    checkBudget(context.budget);
    const path = isRecord(item) && typeof item['blobSavedTo'] === 'string' ? item['blobSavedTo'] : null;
    saved.push(path);
    if (!isRecord(item)) {
      contents.push({});
      continue;
    }
    const judgedItem: Record<string, unknown> = {};
    for (const key of ['uri', 'mimeType'] as const) if (item[key] !== undefined) judgedItem[key] = item[key];
    if (path === null) {
      // the body as the host passed it: text, or a blob inline as base64 (Codex)
      for (const key of ['text', 'blob'] as const) if (item[key] !== undefined) judgedItem[key] = item[key];
    } else {
      // the body is the saved file (the item's `text` is the host's note about it); a file that cannot be read back,
      // or lies outside the host's folder, gives an item with no body, which the gate denies (content.shape)
      const blob = maxBytes === null ? null : await files.readBase64(path, maxBytes);
      if (blob !== null) judgedItem['blob'] = blob;
    }
    contents.push(judgedItem);
  }
  return { contents, saved };
}

/**
 * The read tool's output with each withheld item replaced by a text item carrying the notice (its uri when `keepUri`
 * and it is the read's `readUri`),
 * and each item in `replaced` (a JSON body whose refused links are replaced by their notices) in its judged form.
 */
function withholdAnswer(
  readUri: string,
  raw: readonly unknown[],
  withheld: ReadonlySet<number>,
  notice: string,
  keepUri = true,
  replaced: ReadonlyMap<number, Record<string, unknown>> = new Map(),
): HookAnswer {
  const contents = raw.map((item, index) => {
    if (!withheld.has(index)) return replaced.get(index) ?? item;
    // only the read's own uri stays: an item of another address (`read.uri-mismatch`) may name an internal one
    const uri = keepUri && isRecord(item) && item['uri'] === readUri ? readUri : '';
    return { uri, mimeType: 'text/plain', text: notice };
  });
  return { kind: 'replace', output: { contents }, reason: notice };
}
