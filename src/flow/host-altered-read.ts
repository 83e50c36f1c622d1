import type { Decision, ItemDecision } from '../decision/decision.ts';
import { reason } from '../decision/deny.ts';
import { isRecord } from '../decision/json-value.ts';
import { strongerEffect } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import { deliveredStage } from '../record/build-stages.ts';
import type { DroppedItem } from '../record/link-record.ts';
import { type AnswerTiming, finish, judgeRead, type LinkStep, type ReadJudgement } from './link-steps.ts';
import type { ReadBodyJudge } from './read-body-decision.ts';

/** What a host did to a read's items before the gate saw them; indices into the result's `contents`. */
export interface HostAlteration {
  /** items whose body the host cut (Codex's `…N chars truncated…`): their size cannot be checked against the caps */
  cut: ReadonlySet<number>;
  /** items whose body the host replaced by a placeholder (Gemini's `[Binary Data (…)]`): never delivered */
  replaced: ReadonlySet<number>;
  /** the host's own words for what it did, quoted in the reason */
  note: string;
}

/**
 * Judges a read the host altered before the gate saw it, never as the whole body. A cut item's size cannot be
 * verified, so it is taken as over the byte cap (`content.too-large`, rule `read.maxBytes`): the read is denied under
 * `overCap: deny`, the item dropped under `partial`, and the received stage says the body was cut (a cut body is
 * never `body-obtained`). A replaced item is recorded as not delivered, in observe mode too. `bodies`: the JSON
 * bodies' link judgement (`readBodyJudge`), as `judgeReadAnswer` passes it for a read no host altered.
 */
export async function judgeAlteredRead(
  gate: Gate,
  step: LinkStep,
  result: Readonly<Record<string, unknown>>,
  altered: HostAlteration,
  timing: AnswerTiming,
  bodies?: ReadBodyJudge,
): Promise<ReadJudgement> {
  const judging =
    altered.cut.size === 0
      ? gate
      : {
          ...gate,
          async decideReadDetailed(input: unknown) {
            const verdict = await gate.decideReadDetailed(input);
            return { ...verdict, decision: withCut(gate, verdict.decision, altered) };
          },
        };
  const judged = await judgeRead(judging, step, { result }, timing, bodies);
  const { requested, received } = judged.record.stages;
  if (!judged.complete || received === null) return judged;
  const deliver = judged.deliver.filter((index) => !altered.replaced.has(index));
  const dropped: DroppedItem[] = [...judged.dropped];
  for (const index of altered.replaced)
    if (index < judged.contents.length && !dropped.some((d) => d.index === index))
      dropped.push({ index, effect: 'deny', codes: codesOf(judged.decision, index) });
  dropped.sort((a, b) => a.index - b.index);
  const stage = altered.cut.size === 0 ? received : { ...received, truncated: true };
  const delivered = deliveredStage(stage, judged.contents, deliver, dropped, timing.now());
  const record = finish(step, { requested, received: stage, delivered }, judged.decision, { kind: 'complete' });
  return {
    ...judged,
    record,
    deliver,
    dropped,
    delivered: deliver.map((i) => judged.replaced?.get(i) ?? judged.contents[i]).filter(isRecord),
    delivery: deliver.length === 0 ? 'none' : deliver.length === judged.contents.length ? judged.delivery : 'some',
  };
}

/** `decision` with each cut item denied as over the cap, and the read denied (`overCap: deny`) or partial. */
function withCut(gate: Gate, decision: Decision, altered: HostAlteration): Decision {
  const { maxBytes, overCap } = gate.policy.document.read;
  const message = `the host cut the body before the gate saw it (${altered.note}): its size cannot be checked against the cap of ${maxBytes} bytes`;
  const cut = reason('content.too-large', 'read.maxBytes', 'content', message);
  const items: ItemDecision[] = (decision.items ?? []).filter((i) => !altered.cut.has(i.index));
  for (const index of altered.cut) {
    const before = decision.items?.find((i) => i.index === index);
    items.push({ index, effect: 'deny', reasons: [...(before?.reasons ?? []), cut] });
  }
  items.sort((a, b) => a.index - b.index);
  const effect = strongerEffect(decision.effect, overCap === 'partial' ? 'partial' : 'deny');
  return { ...decision, effect, reasons: [...decision.reasons, cut], items };
}

function codesOf(decision: Decision, index: number): string[] {
  const item = decision.items?.find((i) => i.index === index);
  return [...new Set((item?.reasons ?? []).map((r) => r.code))];
}
