import { randomUUID } from 'node:crypto';
import {
  cappedLink,
  discoverLink,
  type LinkStep,
  linkRefused,
  skipRead,
  startLink,
  uriReading,
} from '../flow/link-steps.ts';
import { uriOf } from '../link/resource-link.ts';
import { jsonText } from '../decision/json-value.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { NoticeSubject } from '../flow/gate-notice.ts';
import { recordRef } from '../flow/record-ref.ts';
import { refusedLinkNotice } from '../flow/refused-link.ts';
import { MessageLedger } from '../flow/message-ledger.ts';
import { type DecidedLink, resultLinkDecider } from '../flow/link-decider.ts';
import { judgeResultValues } from '../flow/refused-beside.ts';
import type { Decision } from '../decision/decision.ts';
import { applyStructured, type RefusedRef, type StructuredEdit } from '../flow/structured-links.ts';
import { isRecord } from '../decision/json-value.ts';
import { capDecision, capNotice, type HookCap } from './cap-notice.ts';
import { checkBudget, maxItemsPerEvent } from './event-budget.ts';
import { type HookContext, linkContext, modeOf, nowOf, save, saveDiscovered } from './hook-context.ts';
import type { HookAnswer, HookEvent } from './hook-event.ts';
import { judgeToolItem } from './hook-embedded.ts';
import { maxRenderedLinkChars, maxSplitCandidates, renderedItem, renderedLinkCandidates } from './rendered-item.ts';
import { SavedFiles } from './saved-files.ts';
import { refusedAddressOf } from '../sdk/refused-addresses.ts';
import { listingNamed, namelessWhereNaming, namingWithheld, refusedSearch } from './refused-named.ts';
import { maxLinksPerEvent, openSessionState, type RefusedAddressList, type SeenLink } from './session-state.ts';
import type { FormsByAddress } from './refused-forms.ts';
import { replacedAt, structuredLinks } from './structured-links.ts';
import { listedResources, parsedJson, unwrapToolOutput } from './tool-output.ts';
import { duplicateName } from '../flow/member-names.ts';
import { decideLinkLine } from '../flow/guard-gate.ts';

/**
 * After an MCP tool ran: its links go into session state with where they came from, and each its link decision
 * refuses is replaced by its notice (enforce mode); its embedded resources (native, rendered, saved files) are judged
 * like a read, and each withheld one is replaced by its notice.
 */
