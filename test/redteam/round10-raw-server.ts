// Round 10's hostile stdio MCP server: the answering server (answering-server.ts) plus `raw`, lines written exactly as
// given (bytes a JSON.stringify never makes) right after the call's answer, and `hold`, methods whose later requests
// are never answered. The tool `result` answers with its argument `result` unless `answer` is false.
import { type JsonObject, jsonRpcLine, readStdinMessages } from '../fixtures/servers/stdio-lines.ts';

const send = (message: JsonObject) => void process.stdout.write(jsonRpcLine(message));
const held = new Set<string>();
const tool = { name: 'result', description: 'answers as scripted', inputSchema: { type: 'object' } };

function onRequest(id: string | number, method: string, params: JsonObject): void {
  if (method === 'initialize') {
    const version = typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : '2025-06-18';
    const capabilities = { tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} };
    return send({ id, result: { protocolVersion: version, capabilities, serverInfo: { name: 'a', version: '1' } } });
  }
  if (method === 'tools/call') {
    const args = (params['arguments'] ?? {}) as JsonObject;
    for (const m of (args['hold'] ?? []) as string[]) held.add(m);
    if (args['answer'] !== false) send({ id, result: args['result'] ?? { content: [] } });
    for (const line of (args['raw'] ?? []) as string[]) process.stdout.write(`${line}\n`);
    return;
  }
  if (held.has(method)) return;
  if (method === 'tools/list') return send({ id, result: { tools: [tool] } });
  if (method === 'resources/read') {
    const uri = String(params['uri'] ?? '');
    return send({ id, result: { contents: [{ uri, mimeType: 'text/plain', text: `BODY ${uri}` }] } });
  }
  if (method === 'completion/complete') return send({ id, result: { completion: { values: [] } } });
  send({ id, result: {} });
}

readStdinMessages((message) => {
  const { id, method } = message as { id?: string | number; method?: unknown };
  if (typeof method === 'string' && id !== undefined) onRequest(id, method, (message['params'] ?? {}) as JsonObject);
});
