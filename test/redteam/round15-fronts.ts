// What round 15's cases share: the in-process hooks of the Claude Agent SDK and the Copilot SDK called as their SDKs
// call them (what the model is handed after each is the oracle), Codex's post event of one MCP result, and the checks
// every notice is held to.
import path from 'node:path';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { Policy } from '../../src/policy/policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { signal } from './round-cases.ts';
import { policyFile } from './scripted-host.ts';

type Json = Record<string, unknown>;

/** Format characters, bidi marks, C0/C1 controls and line separators a server may put in a name: none reach the model raw. */
export const rawControls =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;

/** Claude Agent SDK hooks over `policy` (the default policy file loaded when none is given), the state in memory. */
export async function agentHooks(policy: string | Policy = policyFile, stateDir?: string) {
  const loaded = typeof policy === 'string' && policy === policyFile ? await loadPolicy(policyFile) : policy;
  return claudeAgentHooks({ policy: loaded, records: callbackSink(() => {}), ...(stateDir ? { stateDir } : {}) });
}

/** One Claude Agent SDK hook call on `event` (its event name picks the matcher); the answer, `{}` when none. */
export async function agentCall(hooks: Awaited<ReturnType<typeof agentHooks>>, event: Json) {
  const name = event['hook_event_name'] as 'PreToolUse' | 'PostToolUse';
  const callback = hooks[name][0]?.hooks[0];
  if (callback === undefined) throw new Error(`no ${name} hook`);
  return callback(event, undefined, signal);
}

/** What the Claude Agent SDK hands the model after its post hook of an MCP result (`response`: the result as handed). */
export async function agentGiven(response: unknown, hooks?: Awaited<ReturnType<typeof agentHooks>>): Promise<string> {
  const event = { ...toolReturned('fixture', 'links', []), tool_response: response };
  const answer = await agentCall(hooks ?? (await agentHooks()), event);
  return JSON.stringify(Object.keys(answer).length === 0 ? event : answer);
}

/** Copilot SDK hooks over the default policy (or `policy`), the state in `stateDir`. */
export async function copilotHooks(stateDir: string, policy: string | Policy = policyFile) {
  const loaded = policy === policyFile ? await loadPolicy(policyFile) : policy;
  return copilotSdkHooks({ policy: loaded, records: callbackSink(() => {}), stateDir: path.join(stateDir, 'state') });
}

/** What the Copilot SDK hands the model after its hooks on `docs`'s `links` tool returning `contents` (and `extra`). */
export async function copilotGiven(
  hooks: Awaited<ReturnType<typeof copilotHooks>>,
  contents: unknown[],
  extra: Json = {},
  session = 's1',
): Promise<string> {
  const invocation = { sessionId: session };
  await hooks.onPreMcpToolCall(
    { sessionId: session, serverName: 'docs', toolName: 'links', arguments: {} },
    invocation,
  );
  const toolResult = { textResultForLlm: textOf(contents), resultType: 'success', contents, ...extra };
  const input = { sessionId: session, timestamp: new Date(), workingDirectory: '/tmp', toolName: 'docs-links' };
  const answer = await hooks.onPostToolUse({ ...input, toolArgs: {}, toolResult }, invocation);
  const given = answer === undefined ? toolResult : answer.modifiedResult;
  return JSON.stringify({ text: given.textResultForLlm, structured: (given as Json)['structuredContent'] ?? null });
}

// the Copilot's text of its items: text items one per line, links dropped
const textOf = (contents: unknown[]) =>
  contents
    .filter((i): i is Json => typeof i === 'object' && i !== null && (i as Json)['type'] === 'text')
    .map((i) => String(i['text']))
    .join('\n');

/** Codex's post event of one MCP result of `fixture`'s `links` tool (`id` its call id). */
export const codexResult = (result: Json, id = 'call_1') => codexToolReturned(result, { toolUseId: id });