export async function toolReturned(
  event: HookEvent,
  server: string,
  tool: string,
  context: HookContext,
): Promise<HookAnswer> {
  // a post event without its result (a host that moved it to a member the adapter does not read) still hands the
  // model a result: withheld whole, never let through unjudged
  if (event.response === undefined) return withheldWhole(context, tool, unknownShape);
  const output = unwrapToolOutput(event.response, event.stringIsText === true);
  // a shape the hook does not know stands where items can: withheld whole, never passed on unjudged
  if (output.result === null) return withheldWhole(context, tool, unknownShape);
  const resultType = output.result['resultType'];
  if (resultType !== undefined && resultType !== 'complete')
    return withheldWhole(context, tool, unknownResultType(resultType));
  const items = output.result['content'] as unknown[];
  // a host that hands the model `structuredContent` (Codex) gives it the links there too: judged after `content[]`;
  // Codex hands on any value there, a string holding JSON too: judged as that JSON, written back as JSON text
  const given = output.result['structuredContent'];
  const structured = typeof given === 'string' ? parsedJson(given) : given;
  // a JSON string naming a member twice is judged as JSON.parse keeps the last, read by the model with both
  if (typeof given === 'string' && structured !== given && duplicateName(given) !== null)
    return withheldWhole(context, tool, structuredTwice);
  const inStructured = structured === undefined || structured === null ? [] : structuredLinks(structured);
  if (inStructured === null) return withheldWhole(context, tool, structuredTooLarge);
  const all = [...items, ...inStructured.map((s) => s.link)];
  // a result of more items than one event may judge is withheld whole before any item is judged (each item costs a
  // decision, a record and a notice: half a million of them outlast the host's timeout); the state keeps that it
  // could not keep this server's links, so none of them is readable from another server
  if (all.length > maxItemsPerEvent) {
    await addOverflow(event, context, new Set([server]));
    return withheldWhole(context, tool, tooManyItems);
  }
  const at = nowOf(context);
  const saved = new SavedFiles(event.savedDir);
  const state = await openSessionState(context, event.session);
  // the addresses the session refused before this event, searched for in what this result hands on
  const refusedBefore = await state.refusedAddresses(context.budget);
  const seen: SeenLink[] = [];
  // this event's denied links: their addresses (kept for later events) and the items standing for them
  const deniedAddresses: string[] = [];
  const deniedItems = new Set<number>();
  // the refusals standing for this event's denied links (enforce mode), by item: their notices quote the links' names
  const refusals = new Map<number, Refusal>();
  const withheld = new Map<number, string>();
  const withhold = (index: number, notice: string | null) => {
    if (notice !== null) withheld.set(index, notice);
  };
  // the event's ledger: the uris of every link it refused or withheld by a cap. A notice names its link by its name
  // unless the name spells one of their addresses, so the notices are worded once every link of the event is decided
  // (their places in `withheld` kept meanwhile, in item order)
  const ledger = new MessageLedger();
  // the links withheld by a cap, by item (their notices are worded with the ledger too)
  const capped = new Map<number, { subject: NoticeSubject; cap: HookCap }>();
  // the servers of links over the cap: the state keeps that it could not keep them
  const overflow = new Set<string>();
  // the links refused, by masked uri: a string of `structuredContent` holding one's uri is replaced too
  const refused = new Map<string, RefusedRef>();
  // each link's decision, so the JSON texts and `structuredContent` decide none of them again
  const decided: DecidedLink[] = [];
  // the link steps of this event by link: a link listed twice (in `content` and in `structuredContent`) is decided once
  const steps: LinkSteps = new Map();
  // the embedded resources let through, by item: their JSON texts are judged with the result's values
  const embeddedTexts = new Map<number, Record<string, unknown>>();
  let lastUri = '';
  let links = 0;
  for (const [index, item] of all.entries()) {
    checkBudget(context.budget);
    const rendered = renderedItem(item, lastUri, server);
    if (rendered.kind === 'header') lastUri = rendered.uri;
    if (rendered.kind === 'header' || rendered.kind === 'text') continue;
    // a link in `structuredContent` has no index in `content[]`
    const contentIndex = index < items.length ? index : null;
    if (rendered.kind === 'link') {
      if (typeof rendered.link['uri'] !== 'string') continue;
      // a link over the cap is withheld, and the state says it could not keep it (a later read is checked against that)
      if (++links > maxLinksPerEvent) {
        const subject = await cappedSubject(event, rendered.link, contentIndex, tool, tooManyLinks, server, context);
        capped.set(index, { subject, cap: tooManyLinks });
        withheld.set(index, '');
        overflow.add(server);
        continue;
      }
      const candidates = rendered.rendered === undefined ? [] : renderedLinkCandidates(rendered.rendered);
      if (candidates === null) {
        const subject = await cappedSubject(event, rendered.link, contentIndex, tool, tooManySplits, server, context);
        capped.set(index, { subject, cap: tooManySplits });
        withheld.set(index, '');
        // nor a line it did not judge: a later read of an address the line may spell is judged as this server's link
        overflow.add(server);
        continue;
      }
      const discovered = discoverLink(rendered.link, contentIndex, linkContext(server, tool), at);
      const entry: SeenLink = { server, link: keptLink(rendered.link), discovered, toolUseId: event.toolUseId };
      if (rendered.rendered !== undefined) entry.rendered = rendered.rendered;
      seen.push(entry);
      const { refusal, decision, denied } = await linkRefusal(
        event,
        entry,
        candidates,
        contentIndex,
        tool,
        context,
        steps,
      );
      decided.push({ link: rendered.link, decision });
      if (denied !== null) {
        deniedItems.add(index);
        const address = refusedAddressOf(denied.linkDecision, denied.link?.uri ?? denied.discovered.uri);
        if (address !== null) deniedAddresses.push(address);
      }
      if (refusal !== null) {
        // the line the host rendered stands for the listed link and for the split that was denied: both are refused
        ledger.add(uriOf(rendered.link));
        ledger.add(uriOf(refusal.link));
        withheld.set(index, '');
        refused.set(refusal.step.discovered.uri, refusalRef(refusal));
        refusals.set(index, refusal);
      }
      continue;
    }
    const notice = await judgeToolItem(rendered, index, lastUri, saved, context);
    withhold(index, notice);
    // an embedded text the read rules let through may be JSON holding links (the proxy and the decorator judge its
    // links as a JSON text item's): judged with the result's values below, as the host rendered it or not
    if (notice === null && rendered.kind === 'embedded' && contentIndex !== null)
      embeddedTexts.set(contentIndex, { type: 'resource', resource: rendered.resource });
  }
  const callId = event.toolUseId ?? randomUUID();
  await state.addSeen(callId, seen, overflow);
  // kept before the result goes on: a later result naming one is withheld (a failure here withholds this one)
  const deniedForms = await state.addRefused(callId, deniedAddresses);
  // what is handed on names no address refused before (enforce mode: nor one of this event's, whose links are notices)
  const searchedFor = {
    ...refusedBefore,
    addresses: [...refusedBefore.addresses],
    forms: joinedForms(refusedBefore, deniedForms),
  };
  if (modeOf(context) === 'enforce') searchedFor.addresses.push(...deniedAddresses);
  checkBudget(context.budget);
  const search = refusedSearch(searchedFor);
  // the notices of the event's refused and capped links, worded with its ledger (a link refused beyond them, in a JSON
  // text, is not in it: the judgement of the values below replaces every text naming its address, these included).
  // An event that withheld links by a cap does not know every address they spell (a line over the split cap is not
  // read for them): its notices show no name at all (`MessageLedger.unknown`: `localhost/admin/keys` or a bare host
  // name is an address no rule can tell from a name). A refused link's
  // notice quotes its name, which may carry an address refused earlier in the session (`search`): that notice names it
  // by scheme
  const wording = capped.size === 0 ? ledger : MessageLedger.unknown();
  for (const [index, { step, link }] of refusals) {
    const ref = recordRef(step.discovered);
    const notice = refusedLinkNotice(link, step.linkDecision, ref, wording);
    const named = namelessWhereNaming(notice, link, search, (l) =>
      refusedLinkNotice(l, step.linkDecision, ref, wording),
    );
    withheld.set(index, named.notice);
    // what still names one is searched with the rest (and withholds the result)
    if (named.naming) deniedItems.delete(index);
  }
  for (const [index, { subject, cap }] of capped) {
    const notice = capNotice(context, { ...subject, refused: wording }, cap);
    if (notice === null) withheld.delete(index);
    else withheld.set(index, notice);
  }
  const { content, linksReplaced, inPlace } = placedNotices(items, structured, inStructured, withheld);
  // prose holding a refused link's uri too (a server's text naming it beside the link), and the flow's judgement of
  // `structuredContent`'s uri strings and strings holding a refused link's uri (a link refused inside a JSON text or
  // `structuredContent`: every other string of the result is searched for it too)
  checkBudget(context.budget);
  const decide = resultLinkDecider(context.gate, server, decided);
  const judging = { server, mode: modeOf(context), refs: refused, decide };
  const valued = content.map((item, i) => embeddedTexts.get(i) ?? unwrappedText(item));
  const values = await judgeResultValues(context.gate, valued, linksReplaced ?? undefined, judging, true);
  checkBudget(context.budget);
  // those refused beyond `content` are kept as `content`'s are, in an entry of their own (each entry is written once)
  const beyond = { addresses: [] as string[] };
  for (const r of values.beyond.values()) {
    const address = refusedAddressOf(r.decision, uriOf(r.link));
    if (address !== null) beyond.addresses.push(address);
  }
  await state.addRefused(`${callId}-beside`, beyond.addresses);
  const { texts: jsonEdits, structured: judged } = values;
  // an embedded resource's edit stands for the whole item (its text with the refused links replaced, or the notice)
  for (const edit of jsonEdits)
    content[edit.index] = {
      type: 'text',
      text: embeddedTexts.has(edit.index) ? edit.text : rewrapped(content[edit.index], edit.text),
    };
  const result: Record<string, unknown> = { ...output.result, content };
  const structuredChanged = inPlace.size > 0 || judged.withheld || judged.edits.length > 0;
  if (structuredChanged) {
    const applied = applyStructured(linksReplaced, judged);
    result['structuredContent'] =
      typeof given === 'string' && typeof applied !== 'string' ? JSON.stringify(applied) : applied;
  }
  // what is left names no address refused before (enforce mode: nor one of this event's, whose links are notices now,
  // searched above)
  const searched = { ...result, content: content.map((item, i) => (deniedItems.has(i) ? null : item)) };
  // and none of the links refused in the JSON texts or `structuredContent` (their strings replaced above)
  if (modeOf(context) === 'enforce' && beyond.addresses.length > 0) searchedFor.addresses.push(...beyond.addresses);
  const finalSearch = beyond.addresses.length > 0 ? refusedSearch(searchedFor) : search;
  const mode = context.namingMode ?? modeOf(context);
  const naming = namingWithheld(searched, searchedFor, tool, mode, context, finalSearch);
  if (naming !== null) return naming;
  if (withheld.size === 0 && !structuredChanged && jsonEdits.length === 0) return { kind: 'none' };
  const notices = [
    ...withheld.values(),
    ...(judged.withheld ? [judged.notice] : judged.edits.map(editText)),
    ...jsonEdits.map((e) => e.text),
  ];
  return { kind: 'replace', output: output.wrap(result), reason: notices.join('\n') };
}

