import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { GateError } from '../errors.ts';
import { maskUri } from '../link/mask-uri.ts';
import { cappedFetch } from '../fetch/capped-fetch.ts';
import { responseWithBody } from '../fetch/response-with-body.ts';
import { isJsonRpcId, messageShape, type JsonRpcId } from '../flow/json-rpc-shape.ts';
import { modernHeadersFetch, type ParsedBodyFetch } from './modern-request-headers.ts';

/** Most same-origin 307/308 redirects followed for one request. */
export const maxUpstreamRedirects = 5;

/** Told which requests lost their answer: the event stream of the POST that carried them broke (the byte cap, a reset). */
export type BrokenAnswers = (ids: readonly JsonRpcId[], why: string) => void;

/**
 * A fetch that only ever talks to `origin` (scheme + host + port): a request or redirect to any other origin is
 * refused before it is sent, so the `--header` credentials never leave the server they were given for. Only 307/308
 * redirects within the origin are followed (they keep the method and body); any other redirect is returned as is.
 */
export function sameOriginFetch(origin: string, fetchImpl: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    let target = new URL(String(input));
    for (let hop = 0; ; hop += 1) {
      if (target.origin !== origin)
        throw new GateError(
          'READ_FAILED',
          `refused a request to \`${maskUri(target.href)}\`: not the origin \`${origin}\``,
        );
      const response = await fetchImpl(target, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if ((response.status !== 307 && response.status !== 308) || location === null) return response;
      await response.body?.cancel().catch(() => {});
      if (hop >= maxUpstreamRedirects)
        throw new GateError(
          'READ_FAILED',
          `more than \`${maxUpstreamRedirects}\` redirects from \`${maskUri(target.href)}\``,
        );
      target = new URL(location, target);
    }
  };
}

/**
 * A fetch that reports the requests of a POST whose event-stream answer breaks, or ends before it carried their
 * answers. The SDK transport has already resolved `send` for them and would wait for those answers forever. Their ids
 * come from the body as `modernHeadersFetch` parsed it (`message`).
 */
export function brokenStreamFetch(onBroken: BrokenAnswers, fetchImpl: FetchLike): ParsedBodyFetch {
  return async (input, init, message) => {
    const response = await fetchImpl(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (init?.method !== 'POST' || response.body === null || !type.startsWith('text/event-stream')) return response;
    const ids = requestIds(message);
    if (ids.length === 0) return response;
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const answers = eventStreamAnswers();
    const watched = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (!done) {
            answers.push(value);
            controller.enqueue(value);
            return;
          }
          answers.end();
          const unanswered = ids.filter((id) => !answers.answered.has(id));
          if (unanswered.length > 0) onBroken(unanswered, 'the event stream ended before its answer');
          controller.close();
        } catch (error) {
          onBroken(ids, error instanceof GateError ? error.message : 'the answer stream broke');
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return responseWithBody(response, watched);
  };
}

/**
 * The Streamable HTTP transport to `url`: every response capped at `maxBytes`, `headers` sent to its origin only, the
 * standard 2026-07-28 request headers written from each body;
 * `onBroken` hears of requests whose streamed answer broke (so they can fail instead of waiting).
 */
export function httpUpstream(
  url: URL,
  headers: ReadonlyArray<readonly [string, string]>,
  maxBytes: number,
  onBroken: BrokenAnswers,
): Transport {
  return new StreamableHTTPClientTransport(url, {
    fetch: modernHeadersFetch(brokenStreamFetch(onBroken, cappedFetch(maxBytes, sameOriginFetch(url.origin)))),
    requestInit: { headers: Object.fromEntries(headers) },
  });
}

/**
 * The ids of the JSON-RPC answers an event stream carries, read from its bytes as they pass (SSE: `data` lines
 * joined, an event ends at a blank line; events named other than `message` carry no message).
 */
function eventStreamAnswers(): { push(chunk: Uint8Array): void; end(): void; readonly answered: Set<JsonRpcId> } {
  const decoder = new TextDecoder();
  const answered = new Set<JsonRpcId>();
  let partial = '';
  let data: string[] = [];
  let event = '';
  const dispatch = () => {
    if (data.length > 0 && (event === '' || event === 'message')) {
      try {
        const parsed: unknown = JSON.parse(data.join('\n'));
        for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
          const shape = messageShape(m);
          if (shape.kind === 'answer') answered.add(shape.id);
        }
      } catch {
        // not JSON: no answer in it (the SDK reports it)
      }
    }
    data = [];
    event = '';
  };
  const onLine = (line: string) => {
    if (line === '') return dispatch();
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + (line.charCodeAt(colon + 1) === 32 ? 2 : 1));
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  return {
    answered,
    push(chunk) {
      const lines = (partial + decoder.decode(chunk, { stream: true })).split(/\r\n|\r|\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    },
    // an event the stream did not finish (no blank line after it) is not dispatched: no answer in it counts
    end() {
      partial = '';
      data = [];
    },
  };
}

// the ids of the requests in a JSON-RPC body the SDK wrote (one message or a batch), as parsed (null: not JSON)
function requestIds(parsed: unknown): JsonRpcId[] {
  const ids: JsonRpcId[] = [];
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    const { id, method } = (m ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && isJsonRpcId(id)) ids.push(id);
  }
  return ids;
}
