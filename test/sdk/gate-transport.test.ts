import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createDemoServer } from '../../src/demo/demo-server.ts';
import { decisionMetaKey, gateErrorCode, gateTransport } from '../../src/sdk/gate-transport.ts';
import { ReadCache } from '../../src/flow/read-cache.ts';
import type { Policy } from '../../src/policy/policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { waitUntil } from '../helpers/wait-until.ts';
import { decision, defaultPolicyWith, evidence, fakeGate } from './fake-gate.ts';
import { finishedInto } from './finished-records.ts';

const permissive = z.looseObject({});
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A gate that denies links to `holiday.png`, denies reads of `pixel.png` and answers `mixed` in part. */
function demoGate(policy: Policy) {
  return fakeGate(
    policy,
    (input) => {
      const uri = String((input['link'] as { uri: string }).uri);
      return uri.includes('holiday') ? decision(policy, 'deny', ['content.mime-mismatch']) : decision(policy, 'allow');
    },
    (input) => {
      const uri = String((input['link'] as { uri: string }).uri);
      const result = input['result'] as Record<string, unknown>;
      const count = Array.isArray(result['contents']) ? result['contents'].length : 0;
      if ('error' in result) return { decision: decision(policy, 'deny', ['read.error']), evidence: [] };
      if (result['resultType'] === 'input_required')
        return { decision: decision(policy, 'deny', ['read.input-required']), evidence: [] };
      if (uri.includes('pixel'))
        return { decision: decision(policy, 'deny', ['content.executable']), evidence: evidence(count, 'blob') };
      if (uri.includes('mixed')) {
        const items = [
          { index: 0, effect: 'allow' as const, reasons: [] },
          {
            index: 1,
            effect: 'partial' as const,
            reasons: decision(policy, 'partial', ['content.unsafe-text']).reasons,
          },
        ];
        return { decision: decision(policy, 'partial', ['content.unsafe-text'], items), evidence: evidence(count) };
      }
      return { decision: decision(policy, 'allow'), evidence: evidence(count) };
    },
  );
}

async function connect(
  options: { mode?: 'enforce' | 'observe'; readTimeoutMs?: number; slowMs?: number; cache?: ReadCache } = {},
) {
  const policy = await defaultPolicyWith({ readTimeoutMs: options.readTimeoutMs ?? 5000 });
  const gate = demoGate(policy);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // everything the server receives, to prove a denied read never reached it
  const received: { method: string; uri?: string }[] = [];
  const spy: Transport = serverSide;
  const serverOnMessage = () => spy.onmessage;
  const server = createDemoServer({ slowMs: options.slowMs ?? 10, oversizeBytes: 2048 });
  await server.connect(spy);
  const inner = serverOnMessage();
  spy.onmessage = (message, extra) => {
    const m = message as { method?: string; params?: { uri?: string } };
    if (m.method !== undefined)
      received.push({ method: m.method, ...(m.params?.uri === undefined ? {} : { uri: m.params.uri }) });
    inner?.(message, extra);
  };
  // everything the server has sent (its send has returned: the in-memory pair hands it over synchronously)
  const sent: unknown[] = [];
  const serverSend = spy.send.bind(spy);
  spy.send = async (message, sendOptions) => {
    await serverSend(message, sendOptions);
    sent.push(message);
  };
  const records: LinkRecord[] = [];
  const errors: Error[] = [];
  const transport = gateTransport(clientSide, {
    gate,
    server: 'demo',
    sink: callbackSink(finishedInto(records)),
    mode: options.mode ?? 'enforce',
    ...(options.cache === undefined ? {} : { cache: options.cache }),
  });
  const client = new Client({ name: 'test-host', version: '1.0.0' });
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  await client.callTool({ name: 'show-links' });
  return { client, transport, records, received, sent, errors, gate };
}

const gateError = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError & { data: Record<string, { effect: string; reasons: { code: string }[] }> };
};