// Gemini CLI hands its hook a server's text inside `<untrusted_context>` lines: the JSON is what is between them
const untrustedOpen = '<untrusted_context>\n';
const untrustedClose = '\n</untrusted_context>';

/** A text item as JSON text is judged: a Gemini CLI wrapper taken off. */
function unwrappedText(item: unknown): unknown {
  if (!isRecord(item) || item['type'] !== 'text' || typeof item['text'] !== 'string') return item;
  const text = item['text'];
  if (!text.startsWith(untrustedOpen) || !text.endsWith(untrustedClose)) return item;
  return { ...item, text: text.slice(untrustedOpen.length, -untrustedClose.length) };
}

/** A judged JSON text put back in the wrapper its item had. */
function rewrapped(item: unknown, text: string): string {
  return unwrappedText(item) === item ? text : `${untrustedOpen}${text}${untrustedClose}`;
}

/**
 * The tool result's `content` and `structuredContent` with each withheld item (`withheld`, by index into `items` and
 * then `inStructured`) replaced by a text item holding its notice.
 */
function placedNotices(
  items: readonly unknown[],
  structured: unknown,
  inStructured: readonly { path: readonly (string | number)[] }[],
  withheld: ReadonlyMap<number, string>,
) {
  const noticeItem = (notice: string) => ({ type: 'text', text: notice });
  const content = items.map((item, index) => {
    const notice = withheld.get(index);
    return notice === undefined ? item : noticeItem(notice);
  });
  // a text item that is one JSON value is data: its links and uris get `structuredContent`'s judgement (as in the
  // proxy and the decorator), so a refused uri does not survive in it
  const inPlace = new Map<readonly (string | number)[], unknown>();
  for (const [k, { path }] of inStructured.entries()) {
    const notice = withheld.get(items.length + k);
    if (notice !== undefined) inPlace.set(path, noticeItem(notice));
  }
  const linksReplaced = inPlace.size > 0 ? replacedAt(structured, inPlace) : structured;
  return { content, linksReplaced, inPlace };
}

