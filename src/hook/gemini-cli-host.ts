import { isRecord } from '../decision/json-value.ts';
import type { HostAlteration } from '../flow/host-altered-read.ts';
import type { HookAnswer, HookCall, HookEvent } from './hook-event.ts';
import { geminiCli } from '../hosts/gemini-cli.ts';
import { eventPhase } from '../hosts/hook-setup.ts';
import type { HostAdapter } from './host-adapter.ts';
import { optionalString, requiredObject, requiredString } from './host-event-fields.ts';

// Gemini CLI 0.61 (observed): `read_mcp_resource {uri}` reads only a uri some server listed and passes the model a
// text body, or `[Binary Data (<type>)]` instead of any bytes; `list_mcp_resources` answers lines
// `- <server>:<uri> | <name>`; an MCP tool's result is `llmContent` parts (`{text}`, `{inlineData}`)
// (it joins the items: each text item's text and a newline, each blob item the placeholder and a newline, empty ones
// left out; read in its bundle, `ReadMcpResourceTool`)
const binaryPlaceholder = /^\[Binary Data \(([^)\n]*)\)\][ \t\r]*\n?$/;
const noContent = 'No content returned from resource.';
const listedLine = /^- ([^:\n]+):(\S+) \| (.*)$/gm;

/**
 * The urls Gemini CLI's `web_fetch` fetches for `prompt`, found exactly as Gemini CLI 0.61 does (`parsePrompt` in its
 * web-fetch tool): the prompt split on whitespace, each token holding `://` parsed by WHATWG URL, http and https kept as
 * the parser writes them (`href`), and a github.com `/blob/` url also as the raw.githubusercontent.com url it fetches.
 */
