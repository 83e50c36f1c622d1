import type { Decision } from '../decision/decision.ts';
import { decisionMetaKey } from '../flow/decision-meta.ts';
import { judgeEmbedded, withheldItem } from '../flow/judge-embedded.ts';
import { type MessageBlock, messageBlocks } from '../flow/message-blocks.ts';
import { guardGate } from '../flow/guard-gate.ts';
import { isJsonRpcId, type JsonRpcId } from '../flow/json-rpc-shape.ts';
import { recordRef } from '../flow/record-ref.ts';
import { refusedLinkItem } from '../flow/refused-link.ts';
import { MessageLedger } from '../flow/message-ledger.ts';
import { applyStructured, type RefusedRef } from '../flow/structured-links.ts';
import { judgeResultValues, namesRefusedAddress } from '../flow/refused-beside.ts';
import { withheldNaming } from '../sdk/plain-answers.ts';
import { type DecidedHere, type DecidedLink, type LinkDecider, resultLinkDecider } from '../flow/link-decider.ts';
import { maskUri } from '../link/mask-uri.ts';
import { uriOf } from '../link/resource-link.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../decision/json-value.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { editMessage, type JsonPath, type MessageEdit } from '../sdk/message-edits.ts';
import { maxDecidingLinks } from '../sdk/transport-session.ts';
import type { EarlyItems } from '../sdk/early-items.ts';

/** Results whose content items the proxy judges: tool results and prompts (both may carry links and embedded resources). */
export type ItemResultMethod = 'tools/call' | 'prompts/get';

/** Most items of one result judged here at once (links the decorator did not decide, embedded resources). */
export const maxResolvingLinks = maxDecidingLinks;

// most messages whose early judgements are kept before they are judged (more only when messages go unjudged)
const maxEarlyKept = 1024;

/** The link decision a `resource_link` item carries under its `_meta` (DESIGN §4e); the full decision is in the records. */
export type CompactDecision = { effect: 'allow' } | { effect: 'deny' | 'partial'; reasons: string[] };

const allowCompact: CompactDecision = Object.freeze({ effect: 'allow' });
const allowMeta = Object.freeze({ [decisionMetaKey]: allowCompact });

/** The compact form of `decision`: its effect, and for anything but `allow` its reason codes (each once). */
export function compactDecision(decision: Decision): CompactDecision {
  if (decision.effect === 'allow') return { effect: 'allow' };
  return { effect: decision.effect, reasons: [...new Set(decision.reasons.map((r) => r.code))] };
}

/**
 * Judges the content items of `tools/call` and `prompts/get` results for one server (enforce mode): each
 * `resource_link` its link decision denies is replaced by the flow's text item naming it (`refusedLinkItem`), every
 * other one gets its compact link decision under its `_meta`; each embedded `resource` is judged like a read and, unless allowed,
 * replaced by a text item naming the reasons.
 */
export interface ItemJudge {
  /**
   * The answer `message` with its items judged, made by the judge's `EditMaker` (so the proxy writes the original
   * bytes with only those items changed), or null when nothing needed a change (forward the answer as it came). `steps`: the
   * decorator's link step of each `resource_link` by its `content` index (decided once, recorded as discovered); a
   * link with none is decided here. `decided`: told of each link decided here, instead of the judge's `onDecided` (a
   * batch member's ledger, which notes it in the session too)
   */
  judge(
    method: ItemResultMethod,
    message: Readonly<Record<string, unknown>>,
    steps?: ReadonlyMap<number, LinkStep>,
    decided?: DecidedHere,
  ): Promise<object | null>;
  /** a server→host request (`sampling/createMessage`, …) with the embedded resources of its messages judged; null: unchanged */
  judgeRequest(message: Readonly<Record<string, unknown>>): Promise<object | null>;
  /**
   * what the decorator judged of the items of the answer (`answer`, the host's id) or server request (`request`, the
   * server's id) `id` before handing it on (its `onEarlyItems`): `judge` or `judgeRequest` of that message takes its
   * steps and awaits its embedded judgements instead of starting them again (one silent-gate deadline per message)
   */
  early: (kind: 'answer' | 'request', id: JsonRpcId, early: EarlyItems) => void;
}

/**
 * What a judged message is made of: `editMessage` (a new message value, the default), or for a front end that only
 * writes it as bytes, a value carrying the original and the edits (`EditedLine`).
 */
export type EditMaker = (message: Readonly<Record<string, unknown>>, edits: readonly MessageEdit[]) => object;

interface Found {
  path: JsonPath;
  item: Record<string, unknown>;
  /** the item's index in its list (a record's `contentIndex`) */
  index: number;
}