/** The whole tool result replaced by one notice: a cap hit, or a shape or result type the hook cannot judge. */
function withheldWhole(context: HookContext, tool: string, cap: HookCap): HookAnswer {
  const notice = capNotice(context, null, cap, `withheld the result of tool ${quoteValue(tool)}`);
  if (notice === null) return { kind: 'none' };
  return { kind: 'replace', output: [{ type: 'text', text: notice }], reason: notice };
}

/**
 * The link decision of a link a tool returned: a denied link is recorded (observe mode: the would-deny) and, in
 * enforce mode, its notice (`refusedLinkItem`) is returned to stand in its place, so the model never sees it as a link.
 * A line the host rendered is judged for every link it may stand for: any of them denied refuses the line.
 */
async function linkRefusal(
  event: HookEvent,
  entry: SeenLink,
  candidates: readonly Record<string, unknown>[],
  index: number | null,
  tool: string,
  context: HookContext,
  decidedSteps: LinkSteps,
): Promise<{
  refusal: Refusal | null;
  decision: Decision;
  /** the step of the link the line stands for that was denied, whatever the mode (null: none) */
  denied: LinkStep | null;
}> {
  const steps: { link: Record<string, unknown>; step: LinkStep }[] = [];
  for (const link of [entry.link, ...candidates]) {
    checkBudget(context.budget);
    const reading = uriReading(link);
    const discovered = discoverLink(link, index, linkContext(entry.server, tool), nowOf(context), reading);
    const key = JSON.stringify([entry.server, link]);
    const earlier = decidedSteps.get(key);
    // the decision does not depend on where the link stood: a link decided before in this event keeps its decision
    const step =
      earlier === undefined
        ? await startLink(context.gate, {
            link,
            discovered,
            reading,
            linkServer: entry.server,
            readFrom: entry.server,
            seen: true,
            mode: modeOf(context),
          })
        : { ...earlier, discovered };
    if (earlier === undefined) decidedSteps.set(key, step);
    steps.push({ link, step });
  }
  // a split that gives no usable uri stands for no link anyone can read; when no split does, the line is judged as is
  const usable = steps.filter(({ step }) => !step.linkDecision.reasons.some((r) => unusableUri.has(r.code)));
  const denied = (usable.length === 0 ? steps.slice(0, 1) : usable).find(
    ({ step }) => step.linkDecision.effect === 'deny',
  );
  const listed = steps[0]?.step;
  if (denied === undefined) {
    // no read yet: a front end that keeps discovery records gets one as the result goes out (superseded by the read's)
    if (listed !== undefined && context.recordDiscovered !== undefined)
      await saveDiscovered(
        context,
        { ...event, toolUseId: null },
        { ...listed, discoveredBy: event.toolUseId },
        skipRead(listed, notReadYet),
      );
    // a listed link is always decided (`steps` starts with it)
    return { refusal: null, decision: (listed as LinkStep).linkDecision, denied: null };
  }
  const { link, step } = denied;
  // no read was asked for: the record names the call that returned the link, none that read it
  const record = skipRead(step, 'the link was denied');
  await save(context, { ...event, toolUseId: null }, { ...step, discoveredBy: event.toolUseId }, record);
  const refusal = linkRefused(step) ? { step, link } : null;
  return { refusal, decision: step.linkDecision, denied: step };
}

