import { isRecord } from '../decision/json-value.ts';

// The JSON-RPC 2.0 shape guards every front end uses (the decorator, the proxy, the flow's reader answers).

/** A JSON-RPC id as the wire carries it: a string or a finite number. */
export type JsonRpcId = string | number;

/**
 * What one JSON-RPC 2.0 message is by its shape alone. `invalid` is anything else: a `method` that is not a string,
 * an answer with both or neither of `result` and `error`, a bad id, a missing `"jsonrpc": "2.0"`. Its `id` is the
 * message's id when that one is valid (so the request it claims to answer can fail), else null.
 */
export type MessageShape =
  | { kind: 'request'; id: JsonRpcId; method: string }
  | { kind: 'notification'; method: string }
  | { kind: 'answer'; id: JsonRpcId; isError: boolean }
  | { kind: 'invalid'; id: JsonRpcId | null; why: string };

/** Whether `id` is a usable JSON-RPC id (a string, or a finite number: `1e400` parses to Infinity and is not). */
export function isJsonRpcId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** Whether `error` is a JSON-RPC error object: an integer `code` and a string `message` (`data` is anything). */
export function isJsonRpcError(error: unknown): error is { code: number; message: string; data?: unknown } {
  return isRecord(error) && Number.isInteger(error['code']) && typeof error['message'] === 'string';
}

// A message a front end parsed from bytes it keeps (the proxy's lines): the bytes (opaque here) and the message's
// shape, classified once as it was parsed, so no layer it passes through classifies it again. A symbol (no JSON text
// has one) and not enumerable (never serialized, never copied by a spread): only the object parsed carries it, and
// that object is never changed (an edit makes a new one).
const wire = Symbol('linkgate.wire');

interface WireFacts {
  readonly bytes: unknown;
  readonly shape: MessageShape;
}

/** Marks `message`, just parsed from `bytes` and never changed after, with those bytes and its shape; returns the shape. */
export function markWire(message: object, bytes: unknown): MessageShape {
  const shape = classify(message);
  Object.defineProperty(message, wire, { value: { bytes, shape } satisfies WireFacts });
  return shape;
}

/** The bytes `markWire` kept on `message`, or undefined. */
export function wireBytes(message: object): unknown {
  return (message as { [wire]?: WireFacts })[wire]?.bytes;
}

/** Classifies one parsed message (never a batch: its elements are classified one by one); a wire message's shape is the one it was read with. */
export function messageShape(message: unknown): MessageShape {
  if (message !== null && typeof message === 'object') {
    const known = (message as { [wire]?: WireFacts })[wire];
    if (known !== undefined) return known.shape;
  }
  return classify(message);
}

function classify(message: unknown): MessageShape {
  if (!isRecord(message)) return { kind: 'invalid', id: null, why: 'not a json object' };
  const id = isJsonRpcId(message['id']) ? message['id'] : null;
  const invalid = (why: string): MessageShape => ({ kind: 'invalid', id, why });
  if (message['jsonrpc'] !== '2.0') return invalid('`jsonrpc` is not `2.0`');
  const hasId = Object.hasOwn(message, 'id');
  const hasResult = Object.hasOwn(message, 'result');
  const hasError = Object.hasOwn(message, 'error');
  if (Object.hasOwn(message, 'method')) {
    const method = message['method'];
    if (typeof method !== 'string') return invalid('`method` is not a string');
    if (hasResult || hasError) return invalid('a request with `result` or `error`');
    const params = message['params'];
    if (params !== undefined && (params === null || typeof params !== 'object'))
      return invalid('`params` is not a structure');
    if (!hasId) return { kind: 'notification', method };
    if (id === null) return invalid(`\`${method}\` needs a string or number id`);
    return { kind: 'request', id, method };
  }
  if (hasResult && hasError) return invalid('an answer with both `result` and `error`');
  if (!hasResult && !hasError) return invalid('neither a request nor an answer');
  if (id === null) return invalid('an answer without a string or number id');
  if (hasError) {
    if (!isJsonRpcError(message['error']))
      return invalid('`error` is not an object with an integer `code` and a string `message`');
  }
  return { kind: 'answer', id, isError: hasError };
}
