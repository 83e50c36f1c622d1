import type { Decision } from '../decision/decision.ts';
import { decisionMetaKey } from '../flow/decision-meta.ts';
import { gateNotice } from '../flow/gate-notice.ts';
import type { NextStep } from '../record/link-record.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';

/** JSON-RPC error code of an answer the gate made itself (denied, timed out); implementation-defined range. */
export const gateErrorCode = -32080;

/** An error answer the gate made for request `id` (code `gateErrorCode`), with `data` when given. */
export function gateError(id: JsonRpcId, message: string, data?: Record<string, unknown>): Record<string, unknown> {
  const error = data === undefined ? { code: gateErrorCode, message } : { code: gateErrorCode, message, data };
  return { jsonrpc: '2.0', id, error };
}

/**
 * The answer to a read the gate refused or ended itself (`what` it did, e.g. `refused to read`), worded by the flow's
 * one notice: the reason codes and messages, the policy and the boundary to check next; the decision under `data`.
 */
export function readDenial(
  id: JsonRpcId,
  uri: string,
  decision: Decision,
  what: string,
  next: NextStep | null,
): Record<string, unknown> {
  return gateError(id, gateNotice(what, uri, decision, next), { [decisionMetaKey]: decision });
}

/** The first line of an error's message, for an answer that must stay one line. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