/** A link the hook refused (enforce mode): its step and the link its notice names (worded with the event's ledger). */
interface Refusal {
  step: LinkStep;
  link: Record<string, unknown>;
}

/** The link steps one event decided, by server and link (as JSON). */
type LinkSteps = Map<string, LinkStep>;

/** A refused link as `structuredContent` is judged beside it. */
function refusalRef(refusal: Refusal): RefusedRef {
  return { ref: recordRef(refusal.step.discovered), link: refusal.link, decision: refusal.step.linkDecision };
}

/** The notice text of a `structuredContent` replacement (a notice string, or the text item holding it). */
function editText(edit: StructuredEdit): string {
  return typeof edit.value === 'string' ? edit.value : isRecord(edit.value) ? String(edit.value['text']) : '';
}

const notReadYet = 'listed in a tool result passed on to the host; no read of it was recorded after';

const unusableUri: ReadonlySet<string> = new Set(['uri.invalid', 'input.invalid']);

const tooManyLinks: HookCap = {
  code: 'content.too-many-items',
  rule: 'hook.maxLinksPerEvent',
  message: `the tool result holds more than ${maxLinksPerEvent} links: this one was not judged`,
};
const tooManyItems: HookCap = {
  code: 'content.too-many-items',
  rule: 'hook.maxItemsPerEvent',
  message: `the tool result holds more than ${maxItemsPerEvent} items (links included): none was judged`,
};
const unknownShape: HookCap = {
  code: 'content.shape',
  rule: 'hook',
  message: "the host's tool output has a shape the hook does not know",
};
const structuredTooLarge: HookCap = {
  code: 'content.too-complex',
  rule: 'hook',
  message: "the tool result's `structuredContent` is too large or too deep to judge",
};
const structuredTwice: HookCap = {
  code: 'content.shape',
  rule: 'hook',
  message:
    "the tool result's `structuredContent` is JSON text that names a member twice in one object: readers differ on which one counts",
};
const unknownResultType = (type: unknown): HookCap => ({
  code: 'read.result-type-unknown',
  rule: 'hook',
  message: `unknown result type ${quoteValue(String(jsonText(type)).slice(0, 40))}`,
});
const tooManySplits: HookCap = {
  code: 'content.too-complex',
  rule: 'hook.maxSplitCandidates',
  message: `the host's rendered link line is over ${maxRenderedLinkChars} characters or splits more than ${maxSplitCandidates} ways`,
};

