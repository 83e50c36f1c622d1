import { isRecord } from '../decision/json-value.ts';
import { knownNonCustomSchemes } from '../link/known-schemes.ts';
import type { Gate } from '../gate/create-gate.ts';
import { maskUri } from '../link/mask-uri.ts';
import { guardGate } from './guard-gate.ts';
import type { FlowMode } from './link-steps.ts';
import { refusedLinkItem, refusedLinkNotice } from './refused-link.ts';

// A tool result's `structuredContent` reaches the model too (Codex gives it instead of `content` when present, and
// an SDK client hands it to the caller), so a link refused in `content` must not survive there: every `resource_link`
// object and every uri string in it is judged as a link, and in enforce mode a refused one is replaced the same way
// (the object by the flow's text item, the string by the notice). Uris are strings that are one: `scheme://…` with no
// white space, or any string in a scheme that is never custom (`file:`, `javascript:`, …). Prose is data, as in text.

/** Most values of one `structuredContent` walked, and its deepest nesting; past either it is withheld whole. */
export const structuredLimits = { maxValues: 100_000, maxDepth: 64 } as const;

/** One replacement in a `structuredContent`: the value at `path` (from `structuredContent` itself) becomes `value`. */
export interface StructuredEdit {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
}

/** What judging a `structuredContent` changed: its replacements, or `withheld` (the whole value) when it was past a limit. */
export type StructuredJudgement = { withheld: false; edits: StructuredEdit[] } | { withheld: true; notice: string };

interface Found {
  path: (string | number)[];
  link: Record<string, unknown>;
  /** a uri string (replaced by the notice), not a link object (replaced by the text item) */
  bare: boolean;
}

/**
 * Judges the links and uris of a tool result's `structuredContent` for links returned by `server`; `refs` gives the
 * record ref of a uri that also stood in `content` (its record's, so the notice names it; awaited once this value's
 * own decisions are made). Observe mode changes nothing.
 */
export async function judgeStructured(
  gate: Gate,
  structured: unknown,
  options: {
    server: string;
    mode: FlowMode;
    refs?: ReadonlyMap<string, string> | Promise<ReadonlyMap<string, string>>;
  },
): Promise<StructuredJudgement> {
  if (options.mode === 'observe' || structured === undefined) return { withheld: false, edits: [] };
  const found: Found[] = [];
  if (!walk(structured, [], 0, found, { values: 0 })) {
    const notice = `linkgate withheld the structured content: past ${structuredLimits.maxValues} values or ${structuredLimits.maxDepth} levels`;
    return { withheld: true, notice };
  }
  const guarded = guardGate(gate);
  const { server } = options;
  const decisions = await Promise.all(
    found.map((f) => guarded.decide({ stage: 'link', server, readFrom: server, link: f.link })),
  );
  // the refs may come from the content's link decisions, made side by side with these
  const refs = await options.refs;
  const edits: StructuredEdit[] = [];
  found.forEach((f, i) => {
    const decision = decisions[i];
    if (decision === undefined || decision.effect !== 'deny') return;
    const uri = typeof f.link['uri'] === 'string' ? f.link['uri'] : '';
    const ref = refs?.get(maskUri(uri)) ?? null;
    const value = f.bare ? refusedLinkNotice(f.link, decision, ref) : refusedLinkItem(f.link, decision, ref);
    edits.push({ path: f.path, value });
  });
  return { withheld: false, edits };
}

/** `structured` with `judged` applied (a copy; the original is not changed), or the withheld notice's object. */
export function applyStructured(structured: unknown, judged: StructuredJudgement): unknown {
  if (judged.withheld) return { withheld: judged.notice };
  if (judged.edits.length === 0) return structured;
  const copy: unknown = structuredClone(structured);
  for (const edit of judged.edits) {
    if (edit.path.length === 0) return edit.value;
    let parent = copy as Record<string | number, unknown>;
    for (const step of edit.path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    parent[edit.path.at(-1) as string | number] = edit.value;
  }
  return copy;
}

// false when past a limit
function walk(
  value: unknown,
  path: (string | number)[],
  depth: number,
  found: Found[],
  count: { values: number },
): boolean {
  count.values += 1;
  if (count.values > structuredLimits.maxValues || depth > structuredLimits.maxDepth) return false;
  if (typeof value === 'string') {
    if (isUriString(value)) {
      const name = path.length === 0 ? 'structuredContent' : `structuredContent.${path.join('.')}`;
      found.push({ path, link: { type: 'resource_link', uri: value, name }, bare: true });
    }
    return true;
  }
  if (Array.isArray(value)) {
    const list: unknown[] = value;
    return list.every((v, i) => walk(v, [...path, i], depth + 1, found, count));
  }
  if (!isRecord(value)) return true;
  // a link object is judged whole (its uri, name, declared type and size), not walked into
  if (value['type'] === 'resource_link') {
    found.push({ path, link: value, bare: false });
    return true;
  }
  return Object.entries(value).every(([k, v]) => walk(v, [...path, k], depth + 1, found, count));
}

function isUriString(text: string): boolean {
  const scheme = /^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return false;
  if (knownNonCustomSchemes.has(scheme)) return true;
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S*$/.test(text.trim());
}
