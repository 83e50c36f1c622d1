import { isRecord } from '../decision/json-value.ts';
import type { HostAlteration } from '../flow/host-altered-read.ts';
import { codex } from '../hosts/codex.ts';
import { eventPhase } from '../hosts/hook-setup.ts';
import { preToolUseDeny } from './claude-code-host.ts';
import type { HookAnswer, HookCall, HookEvent } from './hook-event.ts';
import type { HostAdapter } from './host-adapter.ts';
import { durationOf, optionalString, requiredObject, requiredString } from './host-event-fields.ts';
import { parsedJson } from './tool-output.ts';

// Codex CLI 0.171 (observed, test/real-host/observed/codex/; events, tool names: src/hosts/codex.ts): a failed call
// gets no post event

function call(name: string, input: unknown): HookCall {
  const tools = codex.tools;
  if (name === tools.read) {
    const fields = requiredObject(input, 'tool_input');
    return {
      kind: 'read',
      server: requiredString(fields['server'], 'tool_input.server'),
      uri: requiredString(fields['uri'], 'tool_input.uri'),
    };
  }
  if (name === tools.list) {
    const fields = input === undefined || input === null ? {} : requiredObject(input, 'tool_input');
    return { kind: 'list', server: optionalString(fields['server'], 'tool_input.server') ?? null };
  }
  const mcp = tools.mcpParts(name);
  return mcp === null ? { kind: 'other', name } : { kind: 'mcp', ...mcp };
}

// the items an MCP tool result holds, as the model reads them (Codex passes each on: text as text, the rest as JSON)
function knownItem(item: unknown): boolean {
  if (!isRecord(item)) return false;
  switch (item['type']) {
    case 'text':
      return typeof item['text'] === 'string';
    case 'resource_link':
      return typeof item['uri'] === 'string';
    case 'resource':
      return isRecord(item['resource']);
    case 'image':
    case 'audio':
      return typeof item['data'] === 'string';
    default:
      return false;
  }
}

/**
 * An MCP tool's `tool_response` (`{content: [...]}`, or the same as a JSON string) with every item the gate cannot
 * recognise standing as an embedded resource with no body, which the gate withholds (`content.shape`): Codex shows
 * the model each item as JSON, so an unknown item is never passed as harmless text.
 */
export function toolResponse(raw: unknown): unknown {
  const value = parsedJson(raw);
  if (!isRecord(value) || !Array.isArray(value['content'])) return raw;
  const content = value['content'].map((item: unknown) => {
    if (knownItem(item)) return item;
    const uri = isRecord(item) && typeof item['uri'] === 'string' ? item['uri'] : '';
    return { type: 'resource', resource: { uri } };
  });
  return { ...value, content };
}

// Codex CLI 0.171 cuts a read's output before its hooks see it (observed: an 11 MiB text read arrives as a
// 12 025-character string): the middle of the JSON text `{server, uri, contents}` is replaced by `…N chars
// truncated…` (`…N tokens truncated…` under a token budget; both in its `truncate.rs`), so the text often still
// parses, with the marker inside the item it cut. `\u2026` is `…`: the event bundle stays ASCII (docs/speed.md)
const cutMarker = /\u2026\d+ (?:chars|tokens) truncated\u2026/;

/**
 * A read's `tool_response`: a JSON string `{server, uri, contents}` with blobs inline as base64; an object is taken as
 * it is. Anything else has no `contents`, which the hook treats as a failure after the read (fail closed). A cut
 * output names the items holding Codex's marker as cut (every item when no item holds it: none is known whole).
 */
function readResponse(raw: unknown): { response: unknown; altered?: HostAlteration } {
  const value = parsedJson(raw);
  if (!isRecord(value)) return { response: {} };
  const marker = cutMarker.exec(typeof raw === 'string' ? raw : (JSON.stringify(value) ?? ''));
  if (marker === null) return { response: value };
  const contents: unknown[] = Array.isArray(value['contents']) ? value['contents'] : [];
  const holding = contents.flatMap((item, i) => (cutMarker.test(JSON.stringify(item) ?? '') ? [i] : []));
  const cut = new Set(holding.length > 0 ? holding : contents.map((_, i) => i));
  return { response: value, altered: { cut, replaced: new Set(), note: `Codex's \`${marker[0]}\`` } };
}

// what the model reads in place of a replaced result: a read as Codex itself renders it (`{server, uri, contents}`),
// an MCP tool result as its items (text as text, the rest as JSON), one per line
function replacementText(answer: Extract<HookAnswer, { kind: 'replace' }>, event: HookEvent): string {
  const output = answer.output;
  if (event.call.kind === 'read' && isRecord(output) && Array.isArray(output['contents'])) {
    return JSON.stringify({ server: event.call.server, uri: event.call.uri, contents: output['contents'] });
  }
  const result = parsedJson(output);
  // Codex gives the model a result's `structuredContent`, when there is one, in place of its items
  if (isRecord(result) && result['structuredContent'] !== undefined && result['structuredContent'] !== null)
    return JSON.stringify(result['structuredContent']);
  if (isRecord(result) && Array.isArray(result['content'])) {
    return result['content']
      .map((item: unknown) => (isRecord(item) && item['type'] === 'text' ? String(item['text']) : JSON.stringify(item)))
      .join('\n');
  }
  return answer.reason;
}

/**
 * Codex CLI: a deny before the read is `permissionDecision: "deny"` (Codex never calls the server and hands the model
 * `Tool call blocked by PreToolUse hook: <reason>`). Codex cannot edit a tool result (`updatedMCPToolOutput` fails
 * open), so a result with anything withheld is replaced as a whole by `decision: "block"`, whose reason is what the
 * model then reads: the result with each withheld item swapped for its notice.
 */
export const codexHost: HostAdapter = {
  parse(event) {
    const phase = eventPhase(codex, requiredString(event['hook_event_name'], 'hook_event_name'));
    if (phase === undefined) return null;
    const session = requiredString(event['session_id'], 'session_id');
    const parsed: HookEvent = {
      session,
      phase,
      toolUseId: optionalString(event['tool_use_id'], 'tool_use_id') ?? null,
      call: call(requiredString(event['tool_name'], 'tool_name'), event['tool_input']),
      // Codex passes blobs inline and saves no files for the model
      savedDir: null,
    };
    if (phase === 'post') {
      const raw = event['tool_response'];
      if (parsed.call.kind === 'read') {
        const read = readResponse(raw);
        parsed.response = read.response;
        if (read.altered !== undefined) parsed.altered = read.altered;
      } else parsed.response = parsed.call.kind === 'mcp' ? toolResponse(raw) : raw;
    }
    const duration = durationOf(event['duration_ms']);
    if (duration !== undefined) parsed.durationMs = duration;
    return parsed;
  },
  format(answer, event) {
    if (answer.kind === 'deny') return preToolUseDeny(answer.reason, codex);
    if (answer.kind === 'replace') return JSON.stringify({ decision: 'block', reason: replacementText(answer, event) });
    return '';
  },
};
