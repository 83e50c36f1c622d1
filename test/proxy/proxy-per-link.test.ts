import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, test } from 'vitest';
import { discoverLink } from '../../src/flow/link-steps.ts';
import type { LinkContext } from '../../src/record/build-stages.ts';
import { telemetrySink } from '../../src/record/link-telemetry.ts';
import { callbackSink } from '../../src/record/record-sink.ts';

// What the proxy's 500-link tool result costs per link (issue 42): no record built where none would go, and the
// discovered stages of one connection's links share what they have in common.

class Reader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('records of links no one reads', () => {
  test('a telemetry sink with no sink behind keeps a record only while the host registered a provider', () => {
    const sink = telemetrySink(undefined);
    expect(sink.keepsRecords?.()).toBe(false);
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }),
    );
    expect(sink.keepsRecords?.()).toBe(true);
    trace.disable();
    expect(sink.keepsRecords?.()).toBe(false);
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new Reader()] }));
    expect(sink.keepsRecords?.()).toBe(true);
  });

  test('a sink behind it always keeps them', () => {
    const sink = telemetrySink(callbackSink(() => {}));
    // absent means a record goes somewhere: the decorator builds and writes every one
    expect(sink.keepsRecords?.() ?? true).toBe(true);
  });
});

describe('discovered stages', () => {
  const context: LinkContext = {
    server: 'default',
    tool: 'links',
    responseId: 7,
    protocolVersion: '2025-06-18',
    client: { name: 'host', version: '1.0.0' },
    serverInfo: { name: 'server-'.repeat(30), version: '2.0.0' },
    frontEnd: 'proxy',
  };
  const at = new Date('2026-12-06T06:00:00.000Z');

  test("the links of one connection share one frozen, cut copy of each peer's self-description", () => {
    const a = discoverLink({ type: 'resource_link', uri: 'https://a.example/x', name: 'a' }, 0, context, at);
    const b = discoverLink({ type: 'resource_link', uri: 'https://b.example/y', name: 'b', size: 3 }, 1, context, at);
    expect(a.client).toBe(b.client);
    expect(a.serverInfo).toBe(b.serverInfo);
    expect(Object.isFrozen(a.client)).toBe(true);
    expect(a.serverInfo?.name).toHaveLength(100);
    // the copy is not the connection's own object: a record changes nothing the connection keeps
    expect(a.client).not.toBe(context.client);
    // another peer gets its own copy
    const c = discoverLink(
      { type: 'resource_link', uri: 'https://c.example/', name: 'c' },
      2,
      {
        ...context,
        client: { name: 'other', version: '3' },
      },
      at,
    );
    expect(c.client).toEqual({ name: 'other', version: '3' });
    expect(b.size).toBe(3);
    expect(a.size).toBeNull();
  });

  test('the facts are read off the item as before: mime type cut, a size only when a number, a bad item kept', () => {
    const long = 'x/'.padEnd(150, 'y');
    const s = discoverLink(
      { type: 'resource_link', uri: 'https://a.example/', name: 'a', mimeType: long, size: '9' },
      0,
      context,
      at,
    );
    expect(s.mimeType).toBe(long.slice(0, 100));
    expect(s.size).toBeNull();
    const bad = discoverLink('not an item', null, context, at);
    expect(bad.uri).toBe('');
    expect(bad.contentType).toBeNull();
  });
});
