import type { Decision } from '../decision/decision.ts';
import { decisionMetaKey } from '../flow/decision-meta.ts';
import { reasonCodesOf } from '../flow/gate-notice.ts';
import { maskUri } from '../link/mask-uri.ts';
import type { NextStep } from '../record/link-record.ts';
import type { JsonRpcId } from './json-rpc-shape.ts';

/** JSON-RPC error code of an answer the gate made itself (denied, timed out); implementation-defined range. */
export const gateErrorCode = -32080;

/** An error answer the gate made for request `id` (code `gateErrorCode`), with `data` when given. */
export function gateError(id: JsonRpcId, message: string, data?: Record<string, unknown>): Record<string, unknown> {
  const error = data === undefined ? { code: gateErrorCode, message } : { code: gateErrorCode, message, data };
  return { jsonrpc: '2.0', id, error };
}

/** The answer to a read the gate refused or ended itself, naming the reason codes and the boundary to check next. */
export function readDenial(
  id: JsonRpcId,
  uri: string,
  decision: Decision,
  what: string,
  next: NextStep | null,
): Record<string, unknown> {
  return gateError(id, denialMessage(uri, decision, what, next), { [decisionMetaKey]: decision });
}

/** The message of a read the gate answered itself: masked uri, what happened, the reason codes and the next boundary. */
export function denialMessage(uri: string, decision: Decision, what: string, next: NextStep | null): string {
  const codes = reasonCodesOf(decision).join(', ');
  const why = codes === '' ? '' : ` (${codes})`;
  const then = next === null ? '' : `; check next: ${next.boundary}: ${next.hint}`;
  return `linkgate: read of \`${maskUri(uri)}\` ${what}${why}${then}`;
}

/** The first line of an error's message, for an answer that must stay one line. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
