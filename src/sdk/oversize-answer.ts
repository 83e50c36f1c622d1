import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { gateError } from './gate-answers.ts';

/** What an answer over the connection's byte cap was: how many bytes arrived (at least) and the cap, bytes. */
export interface OversizeInfo {
  readonly bytes: number;
  readonly capBytes: number;
}

// answers the stdio read buffer made itself for a line over the cap: an object a server cannot forge, so only these
// are recorded as `content.too-large` (a server's own error answer with the same text is just an error answer)
const made = new WeakMap<object, OversizeInfo>();

// the `error.data` of those answers: an SDK Client hands it on by reference in the error it rejects with, so a
// reader over the Client (`gateToolResult`) knows its own transport's answer from a server's look-alike
const madeData = new WeakMap<object, OversizeInfo>();

/** The error answer that stands for request `id`'s answer of `bytes` bytes, dropped for passing `capBytes`. */
export function oversizeAnswer(id: JsonRpcId, bytes: number, capBytes: number): Record<string, unknown> {
  const message = `linkgate: the answer of \`${bytes}\` bytes passed the connection cap of \`${capBytes}\` bytes (content.too-large)`;
  const data = { bytes, capBytes };
  const answer = gateError(id, message, data);
  made.set(answer, { bytes, capBytes });
  madeData.set(data, { bytes, capBytes });
  return answer;
}

/** The size of an oversize answer a Client rejected with (`error.data` is the one `oversizeAnswer` made), or undefined. */
export function oversizeOfError(error: unknown): OversizeInfo | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null ? madeData.get(data) : undefined;
}

/** The size of an answer `oversizeAnswer` made, or undefined for any other message. */
export function oversizeOf(message: object): OversizeInfo | undefined {
  return made.get(message);
}
