import { isRecord } from '../decision/json-value.ts';
import { judgeMessages, messageLinks } from '../flow/judge-embedded.ts';
import { isJsonRpcId } from '../flow/json-rpc-shape.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { recordWithheldError } from '../record/record-error.ts';
import type { TransportSession } from './transport-session.ts';

/**
 * The links of a prompt's or a server request's `messages`, found as a tool result's are: remembered, each decided
 * once, each refused one noted as refused (from the call on, before its first wait), recorded as discovered before the
 * message goes on, and recorded again when read or, unread, at the close (so each ends in a record, DESIGN §4c); each
 * block's step, by the block.
 */
export async function messageLinkSteps(
  s: TransportSession,
  id: unknown,
  messages: unknown,
): Promise<Map<unknown, LinkStep>> {
  const links = messageLinks(messages);
  if (links.length === 0 || !isJsonRpcId(id)) return new Map();
  const noted = s.noted.start();
  try {
    const foundAt = s.now();
    const { found, evicted } = s.found.remember(links, null, id, () => foundAt);
    if (evicted.length > 0)
      s.queue(() => s.recordUnread(evicted, 'the host did not read it before more links arrived'));
    const steps = await s.stepsOf(found);
    s.refused.note(steps);
    noted();
    if (!(await s.emitDiscovered(found)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
    return new Map(found.map((f, i) => [f.link, steps[i] as LinkStep]));
  } finally {
    noted();
  }
}

/** A message whose `key` (`result` of `prompts/get`, `params` of a server request) holds `messages`, judged the same way. */
export async function judgedMessages(s: TransportSession, message: Record<string, unknown>, key: 'result' | 'params') {
  const holder = message[key];
  if (!isRecord(holder)) return message;
  // the links' steps and the embedded resources judged side by side: a silent gate costs one deadline
  const steps = messageLinkSteps(s, message['id'], holder['messages']);
  const [, judged] = await Promise.all([steps, judgeMessages(s.gate, holder['messages'], s.mode, s.server, steps)]);
  if (!(await s.emitEmbedded(judged.records)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
  return judged.messages === null ? message : { ...message, [key]: { ...holder, messages: judged.messages } };
}
