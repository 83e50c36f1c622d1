import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gatedMethods } from '../../src/proxy/proxy-session.ts';
import { type RawHost, startEchoHost } from './raw-host.ts';

const reserved = new Set([...gatedMethods, 'initialize', 'test/emit', 'test/done']);
const method = fc.string({ minLength: 1, maxLength: 24 }).filter((m) => !reserved.has(m));
const params = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
const extra = fc.dictionary(
  fc.string({ maxLength: 8 }).filter((k) => !['jsonrpc', 'id', 'method', 'params', 'result', 'error'].includes(k)),
  fc.jsonValue({ maxDepth: 2 }),
  { maxKeys: 2 },
);
// ids are placeholders here and made fresh when a line is written: a request id in flight is never reused, even
// when fast-check runs a shrunk case again
const anyId = fc.oneof(fc.constant('string'), fc.constant('number'));
const notification = fc
  .record({ method, params: fc.option(params, { nil: undefined }), extra })
  .map(({ method: m, params: p, extra: e }) => ({
    ...e,
    jsonrpc: '2.0',
    method: m,
    ...(p === undefined ? {} : { params: p }),
  }));
const request = fc
  .record({ id: anyId, method, params, extra })
  .map(({ id, method: m, params: p, extra: e }) => ({ ...e, jsonrpc: '2.0', id, method: m, params: p }));
const response = fc
  .record({ id: anyId, result: fc.jsonValue({ maxDepth: 3 }), extra })
  .map(({ id, result, extra: e }) => ({ ...e, jsonrpc: '2.0', id, result }));
// how a peer may write a line: compact, or with spaces a JSON parser skips
const line = (value: fc.Arbitrary<unknown>) => fc.tuple(value, fc.constantFrom('', ' ', '\t'), fc.boolean());
type Line = [unknown, string, boolean];

let serial = 0;
function written([value, pad, spaced]: Line): string {
  const fresh = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(fresh);
    const m = v as Record<string, unknown>;
    if (m['id'] === 'string') return { ...m, id: `p-${++serial}` };
    if (m['id'] === 'number') return { ...m, id: 1_000_000 + ++serial };
    return m;
  };
  const json = JSON.stringify(fresh(value));
  return `${pad}${spaced ? json.replaceAll('":', '": ') : json}${pad}`;
}

// what a host may send that the gate does not judge: notifications, requests, answers to the server, batches of them
const fromHost = line(
  fc.oneof(notification, request, response, fc.array(fc.oneof(notification, request), { minLength: 1, maxLength: 3 })),
);
// what a server may send unasked: notifications and its own requests (answers go only to requests in flight)
const fromServer = line(fc.oneof(notification, request, fc.array(notification, { minLength: 1, maxLength: 3 })));

describe('forwarding fidelity', () => {
  let host: RawHost;
  let logFile: string;
  beforeAll(async () => {
    logFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-proxy-echo-')), 'lines.jsonl');
    host = await startEchoHost(logFile);
    // one round trip, so `notifications/initialized` is in the server's log before the first case counts lines
    const done = JSON.stringify({ jsonrpc: '2.0', method: 'test/done', params: { nonce: 'ready' } });
    host.send({ jsonrpc: '2.0', method: 'test/emit', params: { lines: [done] } });
    await host.waitFor((m) => (m['params'] as { nonce?: string } | undefined)?.nonce === 'ready');
  }, 30_000);
  afterAll(async () => {
    host.end();
    await host.exit;
  });

  const serverLines = async () =>
    (await readFile(logFile, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as string);

  test('every message the gate does not judge passes as the same bytes, both ways, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fromHost, { maxLength: 6 }),
        fc.array(fromServer, { maxLength: 6 }),
        async (ups, downs) => {
          const up = ups.map((l) => written(l as Line));
          const down = downs.map((l) => written(l as Line));
          const nonce = randomUUID();
          const seenUp = (await serverLines()).length;
          const seenDown = host.lines.length;
          for (const l of up) host.sendLine(l);
          const done = JSON.stringify({ jsonrpc: '2.0', method: 'test/done', params: { nonce } });
          host.send({ jsonrpc: '2.0', method: 'test/emit', params: { lines: [...down, done] } });
          await host.waitFor((m) => (m['params'] as { nonce?: string } | undefined)?.nonce === nonce, 15_000);
          const reached = (await serverLines()).slice(seenUp);
          expect(reached.slice(0, -1)).toEqual(up);
          expect(host.lines.slice(seenDown, -1)).toEqual(down);
        },
      ),
      { numRuns: 40 },
    );
  }, 300_000);
});