/** After the host listed a server's resources (or a directory's children): each uri goes into session state. */
export async function resourcesListed(
  event: HookEvent,
  server: string | null,
  context: HookContext,
): Promise<HookAnswer> {
  const at = nowOf(context);
  const state = await openSessionState(context, event.session);
  // the addresses the session refused before this event, searched for in what the listing hands on
  const refusedBefore = await state.refusedAddresses(context.budget);
  const seen: SeenLink[] = [];
  const overflow = new Set<string>();
  const refused = new Set<unknown>();
  // the addresses of the entries refused, kept for the search of later tool results
  const deniedAddresses: string[] = [];
  for (const entry of listedResources(event.response)) {
    checkBudget(context.budget);
    const from = typeof entry['server'] === 'string' ? entry['server'] : server;
    if (from === null || typeof entry['uri'] !== 'string') continue;
    // the list passes on as the host gave it; a later read of an entry over the cap is checked as the state says
    if (seen.length >= maxLinksPerEvent) {
      overflow.add(from);
      continue;
    }
    const link = keptLink({ ...entry, name: typeof entry['name'] === 'string' ? entry['name'] : entry['uri'] });
    // the address alone, as the proxy judges a listing: an entry it refuses is not handed to the model
    const address = { type: 'resource_link', uri: entry['uri'], name: 'listed' };
    const decision = await decideLinkLine(context.gate, { stage: 'link', server: from, readFrom: from, link: address });
    if (decision.effect === 'deny' && modeOf(context) === 'enforce') refused.add(entry['uri']);
    const kept = refusedAddressOf(decision, entry['uri']);
    if (kept !== null) deniedAddresses.push(kept);
    const discovered = discoverLink(link, null, linkContext(from, null), at);
    seen.push({ server: from, link, discovered, toolUseId: event.toolUseId });
  }
  const callId = event.toolUseId ?? randomUUID();
  await state.addSeen(callId, seen, overflow);
  const deniedForms = await state.addRefused(callId, deniedAddresses);
  let output = refused.size === 0 ? event.response : withoutEntries(event.response, refused);
  // what is left names no address refused before (enforce mode: nor one of this event's), as the decorator's listings
  const searchedFor = {
    ...refusedBefore,
    addresses: [...refusedBefore.addresses],
    forms: joinedForms(refusedBefore, deniedForms),
  };
  if (modeOf(context) === 'enforce') searchedFor.addresses.push(...deniedAddresses);
  const named = listingNamed(output, searchedFor, context.namingMode ?? modeOf(context), context);
  if (named.kind === 'withheld') return named.answer;
  if (named.kind === 'kept') output = named.output;
  if (refused.size === 0 && named.kind === 'unchanged') return { kind: 'none' };
  // a host that replaces a result by a reason alone (Codex, Gemini CLI) hands the model the kept listing in it
  const kept = typeof output === 'string' ? output : JSON.stringify(output);
  const count = `${refused.size} refused ${refused.size === 1 ? 'entry' : 'entries'}`;
  const naming =
    named.kind === 'kept'
      ? ` and ${named.left} naming an address refused earlier (other texts naming one withheld)`
      : '';
  return { kind: 'replace', output, reason: `linkgate left ${count}${naming} out of the listing: ${kept}` };
}

