import type { Decision } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../decision/json-value.ts';
import { type EmbeddedRecord, embeddedRecord } from '../record/embedded-record.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { gateNotice } from './gate-notice.ts';
import { guardGate } from './guard-gate.ts';
import type { FlowMode } from './link-steps.ts';

/** What the flow decided about one embedded `resource` body (DESIGN §6): its decision, record, and notice when withheld. */
export interface EmbeddedJudgement {
  decision: Decision;
  record: EmbeddedRecord;
  /** true when the body must not reach the model: not allowed whole, in enforce mode */
  withheld: boolean;
  /** the one line that replaces a withheld body (null when it passes) */
  notice: string | null;
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
  const decision = await guardGate(gate).decideEmbedded(resource);
  const record = embeddedRecord(contentIndex, resource, decision);
  const withheld = mode === 'enforce' && decision.effect !== 'allow';
  const uri = isRecord(resource) && typeof resource['uri'] === 'string' ? resource['uri'] : '';
  const notice = withheld
    ? gateNotice('withheld the embedded resource', { name: null, uri, ref: null }, decision, record.next)
    : null;
  return { decision, record, withheld, notice };
}

/** The text item that stands where a withheld embedded resource was: the notice, with the decision under `_meta`. */
export function withheldItem(judged: EmbeddedJudgement): Record<string, unknown> {
  return { type: 'text', text: judged.notice ?? '', _meta: { [decisionMetaKey]: judged.decision } };
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

/** A judged list of messages: the messages with withheld items replaced (null when none changed), and the records. */
export interface MessagesJudgement {
  messages: unknown[] | null;
  records: EmbeddedRecord[];
}

/**
 * Judges the embedded resources in `messages[].content` of a `prompts/get` result or a `sampling/createMessage` request
 * (a message holds one content block, 2025-06-18, or a list of them, later revisions). Records' `contentIndex` is the
 * block's index within its message.
 */
export async function judgeMessages(gate: Gate, messages: unknown, mode: FlowMode): Promise<MessagesJudgement> {
  if (!Array.isArray(messages)) return { messages: null, records: [] };
  const records: EmbeddedRecord[] = [];
  let any = false;
  const judged: unknown[] = [];
  for (const message of messages) {
    if (!isRecord(message)) {
      judged.push(message);
      continue;
    }
    const content = message['content'];
    const list: unknown[] = Array.isArray(content) ? content : [content];
    const items = await judgeEmbeddedItems(gate, list, mode);
    records.push(...items.records);
    if (items.changed.size === 0) {
      judged.push(message);
      continue;
    }
    any = true;
    const replaced = list.map((item, i) => items.changed.get(i) ?? item);
    judged.push({ ...message, content: Array.isArray(content) ? replaced : replaced[0] });
  }
  return { messages: any ? judged : null, records };
}
