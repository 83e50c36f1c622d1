// The one hostile MCP server of the parity test (stdio, JSON-RPC written by hand so it can misbehave): tool `cases`
// returns every case of parity-cases.ts, `resources/read` answers each link as its case says, prompt `embedded`
// and tool `sample` (a `sampling/createMessage` request to the host) carry the embedded cases too.
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

const send = (message: Record<string, unknown>) => process.stdout.write(jsonRpcLine(message));
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
  if (method === 'tools/call') return void send({ id, result: casesToolResult() });
  if (method === 'resources/read') return onRead(id, String(params['uri'] ?? ''));
  send({ id, error: { code: -32601, message: `method not found: ${method}` } });
}

readStdinMessages(onMessage);
