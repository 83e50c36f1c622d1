import type { Decision, ItemDecision, Reason } from '../decision/decision.ts';
import type { DroppedItem } from '../record/link-record.ts';

// What judging a read's JSON bodies for links decided (`read-body-links.ts`), folded into the read's decision and
// delivery: kept apart from the judging itself, which reaches the notices, so the read steps depend on neither.

/** What judging a read's JSON bodies decided for one item: its judged form, or why it is withheld whole. */
export type ReadBodyItem =
  | { kind: 'replaced'; item: Record<string, unknown>; reasons: Reason[] }
  | { kind: 'withheld'; reasons: Reason[] };

/**
 * Judges the JSON bodies among `contents` at `deliver` for links returned by `server` (`judgeReadBodies`): by index,
 * each item that holds a refused link or is withheld whole.
 */
export type ReadBodyJudge = (
  contents: readonly unknown[],
  deliver: readonly number[],
  server: string,
) => Promise<ReadonlyMap<number, ReadBodyItem>>;

/**
 * `decision` (a read decision that delivers `deliver` of `count` items) with the bodies' judgement in it: each item
 * holding a refused link `partial` with the links' reasons, each withheld one `deny`, the read `partial` (or `deny`
 * when nothing is left to deliver).
 */
export function withBodyReasons(
  decision: Decision,
  count: number,
  bodies: ReadonlyMap<number, ReadBodyItem>,
): Decision {
  const byIndex = new Map((decision.items ?? []).map((i) => [i.index, i]));
  const items = Array.from({ length: count }, (_, index): ItemDecision => {
    const item = byIndex.get(index) ?? { index, effect: decision.effect, reasons: [] };
    const body = bodies.get(index);
    if (body === undefined) return item;
    return {
      index,
      effect: body.kind === 'withheld' ? 'deny' : 'partial',
      reasons: [...item.reasons, ...body.reasons],
    };
  });
  const reasons = [...decision.reasons];
  for (const [index, body] of [...bodies].sort(([a], [b]) => a - b))
    for (const r of body.reasons) reasons.push({ ...r, message: `item ${index}: ${r.message}` });
  const left = items.some((i) => i.effect === 'allow' || bodies.get(i.index)?.kind === 'replaced');
  return { ...decision, effect: left ? 'partial' : 'deny', reasons, items };
}

/** The delivery once the JSON bodies are judged: each withheld one dropped (`deny`, its codes), the others kept. */
export function withBodies(
  first: { deliver: number[]; dropped: DroppedItem[] },
  bodies: ReadonlyMap<number, ReadBodyItem>,
): { deliver: number[]; dropped: DroppedItem[] } {
  const deliver: number[] = [];
  const dropped = [...first.dropped];
  for (const index of first.deliver) {
    const body = bodies.get(index);
    if (body?.kind !== 'withheld') deliver.push(index);
    else dropped.push({ index, effect: 'deny', codes: [...new Set(body.reasons.map((r) => r.code))] });
  }
  dropped.sort((a, b) => a.index - b.index);
  return { deliver, dropped };
}
