import type { Decision, Reason } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../decision/json-value.ts';
import { type EmbeddedRecord, embeddedRecord } from '../record/embedded-record.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { gateNotice, shownDecision } from './gate-notice.ts';
import { decideLinkLine, guardGate } from './guard-gate.ts';
import { type FlowMode, type LinkStep, linkRefused } from './link-steps.ts';
import { type MessageBlock, messageBlocks, replaceMessageBlocks } from './message-blocks.ts';
import { refusedLinkItem } from './refused-link.ts';
import { MessageLedger } from './message-ledger.ts';
import { recordRef } from './record-ref.ts';
import { uriOf } from '../link/resource-link.ts';
import { maskUri } from '../link/mask-uri.ts';
import { withJsonText } from './json-text-links.ts';
import { judgeResultValues } from './refused-beside.ts';
import type { RefusedRef } from './structured-links.ts';

/** What the flow decided about one embedded `resource` body (DESIGN §6): its decision, record, and notice when withheld. */
export interface EmbeddedJudgement {
  decision: Decision;
  record: EmbeddedRecord;
  /** true when the body must not reach the model: not allowed whole, in enforce mode */
  withheld: boolean;
  /** the one line that replaces a withheld body (null when it passes) */
  notice: string | null;
  /** the decision as the notice may show it (`shownDecision`): what stands under the notice item's `_meta` */
  shown: Decision;
}

/** The embedded resources of a list of content items, judged; `changed` holds the text item that replaces each withheld one. */
export interface ItemsJudgement {
  records: EmbeddedRecord[];
  /** replacement items by index in the list; empty when nothing is withheld */
  changed: Map<number, Record<string, unknown>>;
}

/**
 * Judges one embedded resource (the body a tool result, prompt or server request carries itself) with the read checks;
 * a body not allowed whole is withheld in enforce mode (observe mode records it and passes it). Never throws.
 */
export async function judgeEmbedded(
  gate: Gate,
  resource: unknown,
  contentIndex: number,
  mode: FlowMode,
): Promise<EmbeddedJudgement> {
  const uri = isRecord(resource) && typeof resource['uri'] === 'string' ? resource['uri'] : '';
  const [body, label] = await Promise.all([guardGate(gate).decideEmbedded(resource), labelDecision(gate, uri)]);
  const decision = withLabel(body, label);
  const record = embeddedRecord(contentIndex, resource, decision);
  const withheld = mode === 'enforce' && decision.effect !== 'allow';
  const notice = withheld
    ? gateNotice('withheld the embedded resource', { name: null, uri, ref: null }, decision, record.next)
    : null;
  return { decision, record, withheld, notice, shown: withheld ? shownDecision(decision, uri) : decision };
}

// The link decision's codes that make an embedded resource's uri a pointer the model may follow with a tool the gate
// does not cover (a shell, a web fetch): an internal or metadata address, credentials in it, a uri parsers read two
// ways. Any other refusal of the uri (its scheme, its origin, its server) is about reading it, and the body is here
// already: the uri is its label, and an ordinary `file://` or app embed passes.
const pointerCodes = /^(?:uri\.non-public-address|uri\.userinfo|uri\.parser-confusion|credential\..+|engine\.error)$/;

/** The reasons the link decision gives against an embedded resource's `uri` as a pointer (empty: it is a label only). */
async function labelDecision(gate: Gate, uri: string): Promise<Reason[]> {
  if (uri === '') return [];
  const link = { type: 'resource_link', uri, name: 'embedded resource' };
  // the server is no question here (its codes are no pointer's): a name the input check takes
  const decision = await decideLinkLine(gate, { stage: 'link', server: 'embedded', readFrom: 'embedded', link });
  return decision.effect === 'deny' ? decision.reasons.filter((r) => pointerCodes.test(r.code)) : [];
}

/** The body's decision, denied by the label's pointer reasons first when there are any. */
function withLabel(body: Decision, label: readonly Reason[]): Decision {
  if (label.length === 0) return body;
  const reasons = [...label, ...body.reasons];
  return { ...body, effect: 'deny', reasons, items: [{ index: 0, effect: 'deny', reasons }] };
}

/** The text item that stands where a withheld embedded resource was: the notice, the decision as it shows it under `_meta`. */
export function withheldItem(judged: EmbeddedJudgement): Record<string, unknown> {
  return { type: 'text', text: judged.notice ?? '', _meta: { [decisionMetaKey]: judged.shown } };
}

/**
 * Judges every embedded `resource` item of `items` (a tool result's `content[]`, or a prompt or sampling message's
 * content blocks), in order; links and other items are left to the caller.
 */
export async function judgeEmbeddedItems(
  gate: Gate,
  items: readonly unknown[],
  mode: FlowMode,
): Promise<ItemsJudgement> {
  const records: EmbeddedRecord[] = [];
  const changed = new Map<number, Record<string, unknown>>();
  // judged side by side (records stay in item order), so a gate that stays silent costs one deadline, not one per item
  const judging = items.map((item, index) =>
    isRecord(item) && item['type'] === 'resource' && isRecord(item['resource'])
      ? judgeEmbedded(gate, item['resource'], index, mode)
      : null,
  );
  for (const [index, pending] of judging.entries()) {
    if (pending === null) continue;
    const judged = await pending;
    records.push(judged.record);
    if (judged.withheld) changed.set(index, withheldItem(judged));
  }
  return { records, changed };
}

