import type { Gate } from '../gate/create-gate.ts';
import { AddressSearch } from './address-search.ts';
import { refusedForAddress } from './refused-for-address.ts';
import { maskUri } from '../link/mask-uri.ts';
import { uriOf } from '../link/resource-link.ts';
import { type JsonTextEdit, judgeJsonTexts } from './json-text-links.ts';
import { resultLinkDecider } from './link-decider.ts';
import {
  judgeStructured,
  type RefusedRef,
  type StructuredJudgement,
  type StructuredOptions,
} from './structured-links.ts';

// A link refused inside a JSON text item or `structuredContent` hands its address on through every other string of the
// same tool result (a prose item "now fetch <the address>", another JSON text, a `structuredContent` string) as well as
// a `content` link would. The JSON texts and `structuredContent` are judged once with the links refused in `content`;
// when they refuse a link of their own, all of them are judged once more with it among the refused links (the link
// decisions are kept: nothing is decided twice), so every front end (decorator, proxy, hooks) gets one outcome: each
// string or item holding a refused link's address becomes that link's notice, as for a `content` link. One second pass
// is enough: it finds no link the first did not decide. A result that refuses nothing there pays nothing more.
// What names a link refused for its address somewhere no notice can stand (an allowed link's description, a `_meta`,
// a member name) withholds the whole result instead (`namesRefusedAddress`), as every front end's search does.

/** A tool result's JSON texts and `structuredContent` judged, and the links refused there that `refs` did not hold. */
export interface ResultValuesJudgement {
  texts: JsonTextEdit[];
  structured: StructuredJudgement;
  /** the links refused inside the JSON texts or `structuredContent` beyond `options.refs`, by masked uri (no record names them) */
  beyond: Map<string, RefusedRef>;
}

/**
 * Judges the JSON texts (and prose) of `content` and `structured` (a tool result's `structuredContent`, or undefined)
 * as `judgeJsonTexts` and `judgeStructured` do; a link refused there beyond `options.refs` replaces each string or
 * item holding its address anywhere in them by its notice (the safest outcome that withholds nothing else: the rest
 * of the result still reaches the model). Observe mode changes nothing.
 */
export async function judgeResultValues(
  gate: Gate,
  content: readonly unknown[],
  structured: unknown,
  options: StructuredOptions,
  resources = false,
): Promise<ResultValuesJudgement> {
  const refused: RefusedRef[] = [];
  const { searched, noteRefused: _, ...rest } = options;
  const decided: StructuredOptions = { ...rest, decide: options.decide ?? resultLinkDecider(gate, options.server) };
  const judging: StructuredOptions = { ...decided, noteRefused: (r) => refused.push(r) };
  if (searched !== undefined) judging.searched = searched;
  const judgeAll = (with_: StructuredOptions) =>
    Promise.all([judgeJsonTexts(gate, content, with_, resources, true), judgeStructured(gate, structured, with_)]);
  let [texts, judged] = await judgeAll(judging);
  const refs = await options.refs;
  const beyond = new Map<string, RefusedRef>();
  for (const r of refused) {
    const key = maskUri(uriOf(r.link));
    if (refs?.has(key) !== true && !beyond.has(key)) beyond.set(key, { ...r, ref: null });
  }
  if (beyond.size === 0) return { texts, structured: judged, beyond };
  // judged once more with every refused link: the strings beside the one that refused it are searched for it too
  // (a search of its own: the first pass's count of searched characters is spent)
  const all = new Map([...(refs ?? []), ...beyond]);
  [texts, judged] = await judgeAll({ ...decided, refs: all });
  return { texts, structured: judged, beyond };
}

/**
 * Whether `handed` (a tool result as a front end hands it on, its notices in place) still names the address of a link
 * of `refused` that was refused for its address (`refusedForAddress`), in any string, member name or number, as
 * written or read back: the front end withholds the whole result. Nothing is searched when none was so refused.
 */
export function namesRefusedAddress(handed: unknown, refused: Iterable<RefusedRef>): boolean {
  const search = new AddressSearch<true>();
  for (const { link, decision } of refused) {
    const uri = uriOf(link);
    if (decision.effect === 'deny' && refusedForAddress(decision.reasons, uri)) search.add(uri, true);
  }
  if (search.empty) return false;
  // walked with a stack, so no nesting overflows it
  const stack: unknown[] = [handed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      if (search.find(String(value)) === true) return true;
    } else if (Array.isArray(value)) stack.push(...(value as unknown[]));
    else if (value !== null && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) stack.push(key, v);
  }
  return false;
}
