import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isRecord } from '../decision/json-value.ts';

// MCP 2026-07-28 over Streamable HTTP (SEP-2243): every request POST carries `MCP-Protocol-Version` and `Mcp-Method`,
// and `Mcp-Name` mirrors the body's `name` (tools/call, prompts/get), `uri` (resources/read) or `taskId` (tasks/*), so
// intermediaries can route without reading the body. The proxy writes them from the very body it judged and forwards,
// never from anything else: a header can never name another resource than the read the gate decided.

/** The `_meta` key of a request's protocol-version claim (the per-request envelope of MCP 2026-07-28). */
export const protocolVersionMetaKey = 'io.modelcontextprotocol/protocolVersion';

/** The standard request headers of MCP 2026-07-28, lowercase; `--header` may not set them. */
export const modernHeaderNames: readonly string[] = ['mcp-protocol-version', 'mcp-method', 'mcp-name'];

/** Which body field `Mcp-Name` mirrors, per method (the spec's `Required For` table). */
const nameSource: Readonly<Record<string, string>> = Object.freeze({
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});

/**
 * The standard headers for one JSON-RPC request body the proxy sends (a 2026-07-28 request: its params carry the
 * protocol-version claim), or null for anything else (2025 requests, notifications, answers, batches).
 */
export function modernRequestHeaders(message: unknown): Record<string, string> | null {
  if (!isRecord(message) || typeof message['method'] !== 'string' || message['id'] === undefined) return null;
  const params = message['params'];
  const meta = isRecord(params) ? params['_meta'] : undefined;
  const version = isRecord(meta) ? meta[protocolVersionMetaKey] : undefined;
  if (typeof version !== 'string') return null;
  const method = message['method'];
  const headers: Record<string, string> = {
    'mcp-protocol-version': headerValue(version),
    'mcp-method': headerValue(method),
  };
  const field = Object.hasOwn(nameSource, method) ? nameSource[method] : undefined;
  const name = field !== undefined && isRecord(params) ? params[field] : undefined;
  if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return headers;
}

/**
 * A fetch whose caller has read the request body already: `message` is that body parsed (one message or a batch),
 * null when it is not JSON or not a string, so no layer below parses it again.
 */
export type ParsedBodyFetch = (
  input: string | URL,
  init: RequestInit | undefined,
  message: unknown,
) => Promise<Response>;

/**
 * A fetch that parses each POST's body once, sets the standard 2026-07-28 headers of a request POST from it (replacing
 * any set before) and removes them from every other POST, and hands the parsed body to `fetchImpl`.
 */
export function modernHeadersFetch(fetchImpl: ParsedBodyFetch): FetchLike {
  return (input, init) => {
    if (init?.method !== 'POST' || typeof init.body !== 'string') return fetchImpl(input, init, null);
    const headers = new Headers(init.headers);
    for (const name of modernHeaderNames) headers.delete(name);
    let message: unknown;
    try {
      message = JSON.parse(init.body);
    } catch {
      message = null;
    }
    for (const [name, value] of Object.entries(modernRequestHeaders(message) ?? {})) headers.set(name, value);
    return fetchImpl(input, { ...init, headers }, message);
  };
}

const base64Prefix = '=?base64?';
const base64Suffix = '?=';

/**
 * A header value as the spec encodes it: plain when it is printable ASCII without surrounding white space (and does
 * not look encoded), otherwise `=?base64?…?=` of its UTF-8 bytes, so no value can break or add a header line.
 */
export function headerValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    !(value.startsWith(base64Prefix) && value.endsWith(base64Suffix)) &&
    /^[\t\x20-\x7e]*$/.test(value);
  return plain ? value : `${base64Prefix}${Buffer.from(value, 'utf8').toString('base64')}${base64Suffix}`;
}
