import type { HostAdapter } from './host-adapter.ts';
import { SavedFiles } from './saved-files.ts';
import type { HookCall, HookEvent } from './hook-event.ts';
import { durationOf, mcpToolName, optionalString, requiredObject, requiredString } from './host-event-fields.ts';

const phases: Readonly<Record<string, HookEvent['phase']>> = {
  PreToolUse: 'pre',
  PostToolUse: 'post',
  PostToolUseFailure: 'failure',
};

/** The tool call of a Claude-shaped event (`tool_name`, `tool_input`); shared by the hosts that copy its shape. */
export function claudeShapedCall(name: string, input: unknown): HookCall {
  if (name === 'ReadMcpResourceTool') {
    const fields = requiredObject(input, 'tool_input');
    return {
      kind: 'read',
      server: requiredString(fields['server'], 'tool_input.server'),
      uri: requiredString(fields['uri'], 'tool_input.uri'),
    };
  }
  if (name === 'ReadMcpResourceDirTool') {
    // lists the children of a directory resource (`{resources: [{uri, name, mimeType?}]}`): discovery, no body
    const fields = requiredObject(input, 'tool_input');
    return { kind: 'list', server: requiredString(fields['server'], 'tool_input.server') };
  }
  if (name === 'ListMcpResourcesTool') {
    const fields = input === undefined || input === null ? {} : requiredObject(input, 'tool_input');
    return { kind: 'list', server: optionalString(fields['server'], 'tool_input.server') ?? null };
  }
  if (name === 'WebFetch') {
    const fields = requiredObject(input, 'tool_input');
    return { kind: 'web-fetch', urls: [requiredString(fields['url'], 'tool_input.url')] };
  }
  const mcp = mcpToolName(name);
  return mcp === null ? { kind: 'other', name } : { kind: 'mcp', ...mcp };
}

/** Parses a Claude-shaped tool event (`PreToolUse`, `PostToolUse`, `PostToolUseFailure`); null for other events. */
export function parseClaudeShaped(event: Record<string, unknown>): HookEvent | null {
  const phase = phases[requiredString(event['hook_event_name'], 'hook_event_name')];
  if (phase === undefined) return null;
  const session = requiredString(event['session_id'], 'session_id');
  const call = claudeShapedCall(requiredString(event['tool_name'], 'tool_name'), event['tool_input']);
  const parsed: HookEvent = {
    session,
    phase,
    toolUseId: optionalString(event['tool_use_id'], 'tool_use_id') ?? null,
    call,
    savedDir: SavedFiles.forTranscript(optionalString(event['transcript_path'], 'transcript_path')).dir,
  };
  if (phase === 'post') parsed.response = event['tool_response'];
  if (phase === 'failure') parsed.response = typeof event['error'] === 'string' ? event['error'] : undefined;
  const duration = durationOf(event['duration_ms']);
  if (duration !== undefined) parsed.durationMs = duration;
  return parsed;
}

/** A Claude-shaped PreToolUse refusal (Claude Code, Codex): `permissionDecision: "deny"` with the reason, in JSON. */
export function preToolUseDeny(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });
}

/** Claude Code: deny with `permissionDecision`, replace with `updatedToolOutput`; allow is silence, never a grant. */
export const claudeCodeHost: HostAdapter = {
  parse: parseClaudeShaped,
  format(answer) {
    if (answer.kind === 'deny') return preToolUseDeny(answer.reason);
    if (answer.kind === 'replace') {
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: answer.output } });
    }
    return '';
  },
};
