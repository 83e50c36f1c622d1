import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { decisionMetaKey, gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { memoryPeer, settled } from './memory-peers.ts';
import { shippedPolicy } from './proxy-helpers.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';

type Json = Record<string, unknown>;

const script = { uri: 'demo://x/run.sh', mimeType: 'text/plain', text: '#!/bin/sh\nrm -rf ~\n' };
const plain = (uri: string) => ({ uri, mimeType: 'text/plain', text: 'plain words\n' });
const request = (id: number, method: string, params: Json = {}) => ({ jsonrpc: '2.0', id, method, params });

// a proxy session between two in-memory peers; records go to a sink whose writes wait until `release` is called
async function session() {
  const host = memoryPeer();
  const server = memoryPeer();
  const records: LinkRecord[] = [];
  let release: () => void = () => {};
  let held: Promise<void> | null = null;
  const sink = callbackSink(async (r) => {
    // finished records only: the discovery records the decorator writes through `write` are not held or kept
    if (recordKindOf(r) === 'discovered') return;
    records.push(r);
    if (held !== null) await held;
  });
  const gate = createGate(await loadPolicy(shippedPolicy('default')));
  // the read decision loads on a gate's first read (issue 42): load it now, so `settled()` (a number of turns of the
  // event loop, with no file read in them) covers a whole judged answer
  await gate.decideEmbedded({ uri: 'demo://warm', mimeType: 'text/plain', text: '' });
  const warnings: string[] = [];
  const running = proxySession(host.transport, server.transport, {
    gate,
    server: 'mem',
    sink,
    warn: (w) => warnings.push(w),
  });
  await running.start();
  return {
    host,
    server,
    records,
    warnings,
    holdRecords() {
      held = new Promise((resolve) => {
        release = () => {
          held = null;
          resolve();
        };
      });
    },
    release: () => release(),
    // what the host got for `id`, after everything in flight settled
    async answersFor(id: number) {
      await settled();
      return host.received.filter((m) => (m as Json)['id'] === id) as Json[];
    },
  };
}

describe('answers are matched only to requests that were sent', () => {
  test('an answer that comes before its read was sent never reaches the host, even while records are written', async () => {
    const s = await session();
    s.holdRecords();
    // a denied read: its record write is held, as a slow records file holds it
    s.host.deliver(request(1, 'resources/read', { uri: 'file:///etc/passwd' }));
    await settled();
    // the server answers id 2 before the host has asked anything under that id
    s.server.deliver({ jsonrpc: '2.0', id: 2, result: { contents: [script] } });
    s.host.deliver(request(2, 'resources/read', { uri: script.uri }));
    await s.server.waitFor((m) => m['id'] === 2);
    s.release();
    expect(await s.answersFor(2)).toEqual([]);
    expect(s.warnings.join('\n')).toContain('no request is waiting on');
    // the real answer, after the read went out, is judged
    s.server.deliver({ jsonrpc: '2.0', id: 2, result: { contents: [script] } });
    const [answer] = await s.answersFor(2);
    expect((answer?.['error'] as Json)['code']).toBe(gateErrorCode);
    expect(String((answer?.['error'] as Json)['message'])).toContain('content.executable');
  });

  test('an unrelated answer is not held behind records being written', async () => {
    const s = await session();
    s.holdRecords();
    s.host.deliver(request(1, 'resources/read', { uri: 'file:///etc/passwd' }));
    s.host.deliver(request(2, 'ping'));
    await s.server.waitFor((m) => m['id'] === 2);
    s.server.deliver({ jsonrpc: '2.0', id: 2, result: {} });
    expect(await s.answersFor(2)).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    expect(await s.answersFor(1)).toEqual([]);
    s.release();
    expect((((await s.answersFor(1))[0] as Json)['error'] as Json)['code']).toBe(gateErrorCode);
  });
});

describe('malformed messages from the server never reach the host', () => {
  test.each([
    [
      'both result and error',
      (id: number) => ({ jsonrpc: '2.0', id, result: { contents: [script] }, error: { code: 1, message: 'x' } }),
    ],
    ['method null', (id: number) => ({ jsonrpc: '2.0', id, method: null, result: { contents: [script] } })],
    ['no jsonrpc', (id: number) => ({ id, result: { contents: [script] } })],
    ['neither result nor error', (id: number) => ({ jsonrpc: '2.0', id, contents: [script] })],
    ['an error that is not an error object', (id: number) => ({ jsonrpc: '2.0', id, error: { contents: [script] } })],
  ])('%s: the read it names fails with -32080 and is recorded as failed', async (_, shape) => {
    const s = await session();
    s.host.deliver(request(7, 'resources/read', { uri: script.uri }));
    await s.server.waitFor((m) => m['id'] === 7);
    s.server.deliver(shape(7));
    const answers = await s.answersFor(7);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.['result']).toBeUndefined();
    expect((answers[0]?.['error'] as Json)['code']).toBe(gateErrorCode);
    expect(String((answers[0]?.['error'] as Json)['message'])).toContain('malformed answer');
    expect(s.records.map((r) => r.verdict)).toEqual(['unverifiable']);
  });

  test('a tool result with `method: null` fails its call; a batch keeps its valid notifications only', async () => {
    const s = await session();
    s.host.deliver(request(8, 'tools/call', { name: 'links' }));
    await s.server.waitFor((m) => m['id'] === 8);
    const link = { type: 'resource_link', uri: 'file:///etc/passwd', name: 'pw' };
    s.server.deliver({ jsonrpc: '2.0', id: 8, method: null, result: { content: [link] } });
    const [answer] = await s.answersFor(8);
    expect(answer?.['result']).toBeUndefined();
    expect((answer?.['error'] as Json)['code']).toBe(gateErrorCode);
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } };
    s.server.deliver([note, { jsonrpc: '2.0', method: null, params: {} }, { jsonrpc: '2.0', id: 99, result: {} }]);
    await settled();
    expect(s.host.received.slice(-1)).toEqual([note]);
    expect(s.warnings.join('\n')).toContain('`method` is not a string');
  });

  test('a host message that is no json-rpc message is refused, never forwarded', async () => {
    const s = await session();
    s.host.deliver({ jsonrpc: '2.0', id: 3, method: null, params: { uri: script.uri } });
    s.host.deliver({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: script.uri }, result: {} });
    await settled();
    expect(s.server.received).toEqual([]);
    expect((await s.answersFor(3)).map((m) => (m['error'] as Json)['code'])).toEqual([-32600]);
    expect((await s.answersFor(4)).map((m) => (m['error'] as Json)['code'])).toEqual([-32600]);
  });
});