// the forms of the addresses refused before (as the state kept them) and of this event's (made as they were kept)
function joinedForms(before: RefusedAddressList, made: FormsByAddress): FormsByAddress {
  for (const [address, forms] of before.forms ?? []) made.set(address, forms);
  return made;
}

// a list tool's output in the host's shape (an array, `{resources}`, either as a JSON string) without `refused`
function withoutEntries(output: unknown, refused: ReadonlySet<unknown>): unknown {
  const value = parsedJson(output);
  const kept = (list: unknown[]) => list.filter((e) => !(isRecord(e) && refused.has(e['uri'])));
  const made = Array.isArray(value)
    ? kept(value)
    : isRecord(value) && Array.isArray(value['resources'])
      ? { ...value, resources: kept(value['resources']) }
      : value;
  return typeof output === 'string' ? JSON.stringify(made) : made;
}

/**
 * Keeps in the session's state that one event returned links of `overflow`'s servers it could not keep, under the
 * event's tool-use id (a later read of a uri it never kept is judged as a link of theirs).
 */
async function addOverflow(event: HookEvent, context: HookContext, overflow: ReadonlySet<string>): Promise<void> {
  const state = await openSessionState(context, event.session);
  await state.addSeen(event.toolUseId ?? randomUUID(), [], overflow);
}

/**
 * A link one of the hook's caps kept it from judging: recorded as refused by the cap's reason code with no read (a
 * would-deny in observe mode); returns what its notice (`capNotice`, which stands in its place) names it by.
 */
async function cappedSubject(
  event: HookEvent,
  link: Readonly<Record<string, unknown>>,
  index: number | null,
  tool: string,
  cap: HookCap,
  server: string,
  context: HookContext,
): Promise<NoticeSubject> {
  const discovered = discoverLink(link, index, linkContext(server, tool), nowOf(context));
  const input = { link, discovered, linkServer: server, readFrom: server, mode: modeOf(context) };
  const step = cappedLink(input, capDecision(context, cap));
  await save(
    context,
    { ...event, toolUseId: null },
    { ...step, discoveredBy: event.toolUseId },
    skipRead(step, cap.message),
  );
  const name = typeof link['name'] === 'string' ? link['name'] : null;
  return { name, uri: uriOf(link), ref: recordRef(discovered) };
}

/** The members of a link item the gate judges; everything else a server sent is dropped before it is kept. */
export function keptLink(item: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const link: Record<string, unknown> = { type: 'resource_link', uri: item['uri'], name: item['name'] };
  for (const key of ['title', 'description', 'mimeType', 'size'] as const)
    if (item[key] !== undefined) link[key] = item[key];
  return link;
}
