// A stdio MCP server (JSON-RPC written by hand) for order cases: every answer goes out in ONE write together with the
// raw messages scripted to follow it, so the client reads them in the same chunk. The tool `result` answers with its
// argument `result` and then its `with` (raw messages; `"$id"` stands for the call's id, `"$held:<method>"` for the id
// of the last request of that method the server left unanswered); its `answers` (method → `{result}` or `{error}`,
// with an optional `with`; `{hold: true}`: never answered) is what later requests of that method get. A
// `resources/read` answers `BODY <uri>` unless scripted.
import { type JsonObject, jsonRpcLine, readStdinMessages } from '../fixtures/servers/stdio-lines.ts';

type Id = string | number;
const answers = new Map<string, JsonObject>();
const held = new Map<string, Id>();
const tool = { name: 'result', description: 'answers as scripted', inputSchema: { type: 'object' } };

// the answer and the messages after it, as one write
function sendWith(id: Id, answer: JsonObject, after: unknown) {
  let text = jsonRpcLine({ id, ...answer });
  for (const m of (after ?? []) as unknown[]) {
    let line = JSON.stringify(m).replaceAll('"$id"', JSON.stringify(id));
    for (const [method, heldId] of held) line = line.replaceAll(`"$held:${method}"`, JSON.stringify(heldId));
    text += `${line}\n`;
  }
  process.stdout.write(text);
}

function onRequest(id: Id, method: string, params: JsonObject): void {
  if (method === 'initialize') {
    const version = typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : '2025-06-18';
    const capabilities = { tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} };
    return sendWith(
      id,
      { result: { protocolVersion: version, capabilities, serverInfo: { name: 'a', version: '1' } } },
      [],
    );
  }
  if (method === 'tools/call') {
    const args = (params['arguments'] ?? {}) as JsonObject;
    for (const [m, a] of Object.entries((args['answers'] ?? {}) as Record<string, JsonObject>)) answers.set(m, a);
    return sendWith(id, { result: args['result'] ?? { content: [] } }, args['with']);
  }
  const scripted = answers.get(method);
  if (scripted !== undefined) {
    if (scripted['hold'] === true) return void held.set(method, id);
    const { with: after, ...answer } = scripted;
    return sendWith(id, answer, after);
  }
  if (method === 'ping') return sendWith(id, { result: {} }, []);
  if (method === 'tools/list') return sendWith(id, { result: { tools: [tool] } }, []);
  if (method === 'resources/read') {
    const uri = String(params['uri'] ?? '');
    return sendWith(id, { result: { contents: [{ uri, mimeType: 'text/plain', text: `BODY ${uri}` }] } }, []);
  }
  sendWith(id, { error: { code: -32601, message: `method not found: ${method}` } }, []);
}

readStdinMessages((message) => {
  const { id, method } = message;
  if ((typeof id === 'string' || typeof id === 'number') && typeof method === 'string')
    onRequest(id, method, (message['params'] ?? {}) as JsonObject);
});
