import { claudeCode } from '../hosts/claude-code.ts';
import { eventOf, eventPhase } from '../hosts/hook-setup.ts';
import type { HostDescription } from '../hosts/host-description.ts';
import type { HostAdapter } from './host-adapter.ts';
import { SavedFiles } from './saved-files.ts';
import type { HookCall, HookEvent } from './hook-event.ts';
import { durationOf, optionalString, requiredObject, requiredString } from './host-event-fields.ts';

/** The tool call of a Claude-shaped event (`tool_name`, `tool_input`); shared by the hosts that copy its shape. */
export function claudeShapedCall(name: string, input: unknown): HookCall {
  const tools = claudeCode.tools;
  if (name === tools.read) {
    const fields = requiredObject(input, 'tool_input');
    return {
      kind: 'read',
      server: requiredString(fields['server'], 'tool_input.server'),
      uri: requiredString(fields['uri'], 'tool_input.uri'),
    };
  }
  if (name === tools.listDir) {
    // lists the children of a directory resource (`{resources: [{uri, name, mimeType?}]}`): discovery, no body
    const fields = requiredObject(input, 'tool_input');
    return { kind: 'list', server: requiredString(fields['server'], 'tool_input.server') };
  }
  if (name === tools.list) {
    const fields = input === undefined || input === null ? {} : requiredObject(input, 'tool_input');
    return { kind: 'list', server: optionalString(fields['server'], 'tool_input.server') ?? null };
  }
  if (name === tools.webFetch) {
    const fields = requiredObject(input, 'tool_input');
    return { kind: 'web-fetch', urls: [requiredString(fields['url'], 'tool_input.url')] };
  }
  const mcp = tools.mcpParts(name);
  return mcp === null ? { kind: 'other', name } : { kind: 'mcp', ...mcp };
}

/** Parses a Claude-shaped tool event (Claude Code's events, src/hosts/claude-code.ts); null for other events. */
export function parseClaudeShaped(event: Record<string, unknown>): HookEvent | null {
  const phase = eventPhase(claudeCode, requiredString(event['hook_event_name'], 'hook_event_name'));
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
  if (phase === 'post') {
    parsed.response = event['tool_response'];
    // an MCP result with `structuredContent` arrives as that value, a JSON string the model reads (measured through
    // the Claude Agent SDK 0.3.336, which runs this binary)
    parsed.stringIsText = true;
  }
  if (phase === 'failure') parsed.response = typeof event['error'] === 'string' ? event['error'] : undefined;
  const duration = durationOf(event['duration_ms']);
  if (duration !== undefined) parsed.durationMs = duration;
  return parsed;
}

/** A Claude-shaped refusal before a call (Claude Code, Codex): `permissionDecision: "deny"` with the reason, in JSON. */
export function preToolUseDeny(reason: string, host: HostDescription = claudeCode): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: eventOf(host, 'pre'),
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  });
}

/** Claude Code: deny with `permissionDecision`, replace with `updatedToolOutput`; allow is silence, never a grant. */
export const claudeCodeHost: HostAdapter = {
  parse: parseClaudeShaped,
  format(answer) {
    if (answer.kind === 'deny') return preToolUseDeny(answer.reason);
    if (answer.kind === 'replace') {
      const hookEventName = eventOf(claudeCode, 'post');
      return JSON.stringify({ hookSpecificOutput: { hookEventName, updatedToolOutput: answer.output } });
    }
    return '';
  },
};
