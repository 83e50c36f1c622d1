import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { context, metrics, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoLinks } from '../../src/demo/demo-server.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { emitLinkTelemetry, linkSpanName } from '../../src/record/link-telemetry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const reader = new CollectingReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const contextManager = new AsyncLocalStorageContextManager();

let records: LinkRecord[] = [];
let spans: ReadableSpan[] = [];
let parentSpanId = '';
let traceId = '';

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
  const client = new Client({ name: 'otel-test-host', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(repoRoot, 'src/demo/demo-server.ts'), '--slow-ms', '10'],
      stderr: 'ignore',
    }),
  );
  try {
    // the host's own span around its tools/call: linkgate's spans must nest under it
    const tracer = trace.getTracer('test-host');
    await tracer.startActiveSpan('tools/call show-links', async (parent) => {
      parentSpanId = parent.spanContext().spanId;
      traceId = parent.spanContext().traceId;
      const result = await client.callTool({ name: 'show-links', arguments: {} });
      ({ records } = await gateToolResult(client, result, { gate, server: 'demo', tool: 'show-links' }));
      parent.end();
    });
  } finally {
    await client.close();
  }
  spans = exporter.getFinishedSpans().filter((s) => s.name === linkSpanName);
}, 60_000);

afterAll(async () => {
  trace.disable();
  metrics.disable();
  context.disable();
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

describe('OpenTelemetry spans through the client helper', () => {
  test('one linkgate.link span per link, nested under the host span', () => {
    expect(records).toHaveLength(demoLinks.length);
    expect(spans).toHaveLength(records.length);
    for (const span of spans) {
      expect(span.parentSpanContext?.spanId).toBe(parentSpanId);
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.kind).toBe(0); // SpanKind.INTERNAL
    }
  });

  test('each span carries the record: verdict, effects, codes, masked uri, server, policy, bytes', () => {
    const byUri = new Map(spans.map((s) => [s.attributes['linkgate.uri'], s]));
    for (const record of records) {
      const span = byUri.get(record.uri);
      expect(span, record.uri).toBeDefined();
      const a = span?.attributes ?? {};
      expect(a['linkgate.verdict']).toBe(record.verdict);
      expect(a['linkgate.link.effect']).toBe(record.decisions.link.effect);
      expect(a['linkgate.read.effect']).toBe(record.decisions.read?.effect);
      const codes = [...record.decisions.link.reasons, ...(record.decisions.read?.reasons ?? [])].map((r) => r.code);
      expect(a['linkgate.reason_codes']).toEqual([...new Set(codes)]);
      expect(a['mcp.resource.uri']).toBe(record.uri);
      expect(a['linkgate.server.id']).toBe('demo');
      expect(a['gen_ai.tool.name']).toBe('show-links');
      expect(a['linkgate.policy.id']).toBe(record.decisions.link.policy.id);
      expect(a['linkgate.policy.version']).toBe(record.decisions.link.policy.version);
      expect(a['linkgate.policy.digest']).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(a['linkgate.bytes.received']).toBe(record.stages.received?.bytes);
      expect(a['linkgate.bytes.delivered']).toBe(record.stages.delivered?.bytes);
      expect(a['mcp.method.name']).toBe(record.stages.requested === null ? undefined : 'resources/read');
      const events = span?.events.map((e) => e.name) ?? [];
      const filled = (['discovered', 'requested', 'received', 'delivered'] as const).filter(
        (stage) => record.stages[stage] !== null,
      );
      expect(events).toEqual(filled);
      expect(span?.status.code).toBe(record.verdict === 'unverifiable' ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
    }
    expect(new Set(records.map((r) => r.verdict))).toEqual(
      new Set(['body-obtained', 'partially-interpreted', 'link-only', 'unverifiable']),
    );
  });

  test('spans hold nothing a record may not: no query values, userinfo or body text', () => {
    const text = JSON.stringify(spans.map((s) => ({ a: s.attributes, e: s.events })));
    for (const secret of ['s3cr3t-pass', 'demo-user', 'abc123', 'fold, then roll']) expect(text).not.toContain(secret);
  });

  test('metrics count decisions by effect and reason code, and read bytes and durations', async () => {
    const { resourceMetrics } = await reader.collect();
    const points = (name: string) => pointsOf(resourceMetrics, name);
    const decisions = points('linkgate.decisions');
    const total = (stage: string) =>
      decisions.filter((p) => p.attributes['linkgate.stage'] === stage).reduce((n, p) => n + Number(p.value), 0);
    expect(total('link')).toBe(records.length);
    expect(total('read')).toBe(records.filter((r) => r.decisions.read !== null).length);
    const reasonCodes = new Set(points('linkgate.decision.reasons').map((p) => p.attributes['linkgate.reason_code']));
    expect(reasonCodes).toContain('uri.non-public-address');
    expect(reasonCodes).toContain('content.executable');
    const bytes = points('linkgate.read.bytes');
    const count = bytes.reduce((n, p) => n + (p.value as { count: number }).count, 0);
    expect(count).toBe(records.filter((r) => r.stages.received !== null).length);
    expect(points('linkgate.read.duration').length).toBeGreaterThan(0);
  });

  test('a throwing provider never reaches the flow', () => {
    const broken = {
      getTracer: () => {
        throw new Error('broken provider');
      },
    };
    trace.disable();
    trace.setGlobalTracerProvider(broken);
    try {
      const record = records[0];
      expect(record).toBeDefined();
      if (record !== undefined) expect(() => emitLinkTelemetry(record)).not.toThrow();
    } finally {
      trace.disable();
      trace.setGlobalTracerProvider(tracerProvider);
    }
  });
});

interface Point {
  attributes: Record<string, unknown>;
  value: unknown;
}

function pointsOf(resourceMetrics: ResourceMetrics, name: string): Point[] {
  return resourceMetrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .filter((m) => m.descriptor.name === name)
    .flatMap((m) => m.dataPoints as Point[]);
}