export function webFetchUrls(prompt: string): string[] {
  const urls: string[] = [];
  for (const token of prompt.split(/\s+/)) {
    if (token === '' || !token.includes('://')) continue;
    let url: URL;
    try {
      url = new URL(token);
    } catch {
      // Gemini refuses the whole call on a malformed url: nothing is fetched
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    urls.push(url.href);
    if (url.hostname === 'github.com' && url.pathname.includes('/blob/')) {
      url.hostname = 'raw.githubusercontent.com';
      url.pathname = url.pathname.replace(/^\/([^/]+\/[^/]+)\/blob\//, '/$1/');
      urls.push(url.href);
    }
  }
  return urls;
}

/** The url a direct `web_fetch {url}` fetches: as WHATWG URL writes it, or the text itself when it does not parse. */
function directUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function call(name: string, input: Record<string, unknown>, event: Record<string, unknown>): HookCall {
  const tools = geminiCli.tools;
  if (name === tools.read) {
    const server = optionalString(input['serverName'], 'tool_input.serverName') ?? null;
    return { kind: 'read', server, uri: requiredString(input['uri'], 'tool_input.uri') };
  }
  if (name === tools.list) {
    return { kind: 'list', server: optionalString(input['serverName'], 'tool_input.serverName') ?? null };
  }
  if (name === tools.webFetch) {
    const url = optionalString(input['url'], 'tool_input.url');
    const prompt = optionalString(input['prompt'], 'tool_input.prompt') ?? '';
    return { kind: 'web-fetch', urls: url === undefined ? webFetchUrls(prompt) : [directUrl(url)] };
  }
  const context = isRecord(event['mcp_context']) ? event['mcp_context'] : undefined;
  if (context !== undefined) {
    return {
      kind: 'mcp',
      server: requiredString(context['server_name'], 'mcp_context.server_name'),
      tool: requiredString(context['tool_name'], 'mcp_context.tool_name'),
    };
  }
  const mcp = tools.mcpParts(name);
  return mcp === null ? { kind: 'other', name } : { kind: 'mcp', ...mcp };
}

/**
 * A read's text split back into its items: each placeholder line is a blob item whose bytes the host never passed on
 * (no body: the gate withholds it, `content.shape`), recorded as not delivered; the text around them, text items.
 */
function readText(uri: string, content: string): { response: unknown; altered?: HostAlteration } {
  const contents: Record<string, unknown>[] = [];
  const replaced = new Set<number>();
  let text = '';
  for (const line of content.split(/(?<=\n)/)) {
    const blob = binaryPlaceholder.exec(line);
    if (blob === null) {
      text += line;
      continue;
    }
    if (text !== '') contents.push({ uri, text });
    text = '';
    replaced.add(contents.length);
    // a blob item with no type reads `[Binary Data (undefined)]`
    contents.push(blob[1] === undefined || blob[1] === 'undefined' ? { uri } : { uri, mimeType: blob[1] });
  }
  if (text !== '') contents.push({ uri, text });
  const response = { contents };
  if (replaced.size === 0) return { response };
  return { response, altered: { cut: new Set(), replaced, note: "Gemini CLI's `[Binary Data (…)]`" } };
}

/** The tool's `llmContent` in the MCP shapes the gate reads: read contents, listed resources, or content items. */
function response(parsed: HookCall, raw: unknown): unknown {
  const content = isRecord(raw) ? raw['llmContent'] : undefined;
  if (parsed.kind === 'read') {
    // a failed read is `Error: …` text with `error` beside it: the server's (or the host's) error, never a body
    const failure = isRecord(raw) && isRecord(raw['error']) ? raw['error'] : undefined;
    const error = failure?.['message'];
    if (error !== undefined) {
      const answered = { contents: [], error: typeof error === 'string' && error !== '' ? error : 'the read failed' };
      // only `mcp_tool_error` is the server's answer; any other type is Gemini CLI refusing the read itself (a uri no
      // server listed is `mcp_resource_not_found`), before any request reached a server
      return failure?.['type'] === 'mcp_tool_error' ? answered : { ...answered, refusedBy: 'host' };
    }
    if (typeof content === 'string') {
      // the host's own words for a result with no text or blob (no contents, an unknown result type): no body
      if (content === noContent) return { contents: [] };
      return readText(parsed.uri, content).response;
    }
    // parts, or anything else: each part judged (text as text, inline data as its bytes, other parts have no body the
    // gate can judge and are withheld), never passed on unjudged
    const parts = Array.isArray(content) ? content : content === undefined || content === null ? [] : [content];
    return {
      contents: parts.map((part: unknown) => {
        if (isRecord(part) && typeof part['text'] === 'string') return { uri: parsed.uri, text: part['text'] };
        const inline = isRecord(part) && isRecord(part['inlineData']) ? part['inlineData'] : undefined;
        if (inline !== undefined && typeof inline['data'] === 'string') {
          const item: Record<string, unknown> = { uri: parsed.uri, blob: inline['data'] };
          if (typeof inline['mimeType'] === 'string') item['mimeType'] = inline['mimeType'];
          return item;
        }
        return { uri: parsed.uri };
      }),
    };
  }
  if (parsed.kind === 'list') {
    const text = typeof content === 'string' ? content : '';
    return [...text.matchAll(listedLine)].map((m) => ({ server: m[1], uri: m[2], name: m[3] }));
  }
  // a string is one text part; an object that is no list is one part of unknown shape (withheld, never passed silently)
  const parts =
    typeof content === 'string'
      ? [{ text: content }]
      : Array.isArray(content)
        ? content
        : content === undefined || content === null
          ? []
          : [content];
  return parts.map((part: unknown) => {
    if (isRecord(part) && typeof part['text'] === 'string') return { type: 'text', text: part['text'] };
    const inline = isRecord(part) && isRecord(part['inlineData']) ? part['inlineData'] : undefined;
    if (inline !== undefined) return { type: 'image', data: inline['data'], mimeType: inline['mimeType'] };
    return { type: 'unknown' };
  });
}

/** What the model gets instead of a withheld result: the kept text, with notices where items were withheld. */
function replacementText(answer: Extract<HookAnswer, { kind: 'replace' }>): string {
  const output = answer.output;
  const items = Array.isArray(output)
    ? output
    : isRecord(output) && Array.isArray(output['contents'])
      ? output['contents']
      : [];
  // a listing's entries (no content items): the reason holds the kept listing; a read's items (`{contents}`, no
  // `type` either) are handed on as their texts, a JSON body with its refused links replaced as judged
  if (
    Array.isArray(output) &&
    items.length > 0 &&
    items.every((item: unknown) => isRecord(item) && item['type'] === undefined)
  )
    return answer.reason;
  const texts = items.map((item: unknown) =>
    isRecord(item) && typeof item['text'] === 'string' ? item['text'] : '[a part the gate passed unchanged]',
  );
  return texts.length > 0 ? texts.join('\n') : answer.reason;
}

/**
 * Gemini CLI: `BeforeTool`/`AfterTool`. A deny is `decision: "deny"` (the reason goes to the model as the tool's
 * error); a withheld result is replaced by the reason of an `AfterTool` deny, which holds the kept text and notices.
 */
export const geminiCliHost: HostAdapter = {
  parse(event) {
    const phase = eventPhase(geminiCli, requiredString(event['hook_event_name'], 'hook_event_name'));
    if (phase === undefined) return null;
    const session = requiredString(event['session_id'], 'session_id');
    const input = event['tool_input'] === undefined ? {} : requiredObject(event['tool_input'], 'tool_input');
    const parsed = call(requiredString(event['tool_name'], 'tool_name'), input, event);
    const hookEvent: HookEvent = { session, phase, toolUseId: null, call: parsed, savedDir: null };
    if (phase === 'post') {
      const raw = requiredObject(event['tool_response'], 'tool_response');
      hookEvent.response = response(parsed, raw);
      const content = raw['llmContent'];
      if (parsed.kind === 'read' && typeof content === 'string' && raw['error'] === undefined) {
        const altered = readText(parsed.uri, content).altered;
        if (altered !== undefined) hookEvent.altered = altered;
      }
    }
    return hookEvent;
  },
  format(answer) {
    if (answer.kind === 'deny') return JSON.stringify({ decision: 'deny', reason: answer.reason });
    if (answer.kind === 'replace') return JSON.stringify({ decision: 'deny', reason: replacementText(answer) });
    return '';
  },
};
