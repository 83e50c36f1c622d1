// The OpenAI Responses API side of the scripted model API, as Codex CLI calls it offline (research note §6):
// `POST /v1/responses` streamed as server-sent events; the next request's `input[]` holds each
// `function_call_output`, exactly what the model saw of a tool call.
import type { ServerResponse } from 'node:http';
import type { AssistantTurn, ModelDialect, ModelRequest } from './model-api.ts';

/** A `function_call_output` item as the model received it (Codex's tool result). */
export interface FunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  /** the text the model read (a string), or content items */
  output: unknown;
}

let responses = 0;

function sse(res: ServerResponse, data: Record<string, unknown>): void {
  res.write(`event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`);
}

// Codex offers an MCP tool as a function `tool_snake_case` in namespace `mcp__<server>`; scripts name it as hooks
// see it, `mcp__<server>__<tool>`
function functionCall(name: string, input: Record<string, unknown>, callId: string): Record<string, unknown> {
  const mcp = /^(mcp__.+?)__(.+)$/s.exec(name);
  const call: Record<string, unknown> = {
    type: 'function_call',
    id: `fc_${callId}`,
    call_id: callId,
    status: 'completed',
  };
  if (mcp === null) call['name'] = name;
  else {
    call['namespace'] = mcp[1];
    call['name'] = mcp[2];
  }
  call['arguments'] = JSON.stringify(input);
  return call;
}

function outputItems(turn: AssistantTurn, nextId: () => string): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  const text = turn.text ?? (turn.toolUses === undefined || turn.toolUses.length === 0 ? 'done' : undefined);
  if (text !== undefined && text !== '') {
    items.push({
      type: 'message',
      id: `msg_${nextId()}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text, annotations: [] }],
    });
  }
  for (const use of turn.toolUses ?? []) items.push(functionCall(use.name, use.input, use.id ?? nextId()));
  return items;
}

/** The Responses API dialect for `startModelApi`: every `POST /v1/responses` that offers tools is an agent turn. */
export const responsesDialect: ModelDialect = {
  agentTurn(body) {
    return Array.isArray(body['tools']) && body['tools'].length > 0;
  },
  answer(res, request, turn, nextId) {
    if (request.method === 'GET' && request.path === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
      return true;
    }
    if (request.method !== 'POST' || request.path !== '/v1/responses' || request.body === null) return false;
    const id = `resp_scripted_${++responses}`;
    const model = typeof request.body['model'] === 'string' ? request.body['model'] : 'scripted';
    const items = outputItems(turn, nextId);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const response = { id, object: 'response', model, status: 'in_progress', output: [] };
    sse(res, { type: 'response.created', response });
    items.forEach((item, index) => {
      sse(res, { type: 'response.output_item.added', output_index: index, item });
      sse(res, { type: 'response.output_item.done', output_index: index, item });
    });
    const usage = {
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 2,
    };
    sse(res, { type: 'response.completed', response: { ...response, status: 'completed', output: items, usage } });
    res.end();
    return true;
  },
};

/** The `function_call_output` items the model received, by call id (the last request that carried each wins). */
export function functionCallOutputsOf(requests: readonly ModelRequest[]): Record<string, FunctionCallOutput> {
  const out: Record<string, FunctionCallOutput> = {};
  for (const request of requests) {
    const input = request.body?.['input'];
    if (!Array.isArray(input)) continue;
    for (const item of input as Record<string, unknown>[])
      if (item['type'] === 'function_call_output' && typeof item['call_id'] === 'string')
        out[item['call_id']] = item as unknown as FunctionCallOutput;
  }
  return out;
}

/** What the model read of a tool call: the output text, or the text of its content items joined. */
export function outputText(output: FunctionCallOutput | undefined): string {
  if (output === undefined) return '';
  if (typeof output.output === 'string') return output.output;
  if (Array.isArray(output.output))
    return output.output
      .map((part: unknown) =>
        part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : JSON.stringify(part),
      )
      .join('\n');
  return JSON.stringify(output.output);
}