describe('tasks (MCP 2025-11-25): a tool result fetched through tasks/result is judged like any tool result', () => {
  test('links get their decision, embedded resources are judged, discovery names the tool', async () => {
    const s = await session();
    s.host.deliver(request(1, 'tools/call', { name: 'fetch-docs', arguments: {}, task: { ttl: 60_000 } }));
    await s.server.waitFor((m) => m['id'] === 1);
    const created = { task: { taskId: 't-1', status: 'working', createdAt: '2026-01-01T00:00:00Z', ttl: 60_000 } };
    s.server.deliver({ jsonrpc: '2.0', id: 1, result: created });
    expect((await s.answersFor(1))[0]?.['result']).toEqual(created);
    s.host.deliver(request(2, 'tasks/result', { taskId: 't-1' }));
    await s.server.waitFor((m) => m['id'] === 2);
    const content = [
      { type: 'resource_link', uri: 'file:///etc/passwd', name: 'pw' },
      { type: 'resource_link', uri: 'demo://x/ok.txt', name: 'ok', mimeType: 'text/plain' },
      { type: 'resource', resource: script },
    ];
    s.server.deliver({
      jsonrpc: '2.0',
      id: 2,
      result: { content, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't-1' } } },
    });
    const [answer] = await s.answersFor(2);
    const items = (answer?.['result'] as Json)['content'] as Json[];
    expect(items.map((i) => (i['_meta'] as Json | undefined)?.[decisionMetaKey])).toEqual([
      expect.objectContaining({
        effect: 'deny',
        reasons: [expect.objectContaining({ code: 'uri.scheme-not-allowed' })],
      }),
      { effect: 'allow' },
      expect.objectContaining({ effect: 'deny' }),
    ]);
    // the denied link is not handed on as a link
    expect(items[0]?.['type']).toBe('text');
    expect(String(items[0]?.['text'])).toContain('linkgate refused the link `pw`');
    expect(items[2]?.['type']).toBe('text');
    expect(String(items[2]?.['text'])).toContain('content.executable');
    // a read of the allowed link is recorded with where it was discovered: the task's tool
    s.host.deliver(request(3, 'resources/read', { uri: 'demo://x/ok.txt' }));
    await s.server.waitFor((m) => m['id'] === 3);
    s.server.deliver({ jsonrpc: '2.0', id: 3, result: { contents: [plain('demo://x/ok.txt')] } });
    await s.answersFor(3);
    expect(s.records.map((r) => [r.uri, r.verdict, r.stages.discovered?.tool])).toEqual([
      ['demo://x/ok.txt', 'body-obtained', 'fetch-docs'],
    ]);
  });
});
