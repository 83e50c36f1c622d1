import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gatedFetch } from '../../src/fetch/gated-fetch.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { fetchPolicy, originOf, tableResolver, type PolicyChanges } from './support/fetch-policy.ts';
import { startServer, type LocalServer } from './support/local-server.ts';

const MiB = 1024 * 1024;
/** The flood a hostile server offers, bytes. */
const floodBytes = 100 * MiB;
/** The policy cap in these tests, bytes. */
const capBytes = 1 * MiB;
/** Growth of heap plus array buffers we accept while a 100 MiB body is cut at 1 MiB, bytes. */
const memoryBudgetBytes = 24 * MiB;

let server: LocalServer;
let sentBytes = 0;
/** Settles when the flood's response closes: the client cut the socket, or the flood was all sent. */
let floodClosed: Promise<void> = Promise.resolve();
const resolve = tableResolver({ 'files.example.com': ['127.0.0.1'] });
const url = (path: string) => `http://files.example.com:${server.port}${path}`;

function gateWith(changes: Partial<PolicyChanges> = {}) {
  return createGate(
    fetchPolicy({
      origins: [originOf('http', 'files.example.com', server.port)],
      read: { maxBytes: capBytes },
      ...changes,
    }),
    { resolve },
  );
}

/** Streams `total` bytes of text with backpressure, counting what the socket accepted. */
function flood(response: ServerResponse, total: number, headers: Record<string, string> = {}): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  sentBytes = 0;
  floodClosed = new Promise((closed) => response.once('close', () => closed()));
  response.writeHead(200, { 'content-type': 'text/plain', ...headers });
  const pump = (): void => {
    while (sentBytes < total && !response.destroyed) {
      sentBytes += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
    if (!response.destroyed) response.end();
  };
  pump();
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('a 100 MiB body under a 1 MiB cap', () => {
  test('is cut at the cap (partial), the stream cancelled and memory bounded', async () => {
    server.handle((_request, response) => flood(response, floodBytes));
    const before = process.memoryUsage();
    const result = await gatedFetch(
      gateWith({ fetch: { overCap: 'partial' } }),
      { url: url('/flood.txt') },
      { resolve },
    );
    const after = process.memoryUsage();
    const growth = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    console.info(
      `fetch memory: heap+arrayBuffers grew ${(growth / MiB).toFixed(1)} MiB, rss grew ${((after.rss - before.rss) / MiB).toFixed(1)} MiB; server pushed ${(sentBytes / MiB).toFixed(1)} MiB of ${floodBytes / MiB} MiB`,
    );
    expect(result).toMatchObject({ bytes: capBytes, truncated: true });
    expect(result.decision.effect).toBe('partial');
    expect(result.decision.reasons).toContainEqual(
      expect.objectContaining({ code: 'content.too-large', rule: 'fetch.overCap' }),
    );
    expect(result.body?.length).toBe(capBytes);
    expect(growth).toBeLessThan(memoryBudgetBytes);
    // the server could not push the flood: the client destroyed the socket at the cap
    await floodClosed;
    expect(sentBytes).toBeLessThan(floodBytes / 4);
  });

  test('with overCap deny and no content-length it is denied at the cap, by the byte counter', async () => {
    server.handle((_request, response) => flood(response, floodBytes));
    const result = await gatedFetch(gateWith({ fetch: { overCap: 'deny' } }), { url: url('/flood.txt') }, { resolve });
    expect(result.decision.reasons.map((r) => r.code)).toEqual(['content.too-large']);
    expect(result.body).toBeUndefined();
    expect(result).toMatchObject({ bytes: capBytes, truncated: true });
  });

  test('a declared content-length over the cap is refused before reading (overCap deny)', async () => {
    server.handle((_request, response) => flood(response, floodBytes, { 'content-length': String(floodBytes) }));
    const result = await gatedFetch(gateWith({ fetch: { overCap: 'deny' } }), { url: url('/big.txt') }, { resolve });
    expect(result.decision.reasons[0]).toMatchObject({ code: 'content.too-large', rule: 'read.maxBytes' });
    expect(result.bytes).toBe(0);
  });

  test('a declared content-length over the cap still reads up to the cap under overCap partial', async () => {
    server.handle((_request, response) => flood(response, 2 * capBytes, { 'content-length': String(2 * capBytes) }));
    const result = await gatedFetch(gateWith({ fetch: { overCap: 'partial' } }), { url: url('/big.txt') }, { resolve });
    expect(result).toMatchObject({ bytes: capBytes, truncated: true });
    expect(result.decision.effect).toBe('partial');
  });
});

describe('the read deadline', () => {
  test('a server that stalls mid-body ends at `read.readTimeoutMs`', async () => {
    const readTimeoutMs = 400;
    server.handle((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10000' });
      response.write(Buffer.alloc(1000, 'a'));
      // and never another byte
    });
    const started = performance.now();
    const result = await gatedFetch(
      gateWith({ read: { maxBytes: capBytes, readTimeoutMs } }),
      { url: url('/stall.txt') },
      { resolve },
    );
    const elapsed = performance.now() - started;
    expect(result.decision.reasons[0]).toMatchObject({ code: 'read.timeout', rule: 'read.readTimeoutMs' });
    expect(result.bytes).toBe(1000);
    expect(result.body).toBeUndefined();
    expect(elapsed).toBeGreaterThanOrEqual(readTimeoutMs - 20);
  });

  test('a server that never answers the request ends at the deadline', async () => {
    server.handle(() => {});
    const result = await gatedFetch(
      gateWith({ read: { maxBytes: capBytes, readTimeoutMs: 300 } }),
      { url: url('/silent') },
      { resolve },
    );
    expect(result.decision.reasons[0]).toMatchObject({ code: 'read.timeout' });
    expect(result.status).toBeNull();
  });
});
