/** Claude Code hook events as the research note lists their fields (`session_id`, `tool_name`, `tool_input`, …). */
export interface EventOptions {
  session?: string;
  toolUseId?: string;
  /** the session transcript; the host saves binary bodies under `<transcript without .jsonl>/tool-results/` */
  transcript?: string;
}

const common = (name: string, options: EventOptions) => ({
  session_id: options.session ?? 'session-1',
  transcript_path: options.transcript ?? '/tmp/linkgate-no-such-session.jsonl',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: name,
});

/** `PostToolUse` of an MCP tool `mcp__<server>__<tool>` whose result is `content`. */
export function toolReturned(server: string, tool: string, content: unknown[], options: EventOptions = {}) {
  return {
    ...common('PostToolUse', options),
    tool_name: `mcp__${server}__${tool}`,
    tool_input: {},
    tool_response: content,
    tool_use_id: options.toolUseId ?? `toolu_${server}_${tool}`,
  };
}

/** `PreToolUse` of `ReadMcpResourceTool {server, uri}`. */
export function readRequested(server: string, uri: string, options: EventOptions = {}) {
  return {
    ...common('PreToolUse', options),
    tool_name: 'ReadMcpResourceTool',
    tool_input: { server, uri },
    tool_use_id: options.toolUseId ?? 'toolu_read',
  };
}

/** `PostToolUse` of `ReadMcpResourceTool` with the host's `contents` (binary items carry `blobSavedTo`). */
export function readReturned(server: string, uri: string, contents: unknown[], options: EventOptions = {}) {
  return {
    ...common('PostToolUse', options),
    tool_name: 'ReadMcpResourceTool',
    tool_input: { server, uri },
    tool_response: { contents },
    tool_use_id: options.toolUseId ?? 'toolu_read',
    duration_ms: 12,
  };
}

/** `PostToolUse` of `ListMcpResourcesTool`. */
export function resourcesListed(entries: unknown[], options: EventOptions = {}) {
  return {
    ...common('PostToolUse', options),
    tool_name: 'ListMcpResourcesTool',
    tool_input: {},
    tool_response: entries,
    tool_use_id: options.toolUseId ?? 'toolu_list',
  };
}

/** `PreToolUse` of `WebFetch {url, prompt}`. */
export function webFetch(url: string, options: EventOptions = {}) {
  return {
    ...common('PreToolUse', options),
    tool_name: 'WebFetch',
    tool_input: { url, prompt: 'summarise' },
    tool_use_id: options.toolUseId ?? 'toolu_fetch',
  };
}

/** Codex's `PostToolUse` of an MCP tool `mcp__<server>__<tool>` (its observed shape: `tool_response` is the MCP result). */
export function codexToolReturned(
  response: unknown,
  options: { session?: string; toolUseId?: string; server?: string; tool?: string } = {},
) {
  return {
    session_id: options.session ?? 's1',
    transcript_path: '/tmp/linkgate-no-such-session.jsonl',
    cwd: '/tmp',
    hook_event_name: 'PostToolUse',
    model: 'm',
    permission_mode: 'default',
    tool_name: `mcp__${options.server ?? 'fixture'}__${options.tool ?? 'links'}`,
    tool_input: {},
    tool_response: response,
    tool_use_id: options.toolUseId ?? 'call_1',
    turn_id: 't1',
  };
}

/** Codex's `PostToolUse` of `read_mcp_resource {server, uri}`: its `tool_response` the JSON text `{server, uri, contents}`. */
export function codexReadReturned(
  server: string,
  uri: string,
  contents: unknown[],
  options: { session?: string } = {},
) {
  return {
    ...codexToolReturned(JSON.stringify({ server, uri, contents }), { ...options, toolUseId: 'call_read' }),
    tool_name: 'read_mcp_resource',
    tool_input: { server, uri },
  };
}

/** Gemini CLI's `AfterTool` of `read_mcp_resource {uri}`: the body as the text of `llmContent`, as observed in 0.61. */
export function geminiReadReturned(uri: string, text: string, options: { session?: string } = {}) {
  return {
    session_id: options.session ?? 'g1',
    transcript_path: '/tmp/linkgate-no-such-session.jsonl',
    cwd: '/tmp',
    hook_event_name: 'AfterTool',
    timestamp: '2026-12-03T08:04:19.406Z',
    tool_name: 'read_mcp_resource',
    tool_input: { uri },
    tool_response: { llmContent: text, returnDisplay: 'Successfully read resource "r" from server "fixture"' },
  };
}
