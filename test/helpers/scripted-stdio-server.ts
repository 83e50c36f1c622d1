// The loop of a scripted stdio MCP server (JSON-RPC written by hand, so a test decides every byte it sends): it
// answers `initialize` (echoing the client's protocol version), `ping` and `tools/list` itself, hands every other
// request to the script, and answers what the script does not know with `method not found`. Notifications and
// answers from the client are ignored. Importing this module starts nothing.
import { type JsonObject, jsonRpcLine, readStdinMessages } from '../fixtures/servers/stdio-lines.ts';

/** A JSON-RPC request id. */
export type RequestId = string | number;

/** What a scripted server is: its name, capabilities and tools, and how it answers the other requests. */
export interface ServerScript {
  readonly name: string;
  readonly capabilities: JsonObject;
  readonly tools: readonly JsonObject[];
  /** answers (or deliberately leaves unanswered) request `id`; false when the script does not know `method` */
  answer(id: RequestId, method: string, params: JsonObject): boolean;
}

/** Writes one JSON-RPC message (with `jsonrpc: "2.0"`) to stdout. */
export const sendMessage = (message: JsonObject): void => void process.stdout.write(jsonRpcLine(message));

/** Serves `script` on stdin and stdout until stdin ends. */
export function serveScript(script: ServerScript): void {
  readStdinMessages((message) => {
    const { id, method } = message as { id?: RequestId; method?: unknown };
    if (typeof method !== 'string' || id === undefined) return;
    const params = (message['params'] ?? {}) as JsonObject;
    if (method === 'initialize') {
      const version = typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : '2025-06-18';
      const serverInfo = { name: script.name, version: '1' };
      return sendMessage({ id, result: { protocolVersion: version, capabilities: script.capabilities, serverInfo } });
    }
    if (method === 'ping') return sendMessage({ id, result: {} });
    if (method === 'tools/list') return sendMessage({ id, result: { tools: script.tools } });
    if (script.answer(id, method, params)) return;
    sendMessage({ id, error: { code: -32601, message: `method not found: ${method}` } });
  });
}
