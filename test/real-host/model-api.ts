// A scripted local model API for a real host run offline: it answers the Anthropic Messages API
// (`POST /v1/messages`, streamed as server-sent events) from a script of assistant turns, and records every
// request body so a test sees exactly what reached the model.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the scripted model makes: the tool's name as the host offers it, and its input. */
export interface ScriptedToolUse {
  name: string;
  input: Record<string, unknown>;
  /** the `tool_use` id; default `toolu_scripted_NN`, numbered from 01 in the order calls are made */
  id?: string;
}

/** One assistant turn: some text, tool calls, or both (tool calls end the turn with `stop_reason: tool_use`). */
export interface AssistantTurn {
  text?: string;
  toolUses?: ScriptedToolUse[];
}

/** A script step: a fixed turn, or one built from the request it answers (to act on a tool result). */
export type ScriptStep = AssistantTurn | ((request: ModelRequest) => AssistantTurn);

/** A request that reached the model API: method, path and the parsed JSON body (`null` when not JSON). */
export interface ModelRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  /** true when the body offers `tools`: an agent turn answered from the script */
  agentTurn: boolean;
}

/** A `tool_result` block as the model received it, keyed by the scripted `tool_use` id. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: unknown;
  is_error?: boolean;
}

/** A running scripted model API. */
export interface ModelApi {
  /** base URL for `ANTHROPIC_BASE_URL` (`http://127.0.0.1:PORT`) */
  url: string;
  /** every request received, in order */
  requests: ModelRequest[];
  /** stops the server and drops open connections */
  close(): Promise<void>;
}

/** The text answered once the script is used up, and to side requests (titles and the like). */
export const doneText = 'done';

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function contentBlocks(turn: AssistantTurn, nextId: () => string): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  if (turn.text !== undefined && turn.text !== '') blocks.push({ type: 'text', text: turn.text });
  for (const use of turn.toolUses ?? [])
    blocks.push({ type: 'tool_use', id: use.id ?? nextId(), name: use.name, input: use.input });
  if (blocks.length === 0) blocks.push({ type: 'text', text: doneText });
  return blocks;
}

function streamMessage(res: ServerResponse, model: string, id: string, blocks: Record<string, unknown>[]): void {
  const stopReason = blocks.some((b) => b['type'] === 'tool_use') ? 'tool_use' : 'end_turn';
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
  blocks.forEach((block, index) => {
    if (block['type'] === 'text') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block['text'] },
      });
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) },
      });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** How one model API speaks: which requests are agent turns, and how a turn is answered (or `false`: not ours). */
export interface ModelDialect {
  /** true when the request offers tools: an agent turn answered from the script */
  agentTurn(body: Record<string, unknown>): boolean;
  /** writes the answer for `turn` and returns true, or returns false for a request this API does not serve */
  answer(res: ServerResponse, request: ModelRequest, turn: AssistantTurn, nextId: () => string): boolean;
}

let messages = 0;

/** The Anthropic Messages API: `POST /v1/messages`, streamed when the body says `stream: true`. */
export const anthropicDialect: ModelDialect = {
  agentTurn(body) {
    const tools = body['tools'];
    return Array.isArray(tools) && tools.length > 0;
  },
  answer(res, request, turn, nextId) {
    const body = request.body;
    if (request.method !== 'POST' || request.path !== '/v1/messages' || body === null) return false;
    const model = typeof body['model'] === 'string' ? body['model'] : 'scripted';
    const id = `msg_scripted_${++messages}`;
    const blocks = contentBlocks(turn, nextId);
    if (body['stream'] === true) {
      streamMessage(res, model, id, blocks);
      return true;
    }
    const stopReason = blocks.some((b) => b['type'] === 'tool_use') ? 'tool_use' : 'end_turn';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    return true;
  },
};

/** Starts the scripted model API on 127.0.0.1 (a free port); agent turns take the script's steps in order. */
export async function startModelApi(
  script: readonly ScriptStep[],
  dialect: ModelDialect = anthropicDialect,
): Promise<ModelApi> {
  const requests: ModelRequest[] = [];
  let step = 0;
  let ids = 0;
  const nextId = () => `toolu_scripted_${String(++ids).padStart(2, '0')}`;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
          body = parsed as Record<string, unknown>;
      } catch {
        body = null;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const agentTurn = body !== null && dialect.agentTurn(body);
      const request: ModelRequest = { method: req.method ?? '', path: url.pathname, body, agentTurn };
      requests.push(request);
      const current = agentTurn ? script[step++] : undefined;
      const turn: AssistantTurn =
        current === undefined ? { text: doneText } : typeof current === 'function' ? current(request) : current;
      if (!dialect.answer(res, request, turn, nextId)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, message: `not scripted: ${req.method} ${url.pathname}` } }));
      }
    })().catch((e: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 500, message: String(e) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `tool_result` blocks the model received, by `tool_use` id (the last request that carried each wins). */
export function toolResultsOf(requests: readonly ModelRequest[]): Record<string, ToolResultBlock> {
  const out: Record<string, ToolResultBlock> = {};
  for (const request of requests) {
    const messages = request.body?.['messages'];
    if (!Array.isArray(messages)) continue;
    for (const message of messages as { role?: unknown; content?: unknown }[]) {
      if (message.role !== 'user' || !Array.isArray(message.content)) continue;
      for (const block of message.content as Record<string, unknown>[])
        if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string')
          out[block['tool_use_id']] = block as unknown as ToolResultBlock;
    }
  }
  return out;
}
