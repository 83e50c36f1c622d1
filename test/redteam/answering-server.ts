// A red-team stdio MCP server (JSON-RPC written by hand) that answers any method as its caller scripted it, so a test
// decides what every answer holds, `tools/list` and `completion/complete` included. The tool `result` answers with its
// argument `result` (or with its `error`, a JSON-RPC error); its `answers` (method → `{result}` or `{error}`) is what
// later requests of that method get (`{hold: true}`: none), and `notify` (raw messages) is written right after the call's answer (before it with `notifyFirst`). A
// `resources/read` answers `BODY <uri>` unless `answers` scripts it, and is appended to RT_REQUEST_LOG as `{uri}`.
import { appendFileSync } from 'node:fs';
import { type JsonObject, jsonRpcLine, readStdinMessages } from '../fixtures/servers/stdio-lines.ts';

const log = process.env['RT_REQUEST_LOG'];
const send = (message: JsonObject) => void process.stdout.write(jsonRpcLine(message));
const answers = new Map<string, JsonObject>();
const tool = { name: 'result', description: 'answers as scripted', inputSchema: { type: 'object' } };

function onRequest(id: string | number, method: string, params: JsonObject): void {
  if (method === 'initialize') {
    const version = typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : '2025-06-18';
    const capabilities = { tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} };
    return send({ id, result: { protocolVersion: version, capabilities, serverInfo: { name: 'a', version: '1' } } });
  }
  if (method === 'tools/call') {
    const args = (params['arguments'] ?? {}) as JsonObject;
    for (const [m, a] of Object.entries((args['answers'] ?? {}) as Record<string, JsonObject>)) answers.set(m, a);
    const notify = () => {
      for (const m of (args['notify'] ?? []) as JsonObject[]) process.stdout.write(`${JSON.stringify(m)}\n`);
    };
    // `notifyFirst`: the raw messages before the call's answer, so the caller has them when its call returns
    if (args['notifyFirst'] === true) notify();
    if (args['error'] !== undefined) send({ id, error: args['error'] });
    else if (args['answer'] !== false) send({ id, result: args['result'] ?? { content: [] } });
    if (args['notifyFirst'] !== true) notify();
    return;
  }
  if (method === 'resources/read' && log !== undefined)
    appendFileSync(log, `${JSON.stringify({ uri: params['uri'] })}\n`);
  const scripted = answers.get(method);
  // `{hold: true}`: never answered
  if (scripted !== undefined) return scripted['hold'] === true ? undefined : send({ id, ...scripted });
  if (method === 'ping') return send({ id, result: {} });
  if (method === 'tools/list') return send({ id, result: { tools: [tool] } });
  if (method === 'resources/read') {
    const uri = String(params['uri'] ?? '');
    return send({ id, result: { contents: [{ uri, mimeType: 'text/plain', text: `BODY ${uri}` }] } });
  }
  if (method === 'resources/subscribe' || method === 'logging/setLevel') return send({ id, result: {} });
  send({ id, error: { code: -32601, message: `method not found: ${method}` } });
}

readStdinMessages((message) => {
  const { id, method } = message as { id?: string | number; method?: unknown };
  if (typeof method === 'string' && id !== undefined) onRequest(id, method, (message['params'] ?? {}) as JsonObject);
});
