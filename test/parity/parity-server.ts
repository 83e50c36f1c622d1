// The one hostile MCP server of the parity test (stdio, JSON-RPC written by hand so it can misbehave): tool `cases`
// returns every case of parity-cases.ts, `resources/read` answers each link as its case says, prompt `embedded`
// and tool `sample` (a `sampling/createMessage` request to the host) carry the embedded cases too.
// `--era 2026-07-28` makes it a server of that revision: it answers `server/discover`, needs no `initialize`, marks
// every final result `resultType: complete`, and answers a missing resource with `-32602` naming the uri.
import {
  garbageLines,
  inputRequiredResult,
  jsonRpcLine,
  readStdinMessages,
  unknownTypeResult,
} from '../fixtures/servers/stdio-lines.ts';
import { casesToolResult, contentsItem, embeddedCases, linkCases } from './parity-cases.ts';

type Id = string | number;

type Message = { id?: Id; method?: unknown; params?: Record<string, unknown>; result?: unknown; error?: unknown };

const modernEra = process.argv.includes('--era') && process.argv[process.argv.indexOf('--era') + 1] === '2026-07-28';
// a 2026-07-28 read result also says how long it may be cached (`ttlMs`, `cacheScope`)
const complete = (result: Record<string, unknown>) => {
  if (!modernEra || result['resultType'] !== undefined) return result;
  const cache = Array.isArray(result['contents']) ? { ttlMs: 0, cacheScope: 'private' } : {};
  return { ...result, resultType: 'complete', ...cache };
};
const send = (message: Record<string, unknown>) =>
  process.stdout.write(
    jsonRpcLine(
      message['result'] !== undefined && typeof message['result'] === 'object'
        ? { ...message, result: complete(message['result'] as Record<string, unknown>) }
        : message,
    ),
  );
const embeddedItems = () =>
  embeddedCases.map((c) => ({ type: 'resource', resource: contentsItem(c.resource.uri, c.resource) }));
// answers to requests this server sent the host, by id
const waiting = new Map<Id, (message: Message) => void>();
let nextId = 0;

function onRead(id: Id, uri: string): void {
  const found = linkCases.find((c) => c.link.uri === uri);
  if (found === undefined) return void send({ id, error: { code: -32002, message: `resource not found: ${uri}` } });
  const read = found.read;
  const ok = (text: string) => ({ contents: [{ uri, mimeType: 'text/plain', text }] });
  switch (read.kind) {
    case 'text':
    case 'blob':
      return void send({ id, result: { contents: [contentsItem(uri, read)] } });
    case 'error':
      // not found is -32602 with the uri in 2026-07-28 (it was -32002 before)
      if (modernEra && read.code === -32002)
        return void send({ id, error: { code: -32602, message: `${read.message}: ${uri}`, data: { uri } } });
      return void send({ id, error: { code: read.code, message: `${read.message}: ${uri}` } });
    case 'input-required':
      return void send({ id, result: inputRequiredResult });
    case 'unknown-type':
      return void send({ id, result: unknownTypeResult });
    case 'garbage-then':
      for (const line of garbageLines) process.stdout.write(`${line}\n`);
      return void send({ id, result: ok(read.text) });
    case 'twice':
      send({ id, result: ok(read.text) });
      return void send({ id, result: ok('a second, different answer\n') });
    case 'wrong-id':
      return void send({ id: typeof id === 'number' ? id + 100_000 : `${id}-other`, result: ok(read.text) });
    case 'never':
      return;
  }
}

// the Tasks extension of 2026-07-28: a client that declares it gets a task handle for `cases`, a status push that
// carries the whole result (which no front end may pass on unjudged), and the result from `tasks/get`
const tasksExtension = 'io.modelcontextprotocol/tasks';
const tasks = new Set<string>();

function asksForTasks(params: Record<string, unknown>): boolean {
  const meta = params['_meta'] as Record<string, unknown> | undefined;
  const capabilities = meta?.['io.modelcontextprotocol/clientCapabilities'] as Record<string, unknown> | undefined;
  const extensions = capabilities?.['extensions'] as Record<string, unknown> | undefined;
  return extensions?.[tasksExtension] !== undefined;
}

function onTaskCall(id: Id): void {
  const taskId = `task-${tasks.size + 1}`;
  tasks.add(taskId);
  const at = new Date(0).toISOString();
  const task = { taskId, createdAt: at, lastUpdatedAt: at, ttl: 60_000 };
  send({ id, result: { resultType: 'task', ...task, status: 'working' } });
  process.stdout.write(
    jsonRpcLine({
      method: 'notifications/tasks',
      params: { ...task, status: 'completed', result: casesToolResult() },
    }),
  );
}

function onTaskGet(id: Id, taskId: string): void {
  if (!tasks.has(taskId)) return void send({ id, error: { code: -32602, message: `no task ${taskId}` } });
  const at = new Date(0).toISOString();
  send({
    id,
    result: { taskId, createdAt: at, lastUpdatedAt: at, ttl: 60_000, status: 'completed', result: casesToolResult() },
  });
}

function onMessage(message: Message): void {
  const { id, method } = message;
  if (method === undefined && id !== undefined) {
    waiting.get(id)?.(message);
    waiting.delete(id);
    return;
  }
  if (typeof method !== 'string' || id === undefined) return;
  const params = message.params ?? {};
  if (method === 'initialize') {
    const version = typeof params['protocolVersion'] === 'string' ? params['protocolVersion'] : '2025-06-18';
    return void send({
      id,
      result: {
        protocolVersion: version,
        capabilities: { tools: {}, resources: {}, prompts: {} },
        serverInfo: { name: 'parity', version: '1.0.0' },
      },
    });
  }
  if (method === 'server/discover' && modernEra)
    return void send({
      id,
      result: { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: {}, prompts: {} } },
    });
  if (method === 'ping') return void send({ id, result: {} });
  if (method === 'tools/list') {
    const tools = ['cases', 'sample'].map((name) => ({ name, inputSchema: { type: 'object' } }));
    return void send({ id, result: { tools } });
  }
  if (method === 'resources/list') {
    const resources = linkCases.map((c) => ({ uri: c.link.uri, name: c.link.name }));
    return void send({ id, result: { resources } });
  }
  if (method === 'prompts/get') {
    const messages = [
      { role: 'user', content: { type: 'text', text: 'read these' } },
      ...embeddedItems().map((content) => ({ role: 'user', content })),
    ];
    return void send({ id, result: { description: 'embedded resources', messages } });
  }
  if (method === 'tools/call' && params['name'] === 'sample') {
    const requestId = `sample-${nextId++}`;
    waiting.set(requestId, (answer) => {
      const result = answer.result as { content?: { text?: string } } | undefined;
      send({
        id,
        result: { content: [{ type: 'text', text: `the host answered: ${result?.content?.text ?? 'nothing'}` }] },
      });
    });
    return void send({
      id: requestId,
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: embeddedItems() }], maxTokens: 10 },
    });
  }
  if (method === 'tools/call' && modernEra && asksForTasks(params)) return onTaskCall(id);
  if (method === 'tools/call') return void send({ id, result: casesToolResult() });
  if (method === 'tasks/get' && modernEra) return onTaskGet(id, String(params['taskId'] ?? ''));
  if (method === 'resources/read') return onRead(id, String(params['uri'] ?? ''));
  send({ id, error: { code: -32601, message: `method not found: ${method}` } });
}

readStdinMessages(onMessage);
