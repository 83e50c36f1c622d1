import { isRecord } from '../decision/json-value.ts';
import { type EmbeddedJudgement, judgeEmbedded } from '../flow/judge-embedded.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { messageBlocks } from '../flow/message-blocks.ts';
import type { Gate } from '../gate/create-gate.ts';

// A front end that judges a message's items itself (the proxy) gets it from the decorator only once the decorator
// decided its links: the judgements of its embedded resources are started by the decorator as it takes the message,
// beside those decisions, and handed over with them, so a gate that stays silent costs one deadline per message, not
// one for the links and then one for the bodies.

/** What the decorator judged of a message's items before handing it on, by item index (a `content` index or a block's position). */
export interface EarlyItems {
  /** the link step of each `resource_link` (decided once, recorded as discovered) */
  readonly steps: ReadonlyMap<number, LinkStep>;
  /** the judgement of each embedded `resource`, started as the decorator took the message (enforce mode) */
  readonly embedded: ReadonlyMap<number, Promise<EmbeddedJudgement>>;
}

/** The judgements of the embedded resources of a tool result's `content`, started now, by index. */
export function contentEmbedded(gate: Gate, content: unknown): Map<number, Promise<EmbeddedJudgement>> {
  const started = new Map<number, Promise<EmbeddedJudgement>>();
  if (Array.isArray(content))
    content.forEach((item, i) => {
      if (isResource(item)) started.set(i, judgeEmbedded(gate, item['resource'], i, 'enforce'));
    });
  return started;
}

/** The judgements of the embedded resources among the blocks of `messages`, started now, by position. */
export function blocksEmbedded(gate: Gate, messages: unknown): Map<number, Promise<EmbeddedJudgement>> {
  const started = new Map<number, Promise<EmbeddedJudgement>>();
  for (const { block, position } of messageBlocks(messages))
    if (isResource(block)) started.set(position, judgeEmbedded(gate, block['resource'], position, 'enforce'));
  return started;
}

/** The steps of the `resource_link` blocks of `messages` (by the block) by their position. */
export function blockSteps(messages: unknown, steps: ReadonlyMap<unknown, LinkStep>): Map<number, LinkStep> {
  const byPosition = new Map<number, LinkStep>();
  if (steps.size === 0) return byPosition;
  for (const { block, position } of messageBlocks(messages)) {
    const step = steps.get(block);
    if (step !== undefined) byPosition.set(position, step);
  }
  return byPosition;
}

function isResource(item: unknown): item is Record<string, unknown> & { resource: Record<string, unknown> } {
  return isRecord(item) && item['type'] === 'resource' && isRecord(item['resource']);
}
