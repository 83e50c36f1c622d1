import { messageLinks } from '../flow/judge-embedded.ts';
import { isJsonRpcId } from '../flow/json-rpc-shape.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { recordWithheldError } from '../record/record-error.ts';
import type { TransportSession } from './transport-session.ts';

/**
 * The links of a prompt's or a server request's `messages`, found as a tool result's are: remembered, each decided
 * once, recorded as discovered before the message goes on, and recorded again when read or, unread, at the close (so
 * each ends in a record, DESIGN §4c); each block's step, by the block.
 */
export async function messageLinkSteps(
  s: TransportSession,
  id: unknown,
  messages: unknown,
): Promise<Map<unknown, LinkStep>> {
  const links = messageLinks(messages);
  if (links.length === 0 || !isJsonRpcId(id)) return new Map();
  const foundAt = s.now();
  const { found, evicted } = s.found.remember(links, null, id, () => foundAt);
  if (evicted.length > 0) s.queue(() => s.recordUnread(evicted, 'the host did not read it before more links arrived'));
  const steps = await s.stepsOf(found);
  if (!(await s.emitDiscovered(found)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
  return new Map(found.map((f, i) => [f.link, steps[i] as LinkStep]));
}
