import { isRecord } from '../decision/json-value.ts';
import { cursor } from '../hosts/cursor.ts';
import { eventPhase } from '../hosts/hook-setup.ts';
import { claudeShapedCall } from './claude-code-host.ts';
import type { HookCall, HookEvent } from './hook-event.ts';
import type { HostAdapter } from './host-adapter.ts';
import { requiredString, toolInput } from './host-event-fields.ts';

// Cursor names MCP tools `MCP:<server>:<tool>` in its generic tool events; its MCP events carry the bare tool name
// (src/hosts/cursor.ts)
function call(event: Record<string, unknown>): HookCall {
  const name = requiredString(event['tool_name'], 'tool_name');
  const mcp = cursor.tools.mcpParts(name);
  if (mcp !== null) return { kind: 'mcp', ...mcp };
  const input = event['tool_input'] === undefined ? undefined : toolInput(event['tool_input'], 'tool_input');
  const parsed = claudeShapedCall(name, input);
  const hook = event['hook_event_name'];
  if (parsed.kind === 'other' && typeof hook === 'string' && Object.hasOwn(cursor.events, hook)) {
    // the MCP events name the server by how it is reached (`url` or `command`), not by an id: one label per server
    const server =
      typeof event['url'] === 'string' ? event['url'] : typeof event['command'] === 'string' ? event['command'] : 'mcp';
    return { kind: 'mcp', server, tool: name };
  }
  return parsed;
}

function response(event: Record<string, unknown>): unknown {
  for (const key of ['result_json', 'tool_output', 'tool_result', 'tool_response']) {
    if (event[key] !== undefined) return event[key];
  }
  return undefined;
}

/**
 * Cursor (hooks.json, `version: 1`): `permission: "deny"` with a message for the user and one for the agent;
 * `updated_mcp_tool_output` replaces an MCP tool's result. Field names come from secondary sources (no official page
 * read); Cursor also runs Claude Code's hooks, where `linkgate hook claude-code` applies.
 */
export const cursorHost: HostAdapter = {
  parse(event) {
    const phase = eventPhase(cursor, requiredString(event['hook_event_name'], 'hook_event_name'));
    if (phase === undefined) return null;
    const session = requiredString(event['conversation_id'], 'conversation_id');
    const generation = event['generation_id'];
    const parsed: HookEvent = {
      session,
      phase,
      toolUseId: typeof event['tool_use_id'] === 'string' ? event['tool_use_id'] : null,
      call: call(event),
      savedDir: null,
    };
    if (parsed.toolUseId === null && typeof generation === 'string' && parsed.call.kind === 'read') {
      parsed.toolUseId = `${generation}\n${parsed.call.server}\n${parsed.call.uri}`;
    }
    if (phase === 'post') parsed.response = response(event);
    if (phase === 'failure' && isRecord(event) && typeof event['error_message'] === 'string') {
      parsed.response = event['error_message'];
    }
    return parsed;
  },
  format(answer) {
    if (answer.kind === 'deny') {
      return JSON.stringify({ permission: 'deny', user_message: answer.reason, agent_message: answer.reason });
    }
    if (answer.kind === 'replace') return JSON.stringify({ updated_mcp_tool_output: answer.output });
    return '';
  },
};
