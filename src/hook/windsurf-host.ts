import { GateError } from '../errors.ts';
import { eventPhase } from '../hosts/hook-setup.ts';
import { fetchedUrlArguments, windsurf, windsurfToolInfo } from '../hosts/windsurf.ts';
import type { HookCall, HookEvent } from './hook-event.ts';
import type { HostAdapter } from './host-adapter.ts';
import { requiredObject, requiredString, toolInput } from './host-event-fields.ts';

// Windsurf's `pre_mcp_tool_use` event (docs.windsurf.com/windsurf/cascade/hooks, src/hosts/windsurf.ts):
// `{agent_action_name, trajectory_id, execution_id, timestamp, tool_info: {mcp_server_name, mcp_tool_name,
// mcp_tool_arguments}}`. Cascade reads no resources, so the calls the gate judges before they run are MCP tool calls
// given a url to fetch or read (`fetchedUrlArguments`): each url gets the link rules, as a host's own web fetch does.

/** The urls of a call's top-level url arguments; a url argument that is no string (or list of strings) fails closed. */
function fetchedUrls(args: Record<string, unknown>): string[] {
  const urls: string[] = [];
  // a url argument by any case of its name (`URL`, `Uri`): a tool's schema names it as its author wrote it
  for (const [key, value] of Object.entries(args)) {
    if (!fetchedUrlArguments.includes(key.toLowerCase())) continue;
    if (value === undefined || value === null) continue;
    const path = `tool_info.${windsurfToolInfo.args}.${key}`;
    if (typeof value === 'string') urls.push(value);
    else if (Array.isArray(value))
      value.forEach((item: unknown, i) => {
        if (typeof item !== 'string') throw new GateError('INPUT_INVALID', `field \`${path}[${i}]\` must be a string`);
        urls.push(item);
      });
    else throw new GateError('INPUT_INVALID', `field \`${path}\` must be a string or an array of strings`);
  }
  return urls;
}

function call(info: Record<string, unknown>): HookCall {
  const server = requiredString(info[windsurfToolInfo.server], `tool_info.${windsurfToolInfo.server}`);
  const tool = requiredString(info[windsurfToolInfo.tool], `tool_info.${windsurfToolInfo.tool}`);
  const raw = info[windsurfToolInfo.args];
  const args = raw === undefined || raw === null ? {} : toolInput(raw, `tool_info.${windsurfToolInfo.args}`);
  const urls = fetchedUrls(args);
  if (urls.length === 0) return { kind: 'mcp', server, tool };
  return { kind: 'web-fetch', urls, tool: windsurf.tools.mcpTool(server, tool) };
}

/**
 * Windsurf: a refused call is exit code 2 with the reason on stderr, which blocks it and is shown to the agent (the
 * hook prints nothing on stdout: Windsurf reads no answer there). Any failure of the hook exits 2 as well.
 */
export const windsurfHost: HostAdapter = {
  answersByExit: true,
  parse(event) {
    const phase = eventPhase(windsurf, requiredString(event['agent_action_name'], 'agent_action_name'));
    if (phase === undefined) return null;
    const parsed: HookEvent = {
      session: requiredString(event['trajectory_id'], 'trajectory_id'),
      phase,
      // `execution_id` names the agent's turn, not the call: no id pairs events (there is no post event to pair)
      toolUseId: null,
      call: call(requiredObject(event['tool_info'], 'tool_info')),
      savedDir: null,
    };
    return parsed;
  },
  format(answer) {
    return answer.kind === 'deny' ? answer.reason : '';
  },
};
