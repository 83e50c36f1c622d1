// What round 13's hook cases share: the events of the hosts earlier rounds tried least (Cline's SDK and file-style
// post events, Cursor's MCP events, Windsurf's and Copilot CLI's pre events, as src/hook's adapters read them), a read
// of `uri` through each read-capable host's hook, and a session that refused the metadata link first.
import {
  codexReadReturned,
  codexToolReturned,
  geminiReadReturned,
  readRequested,
  readReturned,
  toolReturned,
} from '../hook/hook-events.ts';
import type { HookScratch } from '../hook/hook-args.ts';
import { geminiToolReturned } from './round10-hosts.ts';
import { link, metadata } from './scripted-host.ts';

type Json = Record<string, unknown>;

/** An ordinary document the default policy allows. */
export const doc = 'https://docs.example/a.txt';

/** Cline SDK's `tool_result` of the MCP tool `fx__links` (`error`: the call failed with that text). */
export const clineResult = (output: unknown, error?: string, id = 'toolu_1', name = 'fx__links', input: Json = {}) => ({
  hookName: 'tool_result',
  taskId: 'conv_1',
  tool_result: { id, name, input, output, ...(error === undefined ? {} : { error }), durationMs: 5 },
});

/** Cline's VS Code extension's `PostToolUse` of `fx__links`: its result as `String(output)`. */
export const clineFileResult = (result: string, success: boolean) => ({
  hookName: 'PostToolUse',
  taskId: 'conv_1',
  postToolUse: { toolName: 'fx__links', parameters: {}, result, success, executionTimeMs: 5 },
});

/** Cursor's `afterMCPExecution` of the tool `links`, its result as the JSON text `result_json`. */
export const cursorResult = (result: unknown) => ({
  hook_event_name: 'afterMCPExecution',
  conversation_id: 'cur1',
  generation_id: 'gen1',
  tool_name: 'links',
  tool_input: '{}',
  command: 'node server.js',
  result_json: JSON.stringify(result),
});

/** Windsurf's `pre_mcp_tool_use` of `fetch/fetch` with `args`. */
export const windsurfCall = (args: Json) => ({
  agent_action_name: 'pre_mcp_tool_use',
  trajectory_id: 'traj1',
  execution_id: 'exec1',
  timestamp: '2026-12-07T07:00:00Z',
  tool_info: { mcp_server_name: 'fetch', mcp_tool_name: 'fetch', mcp_tool_arguments: args },
});

/** Copilot CLI's `preToolUse` of `web_fetch {url}`. */
export const copilotFetch = (url: string) => ({
  sessionId: 'cop1',
  timestamp: 1765090800000,
  cwd: '/tmp',
  toolName: 'web_fetch',
  toolArgs: { url },
});

/** Each read-capable host: its tool result refusing the metadata link beside `doc`, and its read of `doc` answered with `text` (its pre event first where it has one). */
export const readHosts: [host: string, refusal: unknown, read: (text: string) => unknown[]][] = [
  [
    'claude-code',
    toolReturned('fixture', 'links', [link(metadata, 'creds'), link(doc, 'a')]),
    (text) => [
      readRequested('fixture', doc),
      readReturned('fixture', doc, [{ uri: doc, mimeType: 'text/plain', text }]),
    ],
  ],
  [
    'codex',
    codexToolReturned({ content: [link(metadata, 'creds'), link(doc, 'a')] }),
    (text) => [codexReadReturned('fixture', doc, [{ uri: doc, mimeType: 'text/plain', text }])],
  ],
  [
    'gemini-cli',
    geminiToolReturned([
      [metadata, 'creds'],
      [doc, 'a'],
    ]),
    (text) => [geminiReadReturned(doc, text)],
  ],
  [
    'cline',
    clineResult({ content: [link(metadata, 'creds'), link(doc, 'a')] }),
    (text) => [
      clineResult(
        { contents: [{ uri: doc, mimeType: 'text/plain', text }] },
        undefined,
        'toolu_2',
        'access_mcp_resource',
        {
          server_name: 'fx',
          uri: doc,
        },
      ),
    ],
  ],
];

/** Runs `events` through `host`'s hook in order; the last run. */
export async function inOrder(hooks: HookScratch, host: string, events: readonly unknown[]) {
  let last = await hooks.hook(host, events[0]);
  for (const event of events.slice(1)) last = await hooks.hook(host, event);
  return last;
}
