// The OpenAI Chat Completions side of the scripted model API, as the hosts that take an OpenAI-compatible provider
// call it offline (Cline CLI `-P openai-compatible` with a base URL): `POST /v1/chat/completions` streamed as
// server-sent `chat.completion.chunk`s ending in `data: [DONE]`; the next request's `messages[]` holds each
// `{role: "tool", tool_call_id, content}`, exactly what the model saw of a tool call.
import type { ServerResponse } from 'node:http';
import type { AssistantTurn, ModelDialect, ModelRequest } from './model-api.ts';

/** A `tool` message as the model received it: the tool's result for one call id. */
export interface ToolMessage {
  role: 'tool';
  tool_call_id: string;
  /** the text the model read (a string), or content parts */
  content: unknown;
}

let completions = 0;

function chunk(res: ServerResponse, id: string, model: string, delta: unknown, finish: string | null): void {
  const data = {
    id,
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

/** The Chat Completions dialect for `startModelApi`: every `POST …/chat/completions` that offers tools is an agent turn. */
export const chatCompletionsDialect: ModelDialect = {
  agentTurn(body) {
    return Array.isArray(body['tools']) && body['tools'].length > 0;
  },
  answer(res, request: ModelRequest, turn: AssistantTurn, nextId) {
    if (request.method === 'GET' && request.path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model', owned_by: 'scripted' }] }));
      return true;
    }
    if (request.method !== 'POST' || !request.path.endsWith('/chat/completions') || request.body === null) return false;
    const id = `chatcmpl_scripted_${++completions}`;
    const model = typeof request.body['model'] === 'string' ? request.body['model'] : 'scripted';
    const uses = turn.toolUses ?? [];
    const text = turn.text ?? (uses.length === 0 ? 'done' : undefined);
    const calls = uses.map((use, index) => ({
      index,
      id: use.id ?? nextId(),
      type: 'function',
      function: { name: use.name, arguments: JSON.stringify(use.input) },
    }));
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
    if (request.body['stream'] !== true) {
      res.writeHead(200, { 'content-type': 'application/json' });
      const message = { role: 'assistant', content: text ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
      const finish = calls.length > 0 ? 'tool_calls' : 'stop';
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message, finish_reason: finish }],
          usage,
        }),
      );
      return true;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    chunk(res, id, model, { role: 'assistant', content: '' }, null);
    if (text !== undefined && text !== '') chunk(res, id, model, { content: text }, null);
    if (calls.length > 0) chunk(res, id, model, { tool_calls: calls }, null);
    chunk(res, id, model, {}, calls.length > 0 ? 'tool_calls' : 'stop');
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices: [], usage })}\n\n`,
    );
    res.write('data: [DONE]\n\n');
    res.end();
    return true;
  },
};

/** The `tool` messages the model received, by call id (the last request that carried each wins). */
export function toolMessagesOf(requests: readonly ModelRequest[]): Record<string, ToolMessage> {
  const out: Record<string, ToolMessage> = {};
  for (const request of requests) {
    const messages = request.body?.['messages'];
    if (!Array.isArray(messages)) continue;
    for (const message of messages as Record<string, unknown>[])
      if (message['role'] === 'tool' && typeof message['tool_call_id'] === 'string')
        out[message['tool_call_id']] = message as unknown as ToolMessage;
  }
  return out;
}

/** What the model read of a tool call: the content text, or the text of its parts joined. */
export function toolMessageText(message: ToolMessage | undefined): string {
  if (message === undefined) return '';
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content))
    return message.content
      .map((part: unknown) =>
        part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : JSON.stringify(part),
      )
      .join('\n');
  return JSON.stringify(message.content);
}
