import { errorLine } from '../decision/error-line.ts';
import type { Decision } from '../decision/decision.ts';
import { decisionMetaKey } from '../flow/decision-meta.ts';
import { gateNotice, shownDecision, stepSubject } from '../flow/gate-notice.ts';
import { type LinkStep, linkRefused } from '../flow/link-steps.ts';
import { uriOf } from '../link/resource-link.ts';
import type { NextStep } from '../record/link-record.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';

/** The gate error's message for an answer or request the gate could not judge. */
export function couldNotJudge(error: unknown): string {
  return `linkgate could not judge the answer, so it passes on none of it: ${errorLine(error)}`;
}

/** JSON-RPC error code of an answer the gate made itself (denied, timed out); implementation-defined range. */
export const gateErrorCode = -32080;

/** An error answer the gate made for request `id` (code `gateErrorCode`), with `data` when given. */
export function gateError(id: JsonRpcId, message: string, data?: Record<string, unknown>): Record<string, unknown> {
  const error = data === undefined ? { code: gateErrorCode, message } : { code: gateErrorCode, message, data };
  return { jsonrpc: '2.0', id, error };
}

/** How the decorator answers a read it refused or could not finish: a JSON-RPC error (default), or a result holding the notice. */
export type RefusedReadAnswer = 'error' | 'notice';

/**
 * The answer to a read the gate refused or ended itself (`what` it did, e.g. `refused to read`) of `step`'s link,
 * worded by the flow's one notice: the link's name and scheme, the reason codes, the record ref, the policy and the
 * boundary to check next, never the uri. `error`: a -32080 error with
 * the decision under `data`; `notice`: a result whose one `contents` item is the notice as text, the decision under
 * `_meta`, for a consumer that reads many links at once and fails them all on one error (LangChain's artifact mode).
 */
export function readDenial(
  id: JsonRpcId,
  step: LinkStep,
  decision: Decision,
  what: string,
  next: NextStep | null,
  as: RefusedReadAnswer = 'error',
): Record<string, unknown> {
  const notice = gateNotice(what, stepSubject(step), decision, next);
  // the decision beside the notice quotes no uri either (an item's swapped-in uri, the link's host): the record does
  const shown = shownDecision(decision, stepSubject(step).uri);
  if (as === 'error') return gateError(id, notice, { [decisionMetaKey]: shown });
  // a link the policy refused was never handed on: the item carrying its notice has no address either
  const contents = [{ uri: linkRefused(step) ? '' : uriOf(step.link), mimeType: 'text/plain', text: notice }];
  return { jsonrpc: '2.0', id, result: { contents, _meta: { [decisionMetaKey]: shown } } };
}
