// What kind of answer a resources/read produced, before any item is looked at (DESIGN §4: result may be a JSON-RPC error).

/** JSON-RPC codes a read may end with, and what they mean for a link. */
export const rpcErrorNames: Readonly<Record<number, string>> = Object.freeze({
  [-32602]: 'invalid params',
  [-32002]: 'resource not found (legacy code)',
  [-32601]: 'method not found',
  [-32603]: 'internal error',
  [-32600]: 'invalid request',
  [-32700]: 'parse error',
});

/** The envelope of a read result: a JSON-RPC error, a non-final or unknown result type, or a final result with its raw `contents`. */
export type ResultOutcome =
  | { kind: 'error'; code: number | null; notFound: boolean }
  | { kind: 'input-required' }
  | { kind: 'task'; contents: unknown }
  | { kind: 'unknown-type'; resultType: string }
  | { kind: 'complete'; contents: unknown };

/** Classifies an untrusted result record; `resultType` absent means `complete` (servers on 2025-11-25). Never throws. */
export function classifyResult(result: Readonly<Record<string, unknown>>): ResultOutcome {
  if (Object.hasOwn(result, 'error')) {
    const error = result['error'];
    const code = error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
    return {
      kind: 'error',
      code: typeof code === 'number' && Number.isSafeInteger(code) ? code : null,
      notFound: isNotFoundError(error),
    };
  }
  const resultType = Object.hasOwn(result, 'resultType') ? result['resultType'] : undefined;
  const contents = Object.hasOwn(result, 'contents') ? result['contents'] : undefined;
  if (resultType === undefined || resultType === 'complete') return { kind: 'complete', contents };
  if (resultType === 'input_required') return { kind: 'input-required' };
  if (resultType === 'task') return { kind: 'task', contents };
  return {
    kind: 'unknown-type',
    resultType: typeof resultType === 'string' ? resultType : describeNonString(resultType),
  };
}

// a non-string result type is named by its JSON type: serializing a server's object could be deep enough
// to overflow the stack, and only its first characters would be quoted anyway
function describeNonString(value: unknown): string {
  if (Array.isArray(value)) return '(an array)';
  if (value !== null && typeof value === 'object') return '(an object)';
  return String(value);
}

/**
 * Whether a read's JSON-RPC error says the resource does not exist: `-32002` (the code before MCP 2026-07-28), or
 * `-32602` naming the uri in `data.uri` (the resource-not-found error of 2026-07-28; other `-32602`s are bad params).
 */
export function isNotFoundError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, data } = error as { code?: unknown; data?: unknown };
  if (code === -32002) return true;
  return (
    code === -32602 && data !== null && typeof data === 'object' && typeof (data as { uri?: unknown }).uri === 'string'
  );
}

/** One-line description of a JSON-RPC error code for reason messages; `notFound` from `isNotFoundError`. */
export function describeRpcError(code: number | null, notFound = false): string {
  if (code === null) return 'the server answered with a json-rpc error without a valid code';
  const name = notFound && code === -32602 ? 'resource not found' : rpcErrorNames[code];
  return `the server answered with json-rpc error \`${code}\`${name === undefined ? '' : ` (${name})`}`;
}
