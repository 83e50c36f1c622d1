import type { MessageExtraInfo } from './mcp-transport.ts';
import { RecordWithheldError } from '../record/record-error.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { couldNotJudge, gateError } from './gate-answers.ts';
import type { TransportSession } from './transport-session.ts';

/**
 * Passes on the message `judge` makes of answer `id`; when judging fails, the host's request gets the gate's error at
 * once (nothing unjudged is handed on) and the failure goes to `onerror`. The links a tool result held stay
 * remembered, so each still gets its record. `noted`: a noting of refusals that ends once the answer was passed on.
 */
export function answerJudged(
  s: TransportSession,
  id: JsonRpcId,
  judge: () => Promise<unknown>,
  extra?: MessageExtraInfo,
  noted?: () => void,
): void {
  const passOn = async () => {
    let judged: unknown;
    try {
      judged = await judge();
    } catch (error) {
      // a records failure that withholds was reported as it happened
      if (error instanceof RecordWithheldError) return s.deliver(gateError(id, error.message), extra);
      s.deliver(gateError(id, couldNotJudge(error)), extra);
      throw error;
    }
    s.deliver(judged, extra);
  };
  // a noting kept open until the answer was passed on (its caller notes what it decides meanwhile) ends then
  s.hold('answer', id, noted === undefined ? passOn : () => passOn().finally(noted));
}