/**
 * An item judge over `gate` for links returned by `server`. A tool result's links come with the decorator's steps
 * (one decision per link, the one its records carry); any other link, and each embedded resource, is judged here,
 * up to `maxResolvingLinks` at once. The record of each embedded resource goes to `onEmbedded`; each link decided here
 * goes to `onDecided` (the session notes the refused ones).
 */
export function itemJudge(
  anyGate: Gate,
  server: string,
  onEmbedded: (record: EmbeddedRecord) => Promise<void> = async () => {},
  edited: EditMaker = editMessage,
  onDecided?: DecidedHere,
): ItemJudge {
  const gate = guardGate(anyGate);

  // a refused link is not handed on as a link (the flow's item, naming it and why: worded once every link of the
  // result is decided, `Refused`); any other link keeps its place, with its compact decision under its `_meta` (a
  // link with an object `_meta` of its own keeps it, the decision beside)
  const linkEdit = (
    { path, item, index }: Found,
    responseId: unknown,
    decision: Decision,
    refs: Map<string, RefusedRef>,
  ): MessageEdit | Refused => {
    if (decision.effect === 'deny') {
      // the ref of the record the decorator writes for this link (same server, response id, index and masked uri)
      const facts = { server, responseId: isJsonRpcId(responseId) ? responseId : null, contentIndex: index };
      const uri = maskUri(uriOf(item));
      const refused = { ref: recordRef({ ...facts, uri }), link: item, decision };
      refs.set(uri, refused);
      return { path, refused };
    }
    return keptLinkEdit(path, item, decision);
  };

  async function slowEdit(
    found: Found,
    responseId: unknown,
    refs: Map<string, RefusedRef>,
    decide: LinkDecider,
    embedded: EarlyItems['embedded'] | undefined,
  ): Promise<MessageEdit | Refused | null> {
    const { path, item, index } = found;
    if (item['type'] === 'resource_link') return linkEdit(found, responseId, await decide(item, false), refs);
    // the flow's step: the same decision, record and notice as every other front end (started by the decorator when
    // it handed the message on only once its links were decided)
    const judged = await (embedded?.get(index) ?? judgeEmbedded(gate, item['resource'], index, 'enforce'));
    await onEmbedded(judged.record);
    return judged.withheld ? { op: 'replace', path, value: withheldItem(judged) } : null;
  }

  // what the decorator handed over early, by the message's id, until the message is judged
  const earlyAnswers = new Map<JsonRpcId, EarlyItems>();
  const earlyRequests = new Map<JsonRpcId, EarlyItems>();
  const takeEarly = (kept: Map<JsonRpcId, EarlyItems>, id: unknown): EarlyItems | undefined => {
    if (!isJsonRpcId(id)) return undefined;
    const early = kept.get(id);
    kept.delete(id);
    return early;
  };

  return {
    judge: (method, message, steps, decided) => {
      const early = takeEarly(earlyAnswers, message['id']);
      if (method === 'prompts/get')
        return judgeFound(message, messageItems(message, 'result'), false, early?.steps, early?.embedded, decided);
      const decorated = steps ?? early?.steps;
      const quick = keptLinksOnly(message, decorated);
      if (quick !== undefined) return Promise.resolve(quick.length === 0 ? null : edited(message, quick));
      return judgeFound(message, toolItems(message), true, decorated, early?.embedded, decided);
    },
    judgeRequest: (message) => {
      const early = takeEarly(earlyRequests, message['id']);
      return judgeFound(message, messageItems(message, 'params'), false, early?.steps, early?.embedded);
    },
    early: (kind, id, early) => {
      const kept = kind === 'answer' ? earlyAnswers : earlyRequests;
      kept.set(id, early);
      // a message handed over and never judged (the host left) keeps no more than a bounded number
      if (kept.size > maxEarlyKept) kept.delete(kept.keys().next().value as JsonRpcId);
    },
  };

  async function judgeFound(
    message: Readonly<Record<string, unknown>>,
    found: Found[],
    structured = false,
    steps?: ReadonlyMap<number, LinkStep>,
    embedded?: EarlyItems['embedded'],
    decided: DecidedHere | undefined = onDecided,
  ): Promise<object | null> {
    const result = message['result'];
    const structuredContent = structured && isRecord(result) ? result['structuredContent'] : undefined;
    // a prompt's message blocks are judged as a tool result's items (their JSON texts too), by position
    const blocks = structured || !isRecord(result) ? null : messageBlocks(result['messages']);
    const toolContent = structured && isRecord(result) && Array.isArray(result['content']) ? result['content'] : [];
    const content = blocks === null ? toolContent : blocks.map((b) => b.block);
    const jsonTexts = content.some(isJsonText);
    if (found.length === 0 && structuredContent === undefined && !jsonTexts) return null;
    const refs = new Map<string, RefusedRef>();
    // links the decorator decided take its step, without a promise each; the rest (embedded resources, links of
    // prompts) run side by side
    const made: (MessageEdit | Refused | null)[] = [];
    const slow: number[] = [];
    const responseId = message['id'];
    // the result's one decider: the ledger's decisions of its `content` links are known to it, so the same link or
    // uri in `structuredContent` or a JSON text takes that decision, and any other link is decided once for all
    for (let i = 0; i < found.length; i += 1) {
      const f = found[i] as Found;
      const step = f.item['type'] === 'resource_link' ? steps?.get(f.index) : undefined;
      if (step === undefined) slow.push(i);
      else made[i] = linkEdit(f, responseId, step.linkDecision, refs);
    }
    // a result whose links the decorator decided and allowed, with no structured content and no JSON text, needs no
    // decider (prose is searched only for refused links): one pass over its links, nothing kept per link beyond its
    // edit
    const edits: MessageEdit[] = [];
    if (slow.length === 0 && refs.size === 0 && structuredContent === undefined && !jsonTexts) {
      for (const edit of made) if (edit != null && !('refused' in edit)) edits.push(edit);
      return edits.length === 0 ? null : edited(message, edits);
    }
    const known: DecidedLink[] = [];
    found.forEach((f, i) => {
      const step = made[i] === undefined ? undefined : steps?.get(f.index);
      if (step !== undefined) known.push({ link: f.item, decision: step.linkDecision });
    });
    const decide = resultLinkDecider(gate, server, known, decided);
    let next = 0;
    const worker = async () => {
      while (next < slow.length) {
        const at = slow[next] as number;
        next += 1;
        made[at] = await slowEdit(found[at] as Found, responseId, refs, decide, embedded);
      }
    };
    await Promise.all(Array.from({ length: Math.min(maxResolvingLinks, slow.length) }, worker));
    // the links and uris of `structuredContent` get the same replacement as those of `content`, and so do those of a
    // text item that is one JSON value (the 2.x server's text copy of `structuredContent`, say) (and of an embedded
    // resource's text, unless the resource is withheld whole); a link refused there, its address beside it too
    const values = await judgeResultValues(
      gate,
      content,
      structuredContent,
      { server, mode: 'enforce', refs, decide },
      true,
    );
    // each refused link's notice worded with every link the result refused (a name spelling one's address is left out)
    const refused = [...refs.values(), ...values.beyond.values()];
    const ledger = MessageLedger.of(refused.map((r) => uriOf(r.link)));
    for (const edit of made)
      if (edit != null)
        edits.push(
          'refused' in edit ? { op: 'replace', path: edit.path, value: refusedNotice(edit.refused, ledger) } : edit,
        );
    const judged = values.structured;
    const at = ['result', 'structuredContent'];
    if (judged.withheld) edits.push({ op: 'replace', path: at, value: applyStructured(structuredContent, judged) });
    else for (const e of judged.edits) edits.push({ op: 'replace', path: [...at, ...e.path], value: e.value });
    const replaced = new Set(found.filter((_, i) => made[i] != null).map((f) => f.index));
    for (const t of values.texts)
      if (!replaced.has(t.index))
        edits.push({
          op: 'replace',
          path: [...(blocks === null ? ['result', 'content', t.index] : textPath(blocks, t.index)), ...t.path],
          value: t.path.length === 0 ? { type: 'text', text: t.text } : t.text,
        });
    // an answer that still names an address it refused, where no notice stands for it, is withheld whole
    const answer = isRecord(result) && isJsonRpcId(responseId);
    if (answer && refused.length > 0 && namesRefusedAddress(editMessage(message, edits), refused))
      return withheldNaming(responseId);
    return edits.length === 0 ? null : edited(message, edits);
  }
}

