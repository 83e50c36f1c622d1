import type { Decision } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import { maskUri } from '../link/mask-uri.ts';
import { describeReasons } from '../record/judge-verdict.ts';
import { isRecord } from '../json-value.ts';
import { decisionMetaKey } from '../sdk/gate-transport.ts';

/** Results whose content items the proxy judges: tool results and prompts (both may carry links and embedded resources). */
export type ItemResultMethod = 'tools/call' | 'prompts/get';

/**
 * Judges the content items of a `tools/call` or `prompts/get` result: each `resource_link` gets its link decision
 * under its `_meta`, each embedded `resource` is judged like a read and, unless allowed, replaced by a text item
 * naming the reasons. Returns the new result, or null when nothing in it needed a change (forward it as it came).
 */
export async function gateResultItems(
  gate: Gate,
  server: string,
  method: ItemResultMethod,
  result: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown> | null> {
  if (method === 'tools/call') {
    const content = result['content'];
    if (!Array.isArray(content)) return null;
    const items = await gateItems(gate, server, content);
    return items === null ? null : { ...result, content: items };
  }
  const messages = result['messages'];
  if (!Array.isArray(messages)) return null;
  let changed = false;
  const judged = await Promise.all(
    messages.map(async (message: unknown) => {
      if (!isRecord(message)) return message;
      const content = message['content'];
      // a prompt message holds one content block (2025-06-18) or a list of them (later revisions)
      const items = await gateItems(gate, server, Array.isArray(content) ? content : [content]);
      if (items === null) return message;
      changed = true;
      return { ...message, content: Array.isArray(content) ? items : items[0] };
    }),
  );
  return changed ? { ...result, messages: judged } : null;
}

async function gateItems(gate: Gate, server: string, items: readonly unknown[]): Promise<unknown[] | null> {
  let changed = false;
  const judged = await Promise.all(
    items.map(async (item) => {
      if (!isRecord(item)) return item;
      if (item['type'] === 'resource_link') {
        changed = true;
        const decision = await gate.decide({ stage: 'link', server, readFrom: server, link: item });
        const meta = isRecord(item['_meta']) ? item['_meta'] : {};
        return { ...item, _meta: { ...meta, [decisionMetaKey]: decision } };
      }
      if (item['type'] === 'resource') {
        const decision = await gate.decideEmbedded(item['resource']);
        if (decision.effect === 'allow') return item;
        changed = true;
        return withheldItem(item['resource'], decision);
      }
      return item;
    }),
  );
  return changed ? judged : null;
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
