import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, test } from 'vitest';
import { GateError } from '../../src/errors.ts';
import { cappedFetch } from '../../src/fetch/capped-fetch.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { leakedResources, resourceCensus } from '../reliability/wire-harness.ts';
import { defaultPolicyWith } from './fake-gate.ts';
import { waitUntil } from '../helpers/wait-until.ts';
import { memoryPeak } from '../helpers/memory-peak.ts';

/** Size of the hostile body the local server streams, bytes, generated while it is written. */
const floodBytes = 200 * 1024 * 1024;
/** Growth of heap + array buffers the client may show while refusing the flood, bytes. */
const maxGrowthBytes = 64 * 1024 * 1024;

/** A body of `chunks` (sizes in bytes, each filled with its 1-based index) that is pulled only on demand, counting pulls. */
function countedSource(chunks: readonly number[]) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const size = chunks[state.pulled++];
        if (size === undefined) controller.close();
        else controller.enqueue(new Uint8Array(size).fill(state.pulled));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const fakeFetch = (response: Response): FetchLike & { calls: [string | URL, RequestInit | undefined][] } => {
  const calls: [string | URL, RequestInit | undefined][] = [];
  return Object.assign(async (url: string | URL, init?: RequestInit) => (calls.push([url, init]), response), { calls });
};

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('cappedFetch', () => {
  test.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('refuses the cap `%s`', (cap) => {
    expect(() => cappedFetch(cap)).toThrow(GateError);
    expect(() => cappedFetch(cap)).toThrow(/^byte cap `.+` must be a whole number ≥ 1$/);
  });

  test.each([
    { chunks: [], cap: 1 },
    { chunks: [1, 1, 1], cap: 3 },
    { chunks: [10, 10], cap: 20 },
    { chunks: [4096, 4096, 1], cap: 8193 },
  ])('passes $chunks bytes under a cap of $cap unchanged', async ({ chunks, cap }) => {
    const { stream } = countedSource(chunks);
    const body = new Uint8Array(await new Response(stream).arrayBuffer());
    const fetchImpl = fakeFetch(new Response(countedSource(chunks).stream));
    const got = new Uint8Array(await (await cappedFetch(cap, fetchImpl)('https://mcp.example.com/mcp')).arrayBuffer());
    expect(got).toEqual(body);
  });

  test.each([
    { chunks: [10, 11], cap: 20 },
    { chunks: [21], cap: 20 },
    { chunks: [1, 1], cap: 1 },
    { chunks: Array.from({ length: 1000 }, () => 10), cap: 25 },
  ])('errors a body of $chunks.length chunk(s) past a cap of $cap, and stops reading it', async ({ chunks, cap }) => {
    const { stream, state } = countedSource(chunks);
    const response = await cappedFetch(
      cap,
      fakeFetch(new Response(stream)),
    )('https://mcp.example.com/mcp?token=secret');
    const error = await failure(response.arrayBuffer());
    expect(error).toBeInstanceOf(GateError);
    expect(error).toMatchObject({
      code: 'READ_FAILED',
      message: `response from \`https://mcp.example.com/mcp?token=\` passed the \`${cap}\` byte cap while streaming`,
    });
    expect(state.cancelled).toBe(true);
    // at most a chunk or two of read-ahead past the one that crossed the cap
    expect(state.pulled).toBeLessThanOrEqual(Math.ceil(cap / (chunks[0] ?? 1)) + 3);
  });

  test('refuses a declared content-length over the cap before reading a byte', async () => {
    const { stream, state } = countedSource([100]);
    const error = await failure(
      cappedFetch(
        99,
        fakeFetch(new Response(stream, { headers: { 'content-length': '100' } })),
      )('https://mcp.example.com/mcp'),
    );
    expect(error).toMatchObject({
      code: 'READ_FAILED',
      message: 'response from `https://mcp.example.com/mcp` declares `100` bytes, over the `99` byte cap',
    });
    expect(state).toEqual({ pulled: 0, cancelled: true });
  });

  test('keeps status, headers, url and redirect facts, and passes url and init through', async () => {
    const original = new Response(countedSource([5]).stream, {
      status: 307,
      statusText: 'Temporary Redirect',
      headers: { location: '/next', 'mcp-session-id': 's1' },
    });
    Object.defineProperties(original, { url: { value: 'https://mcp.example.com/mcp' }, redirected: { value: true } });
    const fetchImpl = fakeFetch(original);
    const init: RequestInit = { method: 'POST', body: '{}', signal: new AbortController().signal };
    const response = await cappedFetch(10, fetchImpl)(new URL('https://mcp.example.com/mcp'), init);
    expect(fetchImpl.calls).toEqual([[new URL('https://mcp.example.com/mcp'), init]]);
    expect(response).not.toBe(original);
    expect([response.status, response.statusText, response.url, response.redirected, response.type]).toEqual([
      307,
      'Temporary Redirect',
      'https://mcp.example.com/mcp',
      true,
      original.type,
    ]);
    expect([response.headers.get('location'), response.headers.get('mcp-session-id')]).toEqual(['/next', 's1']);
  });

  test.each([204, 304])('returns a response without a body (%s) as it is', async (status) => {
    const original = new Response(null, { status });
    expect(await cappedFetch(1, fakeFetch(original))('https://mcp.example.com/mcp')).toBe(original);
  });

  test('a consumer that stops reading cancels the source', async () => {
    const { stream, state } = countedSource(Array.from({ length: 100 }, () => 8));
    const response = await cappedFetch(1024, fakeFetch(new Response(stream)))('https://mcp.example.com/mcp');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    // the cancel travels back through the pipe asynchronously
    await waitUntil('the source cancelled', () => (state.cancelled ? true : undefined));
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });
});