// a link kept in place, with its compact decision under its `_meta` (beside the item's own object `_meta`, if any);
// an allowed link's values are shared (frozen): each is written once into the line, however many links it marks
function keptLinkEdit(path: JsonPath, item: Record<string, unknown>, decision: Decision): MessageEdit {
  const allowed = decision.effect === 'allow';
  const compact = allowed ? allowCompact : compactDecision(decision);
  return isRecord(item['_meta'])
    ? { op: 'set', path: [...path, '_meta'], key: decisionMetaKey, value: compact }
    : { op: 'set', path, key: '_meta', value: allowed ? allowMeta : { [decisionMetaKey]: compact } };
}

// the path of a tool result's `content`, shared (frozen) by the edits of its links (`setAt`)
const contentPath: JsonPath = Object.freeze(['result', 'content']);

// the path of a prompt's message block at `position`, from the top of the answer
const textPath = (blocks: readonly MessageBlock[], position: number): JsonPath => [
  'result',
  'messages',
  ...(blocks[position] as MessageBlock).path,
];

/**
 * The edits of a tool result whose items are all kept as they are but for their links' decisions: each link decided
 * by the decorator (`steps`, by `content` index) and none refused, no embedded resource, no `structuredContent`, no
 * JSON text. One pass over `content`, and nothing made per link but its edit; `judgeFound` would make the same edits.
 * undefined: the result is not such a one (the full judge).
 */