/**
 * The `resource_link` blocks of `messages` (a prompt result's, a sampling request's), each with its position among the
 * messages' blocks (`messageBlocks`: a record's `contentIndex`, so the same link at the same place of two messages
 * gets two records): a message holds one block or a list of them, and a `tool_result` block a list of its own.
 */
export function messageLinks(messages: unknown): { index: number; link: Record<string, unknown> }[] {
  const links: { index: number; link: Record<string, unknown> }[] = [];
  for (const { block, position } of messageBlocks(messages))
    if (isRecord(block) && block['type'] === 'resource_link') links.push({ index: position, link: block });
  return links;
}

/** A judged list of messages: the messages with withheld items replaced (null when none changed), and the records. */
export interface MessagesJudgement {
  messages: unknown[] | null;
  records: EmbeddedRecord[];
}

/** The front end's link step of each `resource_link` block of a list of messages, by the block. */
export type BlockSteps = ReadonlyMap<unknown, LinkStep>;

/**
 * Judges the blocks in `messages[].content` of a `prompts/get` result or a `sampling/createMessage` request (a message
 * holds one content block, 2025-06-18, or a list of them, later revisions): each embedded resource as a body, each
 * `resource_link` its link decision refuses (for links returned by `server`) replaced by the refused link's item in
 * enforce mode, and the blocks a `tool_result` block holds (2025-11-25 sampling) the same way. Records' `contentIndex`
 * is the block's position among the messages' blocks (`messageBlocks`). `steps`: the front end's link step of each
 * `resource_link` block (by the block), decided and recorded by it, or the promise of them (the bodies are judged
 * meanwhile: a silent gate costs one deadline for the whole list); its refused item names that record. A block with
 * none is decided here.
 */
export async function judgeMessages(
  gate: Gate,
  messages: unknown,
  mode: FlowMode,
  server = '',
  steps: BlockSteps | PromiseLike<BlockSteps> = new Map(),
): Promise<MessagesJudgement> {
  if (!Array.isArray(messages)) return { messages: null, records: [] };
  const blocks = messageBlocks(messages);
  // judged side by side, so a gate that stays silent costs one deadline, not one per link or block
  const judged = await Promise.all(blocks.map((b) => judgeBlock(gate, b, mode, server, steps)));
  // the blocks' JSON texts (a text block or embedded resource that is one JSON object or array, a JSON blob) judged
  // as a tool result's are: a link in them is a link the model is given, and a string beside a refused link that
  // names its address becomes its notice
  const refs = new Map<string, RefusedRef>();
  for (const { refused } of judged) if (refused !== null) refs.set(maskUri(uriOf(refused.link)), refused);
  const items = blocks.map((b) => b.block);
  const values = await judgeResultValues(gate, items, undefined, { server, mode, refs }, true);
  // each refused link's notice worded with every link the messages refused (a name spelling one's address is left out)
  const ledger = MessageLedger.of([...refs.values(), ...values.beyond.values()].map((r) => uriOf(r.link)));
  const records: EmbeddedRecord[] = [];
  const replacement = new Map<number, unknown>();
  for (const [i, one] of judged.entries()) {
    if (one.record !== null) records.push(one.record);
    const { refused } = one;
    const item = refused === null ? one.item : refusedLinkItem(refused.link, refused.decision, refused.ref, ledger);
    if (item !== null) replacement.set((blocks[i] as MessageBlock).position, item);
  }
  for (const edit of values.texts) {
    const position = (blocks[edit.index] as MessageBlock).position;
    if (!replacement.has(position)) replacement.set(position, withJsonText(items[edit.index], edit));
  }
  return { messages: replaceMessageBlocks(messages, replacement), records };
}

// one block of a list of messages: an embedded resource's record and the item that stands in its place (null: none),
// or the refused link it is (its notice is worded once every block is decided)
async function judgeBlock(
  gate: Gate,
  { block, position }: MessageBlock,
  mode: FlowMode,
  server: string,
  steps: BlockSteps | PromiseLike<BlockSteps>,
): Promise<{ record: EmbeddedRecord | null; item: Record<string, unknown> | null; refused: RefusedLink | null }> {
  const none = { record: null, item: null, refused: null };
  if (!isRecord(block)) return none;
  if (block['type'] === 'resource' && isRecord(block['resource'])) {
    const judged = await judgeEmbedded(gate, block['resource'], position, mode);
    return { ...none, record: judged.record, item: judged.withheld ? withheldItem(judged) : null };
  }
  if (block['type'] !== 'resource_link') return none;
  // the front end's step: its decision, and the record its notice names
  const step = (await steps).get(block);
  if (step !== undefined)
    return linkRefused(step)
      ? { ...none, refused: { link: block, decision: step.linkDecision, ref: recordRef(step.discovered) } }
      : none;
  if (mode !== 'enforce') return none;
  const decision = await decideLinkLine(gate, { stage: 'link', server, readFrom: server, link: block });
  return decision.effect === 'deny' ? { ...none, refused: { link: block, decision, ref: null } } : none;
}

// a link block refused: its decision and the ref of its record (null: none names it)
interface RefusedLink {
  link: Record<string, unknown>;
  decision: Decision;
  ref: string | null;
}
