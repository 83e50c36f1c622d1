// The Gemini API side of the scripted model API: `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`
// (server-sent `data:` chunks) and `:generateContent` (one JSON answer), as Gemini CLI calls them offline.
import type { ServerResponse } from 'node:http';
import type { AssistantTurn, ModelDialect, ModelRequest } from './model-api.ts';

/** A `functionResponse` part as the model received it (Gemini's tool result). */
export interface FunctionResponsePart {
  id?: string;
  name: string;
  response: unknown;
}

function parts(turn: AssistantTurn, nextId: () => string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (turn.text !== undefined && turn.text !== '') out.push({ text: turn.text });
  for (const use of turn.toolUses ?? [])
    out.push({ functionCall: { id: use.id ?? nextId(), name: use.name, args: use.input } });
  if (out.length === 0) out.push({ text: 'done' });
  return out;
}

function candidateChunk(turnParts: Record<string, unknown>[]): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts: turnParts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'scripted',
  };
}

// Side requests (model routing, "who speaks next") ask for JSON by a response schema: they get the smallest
// value that fits it (first enum value, minimum number), which routes to the default model and ends the turn.
function fillSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as {
    type?: string;
    enum?: unknown[];
    minimum?: number;
    properties?: Record<string, unknown>;
    items?: unknown;
  };
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch ((s.type ?? 'object').toLowerCase()) {
    case 'string':
      return 'scripted';
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fillSchema(v)]));
  }
}

function jsonText(body: Record<string, unknown>): string | undefined {
  const config = body['generationConfig'] as
    | { responseMimeType?: unknown; responseSchema?: unknown; responseJsonSchema?: unknown }
    | undefined;
  if (config?.responseMimeType !== 'application/json') return undefined;
  return JSON.stringify(fillSchema(config.responseJsonSchema ?? config.responseSchema));
}

/** The Gemini API dialect for `startModelApi`. */
export const geminiDialect: ModelDialect = {
  agentTurn(body) {
    const tools = body['tools'];
    return (
      Array.isArray(tools) &&
      tools.some((t) => Array.isArray((t as { functionDeclarations?: unknown }).functionDeclarations)) &&
      jsonText(body) === undefined
    );
  },
  answer(res: ServerResponse, request: ModelRequest, turn: AssistantTurn, nextId: () => string) {
    const body = request.body;
    const match = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/.exec(
      request.path,
    );
    if (request.method !== 'POST' || match === null || body === null) return false;
    if (match[1] === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 1 }));
      return true;
    }
    const json = jsonText(body);
    const turnParts = json === undefined ? parts(turn, nextId) : [{ text: json }];
    if (match[1] === 'streamGenerateContent') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`data: ${JSON.stringify(candidateChunk(turnParts))}\r\n\r\n`);
      res.end();
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(candidateChunk(turnParts)));
    return true;
  },
};

/** The `functionResponse` parts the model received, by function-call id (or name when the host sent no id); the last request wins. */
export function functionResponsesOf(requests: readonly ModelRequest[]): Record<string, FunctionResponsePart> {
  const out: Record<string, FunctionResponsePart> = {};
  for (const request of requests) {
    const contents = request.body?.['contents'];
    if (!Array.isArray(contents)) continue;
    for (const content of contents as { parts?: unknown }[]) {
      if (!Array.isArray(content.parts)) continue;
      for (const part of content.parts as { functionResponse?: FunctionResponsePart }[]) {
        const fr = part.functionResponse;
        if (fr !== undefined && typeof fr.name === 'string') out[fr.id ?? fr.name] = fr;
      }
    }
  }
  return out;
}