function keptLinksOnly(
  message: Readonly<Record<string, unknown>>,
  steps: ReadonlyMap<number, LinkStep> | undefined,
): MessageEdit[] | undefined {
  const result = message['result'];
  if (steps === undefined || !isRecord(result) || result['structuredContent'] !== undefined) return undefined;
  const content = result['content'];
  if (!Array.isArray(content)) return undefined;
  const edits: MessageEdit[] = [];
  for (let i = 0; i < content.length; i += 1) {
    const item: unknown = content[i];
    if (!isRecord(item)) continue;
    const type = item['type'];
    if (type === 'resource_link') {
      const step = steps.get(i);
      if (step === undefined || step.linkDecision.effect === 'deny') return undefined;
      edits.push(keptItemEdit(i, item, step.linkDecision));
    } else if ((type === 'resource' && isRecord(item['resource'])) || isJsonText(item)) return undefined;
  }
  return edits;
}

// `keptLinkEdit` of the link at `content[i]`: a link without an object `_meta` of its own is set at its index in the
// shared `content` path (no path array per link)
function keptItemEdit(i: number, item: Record<string, unknown>, decision: Decision): MessageEdit {
  if (isRecord(item['_meta'])) return keptLinkEdit(pathTo(contentPath, i), item, decision);
  const compact = decision.effect === 'allow' ? allowMeta : { [decisionMetaKey]: compactDecision(decision) };
  return { op: 'setAt', path: contentPath, index: i, key: '_meta', value: compact };
}

// a link refused in a result, at `path`: its item is worded once every link of the result is decided
interface Refused {
  readonly path: JsonPath;
  readonly refused: RefusedRef;
}

function refusedNotice({ link, decision, ref }: RefusedRef, ledger: MessageLedger): Record<string, unknown> {
  return refusedLinkItem(link, decision, ref, ledger);
}

// the links and embedded resources of a tool result, by path from the top of the answer
function toolItems(message: Readonly<Record<string, unknown>>): Found[] {
  const result = message['result'];
  const content = isRecord(result) ? result['content'] : undefined;
  return Array.isArray(content) ? judgedAt(content, ['result', 'content']) : [];
}

// the items of `messages[].content` under `key` (a prompt result's, a sampling request's params), each indexed by its
// position among the messages' blocks (`messageBlocks`), as the decorator's records are
function messageItems(message: Readonly<Record<string, unknown>>, key: 'result' | 'params'): Found[] {
  const holder = message[key];
  const found: Found[] = [];
  for (const { block, position, path } of messageBlocks(isRecord(holder) ? holder['messages'] : undefined))
    if (isJudged(block)) found.push({ path: [key, 'messages', ...path], item: block, index: position });
  return found;
}

function judgedAt(items: readonly unknown[], path: JsonPath): Found[] {
  const found: Found[] = [];
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    if (isJudged(item)) found.push({ path: pathTo(path, i), item, index: i });
  }
  return found;
}

// `path` and then `i`, in an array of its own length, copied slot by slot: a spread and push grows one to about twenty
// slots, and `concat` (which looks up whether each argument spreads) cost four times the copy, per item
function pathTo(path: JsonPath, i: number): JsonPath {
  const out = new Array<string | number>(path.length + 1);
  for (let k = 0; k < path.length; k += 1) out[k] = path[k] as string | number;
  out[path.length] = i;
  return out;
}

// a text item that may hold one JSON value (judged by `judgeJsonTexts`)
function isJsonText(item: unknown): boolean {
  if (!isRecord(item) || item['type'] !== 'text' || typeof item['text'] !== 'string') return false;
  const first = item['text'].trimStart()[0];
  return first === '{' || first === '[';
}

function isJudged(item: unknown): item is Record<string, unknown> {
  return (
    isRecord(item) && (item['type'] === 'resource_link' || (item['type'] === 'resource' && isRecord(item['resource'])))
  );
}
