import { afterEach, describe, expect, test, vi } from 'vitest';
import type { JsonRpcId } from '../../src/flow/json-rpc-shape.ts';
import { brokenStreamFetch } from '../../src/proxy/http-upstream.ts';
import { modernHeadersFetch, protocolVersionMetaKey } from '../../src/proxy/modern-request-headers.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

// the two layers of `proxy --url` that read a request body, in the order `httpUpstream` stacks them, over a fetch that
// answers with an event stream that ends before the answer
function chain(onBroken: (ids: readonly JsonRpcId[]) => void) {
  const sent: Headers[] = [];
  const fetched = async (_input: string | URL, init?: RequestInit) => {
    sent.push(new Headers(init?.headers));
    return new Response('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n', {
      headers: { 'content-type': 'text/event-stream' },
    });
  };
  return { fetch: modernHeadersFetch(brokenStreamFetch((ids) => onBroken(ids), fetched)), sent };
}

describe('proxy --url: each request body is parsed once', () => {
  test('the standard headers and the ids of a broken stream both come from one parse of the body', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'search', _meta: { [protocolVersionMetaKey]: '2026-07-28' } },
    });
    const parse = vi.spyOn(JSON, 'parse');
    const broken: JsonRpcId[][] = [];
    const { fetch, sent } = chain((ids) => broken.push([...ids]));
    const response = await fetch('https://mcp.example.com/mcp', { method: 'POST', body });
    await response.text();
    // both layers used the body: the headers name the call, and the stream that ended without its answer names id 7
    expect(sent[0]?.get('mcp-method')).toBe('tools/call');
    expect(sent[0]?.get('mcp-name')).toBe('search');
    expect(broken).toEqual([[7]]);
    expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
  });

  test('a body that is not JSON is parsed once and no request is reported', async () => {
    const body = '{"jsonrpc":"2.0","id":8,';
    const parse = vi.spyOn(JSON, 'parse');
    const broken: JsonRpcId[][] = [];
    const { fetch, sent } = chain((ids) => broken.push([...ids]));
    await (await fetch('https://mcp.example.com/mcp', { method: 'POST', body })).text();
    expect(sent[0]?.get('mcp-method')).toBeNull();
    expect(broken).toEqual([]);
    expect(parse.mock.calls.filter(([text]) => text === body)).toHaveLength(1);
  });
});
