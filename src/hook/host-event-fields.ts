import { GateError } from '../errors.ts';
import { isRecord } from '../decision/json-value.ts';
import { parseEventJson } from './event-budget.ts';

/** The event object of a hook's stdin, or a GateError naming what is wrong. */
export function eventObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    // the command held the event to `eventJsonCaps` as it read it (`readEvent`): parsed here without a second scan
    value = JSON.parse(text);
  } catch {
    throw new GateError('INPUT_INVALID', 'the hook event on stdin is not valid json');
  }
  if (!isRecord(value)) throw new GateError('INPUT_INVALID', 'the hook event on stdin is not a json object');
  return value;
}

/** A required non-empty string member; `path` names it in the error (`tool_input.uri`). */
export function requiredString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '')
    throw new GateError('INPUT_INVALID', `field \`${path}\` must be a non-empty string`);
  return value;
}

/** An optional string member: undefined when absent, an error when present and not a string. */
export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new GateError('INPUT_INVALID', `field \`${path}\` must be a string`);
  return value;
}

/** A required object member; `path` names it in the error. */
export function requiredObject(value: unknown, path: string): Record<string, unknown> {
  if (!isRecord(value)) throw new GateError('INPUT_INVALID', `field \`${path}\` must be an object`);
  return value;
}

/** A tool input that some hosts send as a JSON string (Cursor): parsed to an object, or an error naming `path`. */
export function toolInput(value: unknown, path: string): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return requiredObject(parseEventJson(value), path);
    } catch (error) {
      if (error instanceof GateError) throw error;
      throw new GateError('INPUT_INVALID', `field \`${path}\` is a string that is not json`);
    }
  }
  return requiredObject(value, path);
}

/** `duration_ms` when it is a finite number ≥ 0, else undefined. */
export function durationOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

/** Splits `mcp__<server>__<tool>` at the first `__` after the prefix; null for other names (src/hosts/). */
export { splitMcpToolName as mcpToolName } from '../hosts/mcp-tool-name.ts';
