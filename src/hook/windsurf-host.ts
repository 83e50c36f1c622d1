import { isRecord } from '../decision/json-value.ts';
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

/** Deepest nesting of a call's arguments searched for url arguments; a deeper input fails closed. */
const maxArgumentDepth = 16;

/**
 * The urls of a call's url arguments, at any depth (a batch fetch's `requests: [{url}]`, a `request: {uri}`: a tool's
 * schema nests them as its author wrote it); a url argument that is no string (or list of strings), or arguments
 * nested deeper than `maxArgumentDepth`, fail closed.
 */
function fetchedUrls(args: Record<string, unknown>): string[] {
  const urls: string[] = [];
  const walk = (value: unknown, path: string, depth: number): void => {
    if (depth > maxArgumentDepth)
      throw new GateError('INPUT_INVALID', `field \`${path}\` nests deeper than ${maxArgumentDepth} levels`);
    if (Array.isArray(value)) value.forEach((item: unknown, i) => walk(item, `${path}[${i}]`, depth + 1));
    else if (isRecord(value))
      for (const [key, inner] of Object.entries(value)) {
        const at = `${path}.${key}`;
        // a url argument by any case of its name (`URL`, `Uri`)
        if (fetchedUrlArguments.includes(key.toLowerCase())) urlArgument(inner, at, urls);
        else walk(inner, at, depth + 1);
      }
  };
  walk(args, `tool_info.${windsurfToolInfo.args}`, 0);
  return urls;
}

// the urls of one url argument at `path`: a string, or a list of strings; anything else fails closed
function urlArgument(value: unknown, path: string, urls: string[]): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string') urls.push(value);
  else if (Array.isArray(value))
    value.forEach((item: unknown, i) => {
      if (typeof item !== 'string') throw new GateError('INPUT_INVALID', `field \`${path}[${i}]\` must be a string`);
      urls.push(item);
    });
  else throw new GateError('INPUT_INVALID', `field \`${path}\` must be a string or an array of strings`);
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
