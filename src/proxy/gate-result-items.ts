import type { Decision } from '../decision/decision.ts';
import { decisionMetaKey } from '../flow/decision-meta.ts';
import { judgeEmbedded, judgeMessages, withheldItem } from '../flow/judge-embedded.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import { isRecord } from '../json-value.ts';
import { applyEdits, arrayAt, type ElementEdit } from './json-spans.ts';

/** Results whose content items the proxy judges: tool results and prompts (both may carry links and embedded resources). */
export type ItemResultMethod = 'tools/call' | 'prompts/get';

/** Most link decisions an item judge remembers (by the link item's exact JSON text); the oldest goes first. */
export const maxRememberedDecisions = 4096;

/** A judged result: the new value, and when it could be made from the original text, that text with the edits in. */
export interface JudgedResult {
  result: Record<string, unknown>;
  /** the whole message line (newline included) with only the judged items changed; null: serialize `result` */
  frame: string | null;
}

/**
 * Judges the content items of `tools/call` and `prompts/get` results for one server: each `resource_link` gets its
 * link decision under its `_meta`, each embedded `resource` is judged like a read and, unless allowed, replaced by a
 * text item naming the reasons. Returns null when nothing needed a change (forward the result as it came).
 */
export interface ItemJudge {
  judge(
    method: ItemResultMethod,
    result: Readonly<Record<string, unknown>>,
    /** the message's original line, when known: a tool result's items are then spliced into it, not re-serialized */
    originalText: string | null,
  ): Promise<JudgedResult | null>;
  /** the params of a server→host request (`sampling/createMessage`, …) with withheld embedded resources replaced; null: unchanged */
  judgeRequest(params: Readonly<Record<string, unknown>>): Promise<Record<string, unknown> | null>;
}

/**
 * An item judge over `gate` for links returned by `server`; the record of each embedded resource goes to `onEmbedded`.
 * When the policy resolves no names, link decisions depend on the link item alone, so they are remembered by the item's
 * exact JSON text (a tool called again returns the same links) and taken synchronously.
 */
export function itemJudge(
  gate: Gate,
  server: string,
  onEmbedded: (record: EmbeddedRecord) => Promise<void> = async () => {},
): ItemJudge {
  const byText = gate.policy.document.links.resolveNames === true ? null : new Map<string, Decision>();
  const decisionJson = new WeakMap<Decision, string>();
  const metaMember = (decision: Decision) => {
    let json = decisionJson.get(decision);
    if (json === undefined) {
      json = `"_meta":${JSON.stringify({ [decisionMetaKey]: decision })}`;
      decisionJson.set(decision, json);
    }
    return json;
  };
  const linkInput = (link: unknown) => ({ stage: 'link', server, readFrom: server, link });
  // synchronous unless names are resolved: a result with hundreds of links costs no promise per link
  function decideLink(item: Record<string, unknown>, text: string | null): Decision | Promise<Decision> {
    if (byText === null) return gate.decide(linkInput(item));
    if (text === null) return gate.decideLink(linkInput(item));
    const known = byText.get(text);
    if (known !== undefined) return known;
    const decision = gate.decideLink(linkInput(item));
    byText.set(text, decision);
    if (byText.size > maxRememberedDecisions) byText.delete(byText.keys().next().value as string);
    return decision;
  }

  // the judged form of each item that changes, by index; null when none does
  async function judgeItems(
    items: readonly unknown[],
    texts: readonly string[] | null,
  ): Promise<Map<number, { item: Record<string, unknown>; edit: ElementEdit | null }> | null> {
    const changed = new Map<number, { item: Record<string, unknown>; edit: ElementEdit | null }>();
    for (const [index, item] of items.entries()) {
      if (!isRecord(item)) continue;
      if (item['type'] === 'resource_link') {
        const decided = decideLink(item, texts?.[index] ?? null);
        const decision = decided instanceof Promise ? await decided : decided;
        const meta = isRecord(item['_meta']) ? item['_meta'] : null;
        // an item with `_meta` of its own is rebuilt (its member has to be merged, not added)
        const edit = meta === null && !Object.hasOwn(item, '_meta') ? { addMember: metaMember(decision) } : null;
        changed.set(index, { item: { ...item, _meta: { ...meta, [decisionMetaKey]: decision } }, edit });
      } else if (item['type'] === 'resource' && isRecord(item['resource'])) {
        // the flow's step: the same decision, record and notice as every other front end
        const judged = await judgeEmbedded(gate, item['resource'], index, 'enforce');
        await onEmbedded(judged.record);
        if (!judged.withheld) continue;
        const withheld = withheldItem(judged);
        changed.set(index, { item: withheld, edit: { replace: JSON.stringify(withheld) } });
      }
    }
    return changed.size === 0 ? null : changed;
  }

  return {
    async judge(method, result, originalText) {
      if (method === 'prompts/get') return judgePrompt(result);
      const content = result['content'];
      if (!Array.isArray(content)) return null;
      const spans = originalText === null ? null : arrayAt(originalText, ['result', 'content']);
      const usable = spans !== null && spans.length === content.length ? spans : null;
      const texts = usable === null ? null : usable.map((s) => (originalText as string).slice(s.start, s.end));
      const changed = await judgeItems(content, texts);
      if (changed === null) return null;
      const items = content.map((item: unknown, i) => changed.get(i)?.item ?? item);
      const judged = { ...result, content: items };
      const edits = new Map<number, ElementEdit>();
      for (const [i, c] of changed) if (c.edit !== null) edits.set(i, c.edit);
      const frame =
        usable === null || edits.size !== changed.size ? null : applyEdits(originalText as string, usable, edits);
      return { result: judged, frame };
    },
    async judgeRequest(params) {
      const judged = await judgeMessages(gate, params['messages'], 'enforce');
      for (const record of judged.records) await onEmbedded(record);
      return judged.messages === null ? null : { ...params, messages: judged.messages };
    },
  };

  async function judgePrompt(result: Readonly<Record<string, unknown>>): Promise<JudgedResult | null> {
    const judged = await judgeMessages(gate, result['messages'], 'enforce');
    for (const record of judged.records) await onEmbedded(record);
    return judged.messages === null ? null : { result: { ...result, messages: judged.messages }, frame: null };
  }
}
