// The red team's stdio MCP server (JSON-RPC written by hand): tool `result` answers with the tool result its caller
// passes as the argument `result`, so a test decides exactly what a hostile server sends; `resources/read` answers any
// uri with a text body naming this server and the uri (`BODY <server> <uri>`), so a body that reached the model shows
// which server gave it. Every read is appended as one JSON line `{server, uri}` to the file RT_REQUEST_LOG names.
// A call's `rawResult` is written as the result's JSON text as it is. For order attacks a call may also pass `before` and `after` (raw JSON-RPC messages written before and after its
// answer, `"$id"` standing for the call's id), `answer: false` (no answer of its own), and `tasks` (taskId → the
// `result` of a later `tasks/get` and `tasks/result` of that task; `tasks/cancel` and `tasks/list` answer its `get`); a read of `rt://hold/…` is never answered.
// `prompts/get` answers with the prompt result its `arguments.result` holds (a raw host sends it as an object; an SDK
// client, whose prompt arguments are strings, as its JSON). A call's `listing` (`resources`, `resourceTemplates`) is
// what later `resources/list` and `resources/templates/list` answer; its `also` is added to both answers as it is.
import { appendFileSync } from 'node:fs';
import { type RequestId, sendMessage, serveScript } from '../helpers/scripted-stdio-server.ts';

/** The body a read of `uri` from server `name` returns. */
export const bodyOf = (name: string, uri: string): string => `BODY ${name} ${uri}`;

const name = process.env['RT_SERVER_NAME'] ?? 'scripted';
const log = process.env['RT_REQUEST_LOG'];
const raw = (message: unknown, id: RequestId) =>
  process.stdout.write(`${JSON.stringify(message).replaceAll('"$id"', JSON.stringify(id))}\n`);
const tasks = new Map<string, { get?: unknown; result?: unknown }>();
let listing: { resources?: unknown; resourceTemplates?: unknown; also?: Record<string, unknown> } = {};

const tools = [
  {
    name: 'result',
    description: 'answers with the tool result it is given',
    // named, so a framework that builds a validator from the schema keeps the argument
    inputSchema: { type: 'object', properties: { result: {} }, additionalProperties: true },
  },
];

function answer(id: RequestId, method: string, params: Record<string, unknown>): boolean {
  if (method === 'tools/call') {
    const args = (params['arguments'] ?? {}) as Record<string, unknown>;
    for (const [taskId, task] of Object.entries((args['tasks'] ?? {}) as Record<string, { get?: unknown }>))
      tasks.set(taskId, task);
    if (args['listing'] !== undefined) listing = args['listing'] as typeof listing;
    for (const m of (args['before'] ?? []) as unknown[]) raw(m, id);
    // `rawResult`: the result's JSON text as given (a nesting no JSON.stringify would write)
    if (typeof args['rawResult'] === 'string')
      process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${args['rawResult']}}\n`);
    else if (args['answer'] !== false) sendMessage({ id, result: args['result'] ?? { content: [] } });
    for (const m of (args['after'] ?? []) as unknown[]) raw(m, id);
    return true;
  }
  if (method === 'resources/list' || method === 'resources/templates/list') {
    const result =
      method === 'resources/list'
        ? { resources: listing.resources ?? [] }
        : { resourceTemplates: listing.resourceTemplates ?? [] };
    sendMessage({ id, result: { ...result, ...listing.also } });
    return true;
  }
  if (method === 'prompts/get') {
    const given = ((params['arguments'] ?? {}) as Record<string, unknown>)['result'];
    sendMessage({
      id,
      result: typeof given === 'string' ? (JSON.parse(given) as unknown) : (given ?? { messages: [] }),
    });
    return true;
  }
  // `tasks/list` answers every task's `get`; `tasks/cancel` the task's `get` (a server may put a result in either)
  if (method === 'tasks/list') {
    sendMessage({ id, result: { tasks: [...tasks.values()].map((t) => t.get).filter((t) => t !== undefined) } });
    return true;
  }
  if (method === 'tasks/get' || method === 'tasks/result' || method === 'tasks/cancel') {
    const task = tasks.get(String(params['taskId']));
    const result = method === 'tasks/result' ? task?.result : task?.get;
    if (result === undefined) return false;
    sendMessage({ id, result });
    return true;
  }
  if (method === 'resources/read') {
    const uri = String(params['uri'] ?? '');
    if (log !== undefined) appendFileSync(log, `${JSON.stringify({ server: name, uri })}\n`);
    if (uri.startsWith('rt://hold/')) return true;
    // `rt://swap/…` answers with another resource's contents (the metadata address's)
    if (uri.startsWith('rt://swap/')) {
      const other = 'http://169.254.169.254/latest/meta-data/';
      sendMessage({ id, result: { contents: [{ uri: other, mimeType: 'text/plain', text: 'SWAPPED-BODY-31' }] } });
      return true;
    }
    sendMessage({ id, result: { contents: [{ uri, mimeType: 'text/plain', text: bodyOf(name, uri) }] } });
    return true;
  }
  return false;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1])
  serveScript({ name, capabilities: { tools: {}, resources: {}, prompts: {} }, tools, answer });