describe('gateTransport', () => {
  test('an allowed read passes through and is recorded with its tool result context', async () => {
    const { client, records } = await connect();
    const result = await client.readResource({ uri: 'demo://linkgate/guide.md' });
    expect(result.contents).toHaveLength(1);
    const record = records.find((r) => r.uri === 'demo://linkgate/guide.md');
    expect(record).toMatchObject({
      verdict: 'body-obtained',
      stages: {
        discovered: {
          tool: 'show-links',
          contentIndex: 1,
          contentType: 'resource_link',
          protocolVersion: '2025-11-25',
          client: { name: 'test-host' },
          serverInfo: { name: 'linkgate-demo' },
        },
      },
    });
    expect(typeof record?.stages.requested?.requestId).toBe('number');
    expect(recordViolations(record as LinkRecord)).toEqual([]);
  });

  test('a denied read is answered locally with the decision and never reaches the server', async () => {
    const { client, records, received } = await connect();
    const error = await gateError(client.readResource({ uri: 'demo://linkgate/holiday.png' }));
    expect(error.code).toBe(gateErrorCode);
    expect(error.data[decisionMetaKey]?.reasons.map((r) => r.code)).toEqual(['content.mime-mismatch']);
    expect(received.filter((r) => r.method === 'resources/read')).toEqual([]);
    expect(received.map((r) => r.method)).toContain('tools/call');
    expect(records.at(-1)).toMatchObject({ verdict: 'link-only', stages: { requested: null } });
  });

  test('a result denied as a whole becomes an error carrying the decision', async () => {
    const { client, records, received } = await connect();
    const error = await gateError(client.readResource({ uri: 'demo://linkgate/pixel.png' }));
    expect(error.data[decisionMetaKey]?.effect).toBe('deny');
    expect(received.some((r) => r.uri === 'demo://linkgate/pixel.png')).toBe(true);
    expect(records.at(-1)).toMatchObject({ verdict: 'link-only', stages: { delivered: null } });
    expect(records.at(-1)?.stages.received?.items[0]?.carrier).toBe('blob');
  });

  test('a partial result keeps only the allowed items, with the decision under `_meta`', async () => {
    const { client, records } = await connect();
    const result = await client.request(
      { method: 'resources/read', params: { uri: 'demo://linkgate/mixed' } },
      permissive,
    );
    expect(result['contents']).toHaveLength(1);
    expect((result['_meta'] as Record<string, { effect: string }>)[decisionMetaKey]?.effect).toBe('partial');
    const record = records.at(-1) as LinkRecord;
    expect(record.verdict).toBe('partially-interpreted');
    expect(record.stages.delivered).toMatchObject({
      items: [0],
      dropped: [{ index: 1, effect: 'partial', codes: ['content.unsafe-text'] }],
    });
    expect(recordViolations(record)).toEqual([]);
  });

  test('input_required is never passed on for answering unless the policy allows it', async () => {
    const { client, records } = await connect();
    const error = await gateError(
      client.request({ method: 'resources/read', params: { uri: 'demo://linkgate/needs-input' } }, permissive),
    );
    expect(error.data[decisionMetaKey]?.reasons.map((r) => r.code)).toEqual(['read.input-required']);
    const record = records.at(-1) as LinkRecord;
    expect(record.verdict).toBe('unverifiable');
    expect(record.stages.received?.inputRequests).toEqual(['elicitation/create']);
    expect(JSON.stringify(record)).not.toContain('c2VydmVyLXNpZGUtc3RhdGU');
  });

  test('a read past the deadline is answered locally with `read.timeout` and the late answer is dropped', async () => {
    const { client, records, errors, sent } = await connect({ readTimeoutMs: 150, slowMs: 600 });
    const error = await gateError(client.readResource({ uri: 'demo://linkgate/slow.txt' }));
    expect(error.data[decisionMetaKey]?.reasons.map((r) => r.code)).toEqual(['read.timeout']);
    expect(records.at(-1)).toMatchObject({
      verdict: 'unverifiable',
      stages: { received: null, requested: { deadlineMs: 150 } },
    });
    // once the server's late answer has been handed over (and a turn of the event loop has let it settle), nothing
    // reached the host
    await waitUntil('the late answer', () =>
      sent.find((m) => JSON.stringify(m).includes('slow.txt') && (m as { result?: unknown }).result !== undefined),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([]);
  });

  test('links never read are recorded link-only when the transport closes', async () => {
    const { client, records } = await connect();
    await client.readResource({ uri: 'demo://linkgate/guide.md' });
    await client.close();
    const unread = records.filter((r) => r.stages.requested === null && r.decisions.link.effect === 'allow');
    expect(unread.length).toBeGreaterThan(5);
    for (const r of unread) expect(r).toMatchObject({ verdict: 'link-only', next: { boundary: 'host-link-handling' } });
    expect(records.filter((r) => r.uri === 'demo://linkgate/guide.md')).toHaveLength(1);
  });

  test('observe mode forwards a denied read and records `wouldDeny`', async () => {
    const { client, records, received } = await connect({ mode: 'observe' });
    const result = await client.readResource({ uri: 'demo://linkgate/holiday.png' });
    expect(result.contents).toHaveLength(1);
    expect(received.some((r) => r.uri === 'demo://linkgate/holiday.png')).toBe(true);
    expect(records.at(-1)).toMatchObject({ mode: 'observe', wouldDeny: true, decisions: { link: { effect: 'deny' } } });
    expect(recordViolations(records.at(-1) as LinkRecord)).toEqual([]);
  });

  test('a cached complete result is answered locally on the second read', async () => {
    const { client, records, received } = await connect({ cache: new ReadCache() });
    await client.readResource({ uri: 'demo://linkgate/guide.md' });
    await client.readResource({ uri: 'demo://linkgate/guide.md' });
    expect(received.filter((r) => r.uri === 'demo://linkgate/guide.md')).toHaveLength(1);
    expect(records.at(-1)).toMatchObject({
      verdict: 'body-obtained',
      next: { boundary: 'cache' },
      stages: { requested: null, discovered: { tool: 'show-links', contentIndex: 1 } },
    });
  });
});
