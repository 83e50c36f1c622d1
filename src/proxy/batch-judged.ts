import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import type { FrontMember } from '../sdk/gate-transport.ts';
import { editMessage } from '../sdk/message-edits.ts';
import { withheldNaming } from '../sdk/plain-answers.ts';
import { EditedLine } from './edited-line.ts';

/**
 * The answer `message`, a member of a server batch, as judged (`judging`: the proxy's edits, null for none) and as it
 * may go to the host: once every member of the batch was judged, the gate's error instead when what it hands on names
 * the address of a link the proxy refused in another member (the decorator searched it for the others' link
 * decisions before handing it on: `batch-refusals.ts`).
 * Its own refusals are noted as its judging ends, whether it ends in edits or fails.
 */
export async function batchJudged(
  member: FrontMember,
  judging: Promise<object | null>,
  message: Readonly<Record<string, unknown>>,
): Promise<object | null> {
  let changed: object | null;
  try {
    changed = await judging;
  } finally {
    member.judged();
  }
  await member.all();
  const handed =
    changed === null
      ? message
      : changed instanceof EditedLine
        ? editMessage(changed.from as Readonly<Record<string, unknown>>, changed.edits)
        : changed;
  return member.named(handed) ? withheldNaming(message['id'] as JsonRpcId) : changed;
}
