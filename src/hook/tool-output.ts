import { isRecord } from '../decision/json-value.ts';
import { GateError } from '../errors.ts';
import { parseEventJson } from './event-budget.ts';

/** A tool's output as the host gave it, unwrapped to a tool result, and how to wrap a changed result back. */
export interface ToolOutput {
  /** the output as an MCP tool result (`{content: [...]}`), or null when it holds none */
  result: Record<string, unknown> | null;
  /** the host's shape again, around a changed result */
  wrap(result: Record<string, unknown>): unknown;
}

/**
 * Unwraps a host's MCP tool output: a tool result object, a bare `content[]` array, or either of them serialized as a
 * JSON string (hosts differ, and Claude Code documents `string | content-block[]`). Anything else holds no result,
 * except a JSON string when `stringIsText` (the host hands its model a string output as it is): one that is no result,
 * or a result with members a result has not, is one text item, as every other string (its JSON judged whole).
 */
export function unwrapToolOutput(output: unknown, stringIsText = false): ToolOutput {
  if (typeof output === 'string') {
    // a string that is no JSON result is the text the model reads: one text item (Claude Code documents `string`)
    const asText = {
      result: { content: [{ type: 'text', text: output }] },
      wrap: (r: Record<string, unknown>) => r['content'],
    };
    let parsed: unknown;
    try {
      parsed = parseEventJson(output);
    } catch (error) {
      // JSON past the event's caps fails the event closed; only a string that is no JSON is text
      if (error instanceof GateError) throw error;
      return asText;
    }
    if (!Array.isArray(parsed) && !isRecord(parsed)) return asText;
    const inner = unwrapToolOutput(parsed);
    // the model reads every member of it: one the result's judgement would pass over is judged as the text's JSON
    if (stringIsText && (inner.result === null || !allJudged(inner.result))) return asText;
    return { result: inner.result, wrap: (result) => JSON.stringify(inner.wrap(result)) };
  }
  if (Array.isArray(output)) return { result: { content: output }, wrap: (result) => result['content'] };
  if (isRecord(output) && Array.isArray(output['content'])) return { result: output, wrap: (result) => result };
  return { result: null, wrap: () => output };
}

// the members of a tool result the hook judges (MCP `CallToolResult`); `isError` carries no text when it is a boolean
const judgedMembers: ReadonlySet<string> = new Set(['content', 'structuredContent', 'resultType']);

/** Whether the hook's judgement of a tool result covers each of its members (anything else may hold a link). */
function allJudged(result: Record<string, unknown>): boolean {
  return Object.entries(result).every(
    ([key, value]) => judgedMembers.has(key) || (key === 'isError' && typeof value === 'boolean'),
  );
}

/** The `contents` of a resource read tool's output (`{contents: [...]}`, possibly as a JSON string); null when absent. */
export function readContents(output: unknown): unknown[] | null {
  const value = parsedJson(output);
  return isRecord(value) && Array.isArray(value['contents']) ? value['contents'] : null;
}

/** The `resultType` a read tool's output carries beside its contents (absent: undefined, a complete result). */
export function readResultType(output: unknown): unknown {
  const value = parsedJson(output);
  return isRecord(value) ? value['resultType'] : undefined;
}

/** The `error` text a read tool's output carries beside its contents (Claude Code: the server's error); null when none. */
export function readError(output: unknown): string | null {
  const value = parsedJson(output);
  return isRecord(value) && typeof value['error'] === 'string' && value['error'] !== '' ? value['error'] : null;
}

/** Whether a read tool's failed output says the host refused the read itself (`refusedBy: "host"`), not the server. */
export function readRefusedByHost(output: unknown): boolean {
  const value = parsedJson(output);
  return isRecord(value) && value['refusedBy'] === 'host';
}

/** The entries of a resource list tool's output: an array, `{resources: [...]}`, or either as a JSON string. */
export function listedResources(output: unknown): Record<string, unknown>[] {
  const value = parsedJson(output);
  const list = Array.isArray(value)
    ? value
    : isRecord(value) && Array.isArray(value['resources'])
      ? value['resources']
      : [];
  return list.filter(isRecord);
}

/** A JSON string parsed, or the value itself; a string that is not JSON stays a string (hosts pass outputs both ways). */
export function parsedJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return parseEventJson(value);
  } catch (error) {
    // JSON past the event's caps fails the event closed; only a string that is no JSON stays a string
    if (error instanceof GateError) throw error;
    return value;
  }
}
