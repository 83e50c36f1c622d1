import type { Decision } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import { maskUri } from '../link/mask-uri.ts';
import { describeReasons } from '../record/judge-verdict.ts';
import { isRecord } from '../json-value.ts';
import { decisionMetaKey } from '../sdk/gate-transport.ts';
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
}

/**
 * An item judge over `gate` for links returned by `server`. When the policy resolves no names, link decisions depend
 * on the link item alone, so they are remembered by the item's exact JSON text (a tool called again returns the same
 * links) and taken synchronously.
 */
export function itemJudge(gate: Gate, server: string): ItemJudge {
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
      } else if (item['type'] === 'resource') {
        const decision = await gate.decideEmbedded(item['resource']);
        if (decision.effect === 'allow') continue;
        const withheld = withheldItem(item['resource'], decision);
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
  };

  async function judgePrompt(result: Readonly<Record<string, unknown>>): Promise<JudgedResult | null> {
    const messages = result['messages'];
    if (!Array.isArray(messages)) return null;
    let any = false;
    const judged: unknown[] = [];
    for (const message of messages) {
      if (!isRecord(message)) {
        judged.push(message);
        continue;
      }
      // a prompt message holds one content block (2025-06-18) or a list of them (later revisions)
      const content = message['content'];
      const list = Array.isArray(content) ? content : [content];
      const changed = await judgeItems(list, null);
      if (changed === null) {
        judged.push(message);
        continue;
      }
      any = true;
      const items = list.map((item: unknown, i) => changed.get(i)?.item ?? item);
      judged.push({ ...message, content: Array.isArray(content) ? items : items[0] });
    }
    return any ? { result: { ...result, messages: judged }, frame: null } : null;
  }
}

function withheldItem(resource: unknown, decision: Decision): Record<string, unknown> {
  const uri = isRecord(resource) && typeof resource['uri'] === 'string' ? resource['uri'] : '';
  const codes = [...new Set(decision.reasons.map((r) => r.code))].join(', ');
  return {
    type: 'text',
    text: `linkgate: embedded resource \`${maskUri(uri)}\` withheld (${codes}); check next: policy: ${decision.effect} by ${describeReasons(decision)}`,
    _meta: { [decisionMetaKey]: decision },
  };
}
