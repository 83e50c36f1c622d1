import { isRecord } from '../decision/json-value.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { applyStructured, judgeStructured } from '../flow/structured-links.ts';
import { type LinkStep, linkRefused } from '../flow/link-steps.ts';
import { messageBlocks, replaceMessageBlocks } from '../flow/message-blocks.ts';
import { gateError } from './gate-answers.ts';
import { namedNotice } from './refused-addresses.ts';
import type { TransportSession } from './transport-session.ts';

// The answers the gate has no judgement of their own for (a JSON-RPC error, a completion, a tool or prompt listing, a
// listing's cursor) still reach the host, and a host may show them to its model: a link or uri in an error's `data` is
// judged as one in `structuredContent` is, a completion value that is a refused uri is left out, and an answer that
// still names the address of a link refused earlier in the session is replaced by the gate's error (enforce mode).

/** Whether answer `m` to `method` needs `judgedPlainAnswer` before it goes on (enforce mode only). */
export function judgesPlainAnswer(s: TransportSession, m: Record<string, unknown>, method: string): boolean {
  return s.searchesRefused || (s.mode === 'enforce' && (m['error'] !== undefined || method === 'completion/complete'));
}

/** Answer `m` to `method` with the links of an error's data and a completion's values judged, as it may go on. */
export async function judgedPlainAnswer(
  s: TransportSession,
  m: Record<string, unknown>,
  method: string,
): Promise<Record<string, unknown>> {
  let judged = m;
  const error = m['error'];
  if (isRecord(error) && error['data'] !== undefined) {
    const data = await judgeStructured(s.gate, error['data'], { server: s.server, mode: s.mode });
    if (data.withheld || data.edits.length > 0)
      judged = { ...m, error: { ...error, data: applyStructured(error['data'], data) } };
  }
  const result = m['result'];
  if (method === 'completion/complete' && isRecord(result) && isRecord(result['completion'])) {
    const completion = result['completion'];
    const values = completion['values'];
    if (Array.isArray(values)) {
      const found = await judgeStructured(s.gate, values, { server: s.server, mode: s.mode });
      // a value the gate replaced (a refused uri) is left out: a notice is no value to complete with
      const refused = new Set(found.withheld ? [] : found.edits.map((e) => e.path[0]));
      if (found.withheld) judged = { ...m, result: { ...result, completion: { ...completion, values: [] } } };
      else if (refused.size > 0) {
        const kept = values.filter((_, i) => !refused.has(i));
        judged = { ...m, result: { ...result, completion: { ...completion, values: kept } } };
      }
    }
  }
  // an answer holding no text (a ping's `{}`) can name no address: it is never held behind a result's refusals
  if (!holdsText(judged['result']) && !holdsText(judged['error'])) return judged;
  // searched once every refusal noted before it is (a tool result in the same chunk refusing what it names)
  await s.noted.settled();
  if (!namesRefused(s, judged)) return judged;
  // a listing keeps what names no refused address: the string naming one replaced, an entry it names left out
  return s.refused.listingWithout(judged, method, namedNotice) ?? withheldNaming(m['id'] as JsonRpcId);
}

/** Whether `message` names the address of a link refused in this session (enforce mode). */
export function namesRefused(s: TransportSession, message: unknown): boolean {
  return s.mode === 'enforce' && s.refused.names(message);
}

/** The gate's answer to request `id` in place of an answer that names a refused link's address. */
export function withheldNaming(id: JsonRpcId): Record<string, unknown> {
  return gateError(id, 'linkgate withheld the answer: it names the address of a link the gate refused in this session');
}

/**
 * A tool result's answer as searched for refused addresses where the front end replaces its refused links itself (the
 * proxy): each `resource_link` its step refused (`steps`, by `content` index) without its `uri` (its own address, just
 * noted: the notice takes its place), every other item whole (an allowed link's name, title and description too).
 */
export function searchedToolResult(m: Record<string, unknown>, steps: ReadonlyMap<number, LinkStep>): unknown {
  const result = m['result'];
  if (!isRecord(result) || !Array.isArray(result['content'])) return m;
  const content = (result['content'] as unknown[]).map((item, i) => {
    const step = steps.get(i);
    return step !== undefined && linkRefused(step) ? withoutUri(item) : item;
  });
  return { ...m, result: { ...result, content } };
}

/**
 * A message holding `messages` at `path` (a prompt's result, a sampling request's params) as searched for refused
 * addresses where the front end replaces its refused links itself: each `resource_link` block its step refused
 * (`steps`, by the block) without its `uri`.
 */
export function searchedWithoutRefused(
  m: Record<string, unknown>,
  path: readonly ['result' | 'params', 'messages'],
  steps: ReadonlyMap<unknown, LinkStep>,
): unknown {
  const holder = m[path[0]];
  const messages = isRecord(holder) ? holder['messages'] : undefined;
  if (!isRecord(holder) || !Array.isArray(messages) || steps.size === 0) return m;
  const replaced = new Map<number, unknown>();
  for (const { block, position } of messageBlocks(messages)) {
    const step = steps.get(block);
    if (step !== undefined && linkRefused(step)) replaced.set(position, withoutUri(block));
  }
  const made = replaceMessageBlocks(messages, replaced);
  return made === null ? m : { ...m, [path[0]]: { ...holder, messages: made } };
}

function withoutUri(item: unknown): unknown {
  if (!isRecord(item)) return item;
  const { uri: _, ...rest } = item;
  return rest;
}

// whether `value` holds a string anywhere (a key of an object counts): only text can name an address
function holdsText(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') return true;
    if (Array.isArray(v)) stack.push(...(v as unknown[]));
    else if (isRecord(v)) {
      if (Object.keys(v).length > 0) return true;
    }
  }
  return false;
}