/** A local server that streams `floodBytes` of `contentType` (no content-length unless `declare`), honouring backpressure. */
async function startFloodServer(contentType: string, declare: boolean) {
  // bytes written, whether all were, and a promise settled when the response has closed
  const sent = { written: 0, complete: false, closed: Promise.resolve() };
  const send = async (res: ServerResponse) => {
    sent.closed = new Promise((closed) => res.once('close', () => closed()));
    res.writeHead(200, { 'content-type': contentType, ...(declare ? { 'content-length': String(floodBytes) } : {}) });
    const filler = Buffer.alloc(64 * 1024, contentType === 'text/event-stream' ? 'd' : 'a');
    let gone = false;
    let wake: (() => void) | null = null;
    res.on('close', () => {
      gone = true;
      wake?.();
    });
    res.on('drain', () => wake?.());
    while (!gone && sent.written < floodBytes) {
      sent.written += filler.length;
      if (!res.write(filler) && !gone) await new Promise<void>((resolve) => (wake = resolve));
    }
    if (gone) return;
    sent.complete = true;
    res.end();
  };
  const http = createServer((_req, res) => void send(res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    sent,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe('cappedFetch against a local server sending 200 MiB', () => {
  test.each([
    { contentType: 'application/json', declare: false, read: 'json' },
    { contentType: 'text/event-stream', declare: false, read: 'stream' },
    { contentType: 'application/json', declare: true, read: 'json' },
  ] as const)(
    '$contentType (declared length: $declare) is cut at the default policy cap with memory bounded',
    async ({ contentType, declare, read }) => {
      const before = resourceCensus();
      const cap = connectionByteCap(await defaultPolicyWith());
      const server = await startFloodServer(contentType, declare);
      const memory = memoryPeak();
      let error: unknown;
      try {
        error = await failure(
          (async () => {
            const response = await cappedFetch(cap)(server.url, { method: 'POST', body: '{}' });
            if (read === 'json') return response.json();
            // an SSE consumer reads chunk by chunk, as the SDK's event parser does, and keeps nothing
            const reader = (response.body as ReadableStream<Uint8Array>).getReader();
            for (;;) if ((await reader.read()).done) return undefined;
          })(),
        );
      } finally {
        memory.stop();
      }
      expect(error).toBeInstanceOf(GateError);
      expect((error as GateError).message).toMatch(
        declare ? /declares `209715200` bytes, over the `\d+` byte cap$/ : /passed the `\d+` byte cap while streaming$/,
      );
      // the server sees the connection go away: it never writes the whole body
      await server.sent.closed;
      expect(server.sent.complete).toBe(false);
      expect(server.sent.written).toBeLessThan(cap + 16 * 1024 * 1024);
      expect(memory.peak()).toBeLessThan(maxGrowthBytes);
      console.info(
        `[capped-fetch ${contentType}${declare ? ' declared' : ''}] cap ${(cap / 2 ** 20).toFixed(1)} MiB; server wrote ${(server.sent.written / 2 ** 20).toFixed(1)} MiB; peak heap+arrayBuffers growth ${(memory.peak() / 2 ** 20).toFixed(1)} MiB`,
      );
      await server.close();
      expect(await leakedResources(before)).toEqual({});
    },
  );
});
