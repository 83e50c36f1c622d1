import { isRecord } from '../decision/json-value.ts';
import { judgeMessages } from '../flow/judge-embedded.ts';
import { recordWithheldError } from '../record/record-error.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { messageLinkSteps } from './message-link-steps.ts';
import type { TransportSession } from './transport-session.ts';

// An `input_required` answer (MCP 2026-07-28) may ask the host to run `sampling/createMessage` requests: their
// messages go to the host's model, so they are judged as a server's own sampling request is.

/** Whether an `input_required` answer asks the host to run a sampling request (its messages reach the host's model). */
export function asksSampling(result: unknown): boolean {
  const requests = isRecord(result) ? result['inputRequests'] : undefined;
  return (
    isRecord(requests) && Object.values(requests).some((r) => isRecord(r) && r['method'] === 'sampling/createMessage')
  );
}

/**
 * An `input_required` answer's sampling requests with their messages judged as a server's `sampling/createMessage`
 * request's are (a refused link becomes its notice, a withheld embedded body its notice), by every front end: the
 * proxy judges no `inputRequests` itself.
 */
export async function judgedSampling(
  s: TransportSession,
  result: Record<string, unknown>,
  id: JsonRpcId,
): Promise<Record<string, unknown>> {
  const requests = result['inputRequests'];
  if (!isRecord(requests)) return result;
  const judged: Record<string, unknown> = { ...requests };
  for (const [key, request] of Object.entries(requests)) {
    if (!isRecord(request) || request['method'] !== 'sampling/createMessage' || !isRecord(request['params'])) continue;
    const params = request['params'];
    // its links found and recorded as a tool result's are, each refused one's item naming its record
    // the embedded resources judged beside the links' steps: a silent gate costs one deadline
    const steps = messageLinkSteps(s, id, params['messages']);
    const [, made] = await Promise.all([steps, judgeMessages(s.gate, params['messages'], s.mode, s.server, steps)]);
    if (!(await s.emitEmbedded(made.records)) && s.withholdsOnRecordError) throw recordWithheldError(s.recordError);
    if (made.messages !== null) judged[key] = { ...request, params: { ...params, messages: made.messages } };
  }
  return { ...result, inputRequests: judged };
}
