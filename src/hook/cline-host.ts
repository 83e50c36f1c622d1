import { isRecord } from '../decision/json-value.ts';
import { GateError } from '../errors.ts';
import { cline, clineEventMembers, clineHookNames } from '../hosts/cline.ts';
import { toolResponse } from './codex-host.ts';
import type { HookCall, HookEvent } from './hook-event.ts';
import type { HostAdapter } from './host-adapter.ts';
import { durationOf, optionalString, requiredString } from './host-event-fields.ts';
import { parsedJson } from './tool-output.ts';

// Cline 3.x (observed with cline@3.0.65, test/real-host/observed/cline/; written by `createHookConfigFileHooks`,
// sdk/packages/core/src/hooks/hook-file-hooks.ts): `{hookName: "tool_call", taskId, tool_call: {id, name, input},
// preToolUse: {toolName, parameters}}` before a tool runs and `{hookName: "tool_result", taskId, tool_result: {id,
// name, input, output, error?, durationMs}, postToolUse: {toolName, parameters, result, success, executionTimeMs}}`
// after it; the VS Code extension's hooks-adapter.ts sends only `preToolUse`/`postToolUse` (`hookName: "PreToolUse"`,
// parameters as strings, `result` as `String(output)`). MCP tools are `<server>__<tool>` (name-transform.ts); the
// model reads an MCP result as the JSON of `{content: [...]}`.

// a parameter the VS Code extension sends as a string holding JSON (`toStringRecord`), or the value itself
function value(input: Record<string, unknown>, key: string): unknown {
  const raw = input[key];
  return typeof raw === 'string' ? (parsedJson(raw) ?? raw) : raw;
}

/** The urls a `fetch_web_content {requests: [{url, prompt}]}` call fetches (schemas.ts `FetchWebContentInputSchema`). */
function fetchedUrls(input: Record<string, unknown>): string[] {
  const requests = value(input, 'requests');
  if (!Array.isArray(requests))
    throw new GateError('INPUT_INVALID', `field \`requests\` of \`${cline.tools.webFetch ?? ''}\` must be an array`);
  return requests.map((request: unknown, i) =>
    requiredString(isRecord(request) ? request['url'] : undefined, `requests[${i}].url`),
  );
}

function call(name: string, input: Record<string, unknown>): HookCall {
  // Cline's VS Code extension before the SDK migration: AccessMcpResourceHandler.ts / UseMcpToolHandler.ts
  if (name === cline.tools.read)
    return {
      kind: 'read',
      server: requiredString(input['server_name'], 'parameters.server_name'),
      uri: requiredString(input['uri'], 'parameters.uri'),
    };
  if (name === 'use_mcp_tool')
    return {
      kind: 'mcp',
      server: requiredString(input['server_name'], 'parameters.server_name'),
      tool: requiredString(input['tool_name'], 'parameters.tool_name'),
    };
  if (name === cline.tools.webFetch) return { kind: 'web-fetch', urls: fetchedUrls(input) };
  const mcp = cline.tools.mcpParts(name);
  return mcp === null ? { kind: 'other', name } : { kind: 'mcp', ...mcp };
}

// the SDK's own member (`tool_call`, `tool_result`), else the file-style one (`preToolUse`, `postToolUse`)
function parts(event: Record<string, unknown>, pre: boolean) {
  const members = clineEventMembers[pre ? 'pre' : 'post'];
  const own = event[members.own];
  const file = event[members.file];
  if (isRecord(own)) {
    const input = isRecord(own['input']) ? own['input'] : {};
    return {
      name: requiredString(own['name'], `${members.own}.name`),
      input,
      id: optionalString(own['id'], `${members.own}.id`) ?? null,
      output: own['output'],
      failed: typeof own['error'] === 'string' ? own['error'] : undefined,
      duration: durationOf(own['durationMs']),
    };
  }
  if (!isRecord(file)) throw new GateError('INPUT_INVALID', `field \`${members.file}\` must be an object`);
  const parameters = isRecord(file['parameters']) ? file['parameters'] : {};
  return {
    name: requiredString(file['toolName'], 'toolName'),
    input: parameters,
    id: null,
    output: parsedJson(file['result']),
    failed: file['success'] === false ? (typeof file['result'] === 'string' ? file['result'] : '') : undefined,
    duration: durationOf(file['executionTimeMs']),
  };
}

// a failed MCP call's result: its error text as a text item, after the items of its output when it has any
function failedResult(output: unknown, error: string): Record<string, unknown> {
  const items: unknown[] = isRecord(output) && Array.isArray(output['content']) ? (output['content'] as unknown[]) : [];
  return { content: [...items, { type: 'text', text: error }] };
}

// Cline cannot change a tool's input or result from a hook: `cancel: true` stops the whole task (agent-runtime.ts
// `applyStopControl` throws before the tool runs, or, after it, before its result becomes a message), with
// `errorMessage` as the task's error; an answer that is not JSON, or none, lets the call go ahead
const cancel = (reason: string) => JSON.stringify({ cancel: true, errorMessage: reason });

/**
 * Cline: a deny before the call and any withholding after it are `cancel: true` (the task stops; the model never
 * receives the result); allow is no answer. A hook that fails answers `cancel: true` too, since Cline reads no exit code.
 */
export const clineHost: HostAdapter = {
  parse(event) {
    const phase = clineHookNames[requiredString(event['hookName'], 'hookName')];
    if (phase === undefined) return null;
    const session = requiredString(event['taskId'], 'taskId');
    const part = parts(event, phase === 'pre');
    const called = call(part.name, part.input);
    // a failed MCP call is judged as a result: its error is the server's text, which Cline hands the model (and a
    // withholding answer stops the task before it does)
    const failedMcp = part.failed !== undefined && called.kind === 'mcp';
    const parsed: HookEvent = {
      session,
      phase: part.failed !== undefined && phase === 'post' && !failedMcp ? 'failure' : phase,
      toolUseId: part.id,
      call: called,
      // Cline saves no bodies to files for the model
      savedDir: null,
    };
    if (parsed.phase === 'post')
      parsed.response = failedMcp
        ? failedResult(toolResponse(part.output), part.failed ?? '')
        : parsed.call.kind === 'mcp'
          ? toolResponse(part.output)
          : part.output;
    if (parsed.phase === 'failure') parsed.response = part.failed;
    if (part.duration !== undefined) parsed.durationMs = part.duration;
    return parsed;
  },
  format(answer) {
    if (answer.kind === 'deny' || answer.kind === 'replace') return cancel(answer.reason);
    return '';
  },
  failed: (failure) => cancel(`linkgate hook failed: ${failure}`),
};
