// `@opentelemetry/api` is loaded on the first record emitted, not when the library is imported: a process that
// only decides (`linkgate eval`, a hook event, an embedding that never records) does not pay for it
import { createRequire } from 'node:module';
import type { Attributes, Context, Counter, Histogram, Meter, MeterProvider, TracerProvider } from '@opentelemetry/api';
import type * as OpenTelemetry from '@opentelemetry/api';
import type { Decision } from '../decision/decision.ts';
import type { LinkRecord } from './link-record.ts';
import type { RecordSink } from './record-sink.ts';

/** Instrumentation scope of every span and instrument linkgate emits. */
export const telemetryScope = 'linkgate';

/** Name of the one span emitted per link, covering its flow from discovery to its record. */
export const linkSpanName = 'linkgate.link';

/** Where a link's telemetry nests and what the host knows about its MCP session. */
export interface LinkTelemetryOptions {
  /** parent context; default the caller's active context, so the span nests under the host's `tools/call` span */
  parent?: Context;
  /** the MCP session id (`Mcp-Session-Id`), when the transport has one */
  sessionId?: string | undefined;
  /** end time of the span, epoch milliseconds; default now */
  endTime?: number;
}

interface Instruments {
  decisions: Counter;
  reasons: Counter;
  readBytes: Histogram;
  readDuration: Histogram;
}

// instruments are made once per registered meter provider (null for the no-op one), so a provider registered
// after load is still used
const instrumentsByProvider = new WeakMap<MeterProvider, Instruments | null>();

interface Api {
  otel: typeof OpenTelemetry;
  /** what the API answers when the host registered nothing: then no span or attribute is built at all */
  noopTracerProvider: TracerProvider;
  noopMeter: Meter;
}

const load = createRequire(import.meta.url);
// the loaded API, or null once it could not be loaded (not installed, or broken): tried once, not on every record
let loaded: Api | null | undefined;

function api(): Api | null {
  if (loaded === undefined)
    try {
      const otel = load('@opentelemetry/api') as typeof OpenTelemetry;
      loaded = {
        otel,
        noopTracerProvider: new otel.ProxyTracerProvider().getDelegate(),
        noopMeter: otel.createNoopMeter(),
      };
    } catch {
      loaded = null;
    }
  return loaded;
}

/**
 * Emits one finished link record through `@opentelemetry/api`: a `linkgate.link` span with a stage event per
 * filled stage, and the decision and read metrics. Costs a few lookups when the host registered no provider.
 * Carries only what the record carries: masked uri, codes, sizes; never body text, credentials or query values.
 */
export function emitLinkTelemetry(record: LinkRecord, options: LinkTelemetryOptions = {}): void {
  try {
    emitSpanAndMetrics(record, options);
  } catch {
    // a faulty telemetry provider never changes a decision, a delivery or a record
  }
}

/**
 * A sink that emits each link record's telemetry (`emitLinkTelemetry`) and then hands it to `sink` (absent: telemetry
 * only): the one place a front end's records meet OpenTelemetry. `sessionId` is read per record (a transport learns it late).
 */
export function telemetrySink(
  sink: RecordSink | undefined,
  options: { sessionId?: () => string | undefined } = {},
): RecordSink {
  const wrapped: RecordSink = {
    async write(record) {
      emitLinkTelemetry(record, { sessionId: options.sessionId?.() });
      await sink?.write(record);
    },
    async writeMany(records) {
      const sessionId = options.sessionId?.();
      for (const record of records) emitLinkTelemetry(record, { sessionId });
      if (sink === undefined) return;
      if (sink.writeMany !== undefined) return sink.writeMany(records);
      // each record is tried; the first failure is the write's
      let failed: { error: unknown } | null = null;
      for (const record of records)
        try {
          await sink.write(record);
        } catch (error) {
          failed ??= { error };
        }
      if (failed !== null) throw failed.error;
    },
    async close() {
      await sink?.close();
    },
  };
  // with no sink behind, a record goes only to telemetry: nowhere while the host registered no provider
  if (sink === undefined) wrapped.keepsRecords = telemetryEmitted;
  else if (sink.keepsRecords !== undefined) {
    const keeps = sink.keepsRecords.bind(sink);
    wrapped.keepsRecords = () => keeps() || telemetryEmitted();
  }
  const embedded = sink?.writeEmbedded?.bind(sink);
  if (embedded !== undefined) wrapped.writeEmbedded = embedded;
  const discovered = sink?.writeDiscovered?.bind(sink);
  if (discovered !== undefined) wrapped.writeDiscovered = discovered;
  const flush = sink?.flush?.bind(sink);
  if (flush !== undefined) wrapped.flush = flush;
  return wrapped;
}

function emitSpanAndMetrics(record: LinkRecord, options: LinkTelemetryOptions): void {
  const loadedApi = api();
  // without the API there is no provider to emit to
  if (loadedApi === null) return;
  if (tracingEnabled(loadedApi)) emitSpan(loadedApi, record, options);
  countDecisions(loadedApi, record);
}

/** Whether a link record emitted now reaches telemetry: the host registered a tracer or a meter provider. */
export function telemetryEmitted(): boolean {
  const loadedApi = api();
  return loadedApi !== null && (tracingEnabled(loadedApi) || instrumentsOf(loadedApi) !== null);
}

function tracingEnabled({ otel, noopTracerProvider }: Api): boolean {
  const provider = otel.trace.getTracerProvider();
  return !(provider instanceof otel.ProxyTracerProvider) || provider.getDelegate() !== noopTracerProvider;
}

function emitSpan({ otel }: Api, record: LinkRecord, options: LinkTelemetryOptions): void {
  const { SpanKind, SpanStatusCode, context, trace } = otel;
  const { discovered, requested, received, delivered } = record.stages;
  const tracer = trace.getTracer(telemetryScope);
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(linkSpanName, { kind: SpanKind.INTERNAL, startTime: timeOf(discovered.at) }, parent);
  if (span.isRecording()) {
    span.setAttributes(spanAttributes(record, options.sessionId));
    span.addEvent('discovered', { 'linkgate.content.index': discovered.contentIndex ?? -1 }, timeOf(discovered.at));
    if (requested !== null)
      span.addEvent('requested', { 'linkgate.deadline_ms': requested.deadlineMs }, timeOf(requested.at));
    if (received !== null) {
      span.addEvent(
        'received',
        { 'linkgate.items': received.itemCount, 'linkgate.bytes': received.bytes },
        timeOf(received.at),
      );
    }
    if (delivered !== null) {
      span.addEvent(
        'delivered',
        { 'linkgate.items': delivered.items.length, 'linkgate.bytes': delivered.bytes },
        timeOf(delivered.at),
      );
    }
    if (record.verdict === 'unverifiable') {
      span.setStatus({ code: SpanStatusCode.ERROR, message: firstCode(record) ?? 'unverifiable' });
    }
  }
  span.end(options.endTime);
}

function spanAttributes(record: LinkRecord, sessionId: string | undefined): Attributes {
  const { discovered, requested, received, delivered } = record.stages;
  const { link, read } = record.decisions;
  const attributes: Attributes = {
    'linkgate.verdict': record.verdict,
    'linkgate.link.effect': link.effect,
    'linkgate.reason_codes': reasonCodes(record),
    'linkgate.uri': record.uri,
    'linkgate.server.id': discovered.server,
    'linkgate.policy.id': link.policy.id,
    'linkgate.policy.version': link.policy.version,
    'linkgate.policy.digest': link.policy.digest,
    'mcp.resource.uri': record.uri,
  };
  if (link.policy.bundleRevision !== undefined) attributes['linkgate.bundle.revision'] = link.policy.bundleRevision;
  if (read !== null) attributes['linkgate.read.effect'] = read.effect;
  if (record.next !== null) attributes['linkgate.next.boundary'] = record.next.boundary;
  if (record.wouldDeny !== undefined) attributes['linkgate.would_deny'] = record.wouldDeny;
  if (discovered.tool !== null) attributes['gen_ai.tool.name'] = discovered.tool;
  if (discovered.protocolVersion !== null) attributes['mcp.protocol.version'] = discovered.protocolVersion;
  if (sessionId !== undefined) attributes['mcp.session.id'] = sessionId;
  if (requested !== null) {
    attributes['linkgate.read.transport'] = requested.transport;
    if (requested.transport === 'resources/read') attributes['mcp.method.name'] = 'resources/read';
    if (requested.requestId !== null) attributes['jsonrpc.request.id'] = String(requested.requestId);
  }
  if (received !== null) {
    attributes['linkgate.bytes.received'] = received.bytes;
    attributes['linkgate.read.elapsed_ms'] = received.elapsedMs;
    if (received.error !== null) attributes['rpc.jsonrpc.error_code'] = received.error.code;
  }
  if (delivered !== null) attributes['linkgate.bytes.delivered'] = delivered.bytes;
  return attributes;
}

// the instruments of the registered meter provider, made on first need; null for the no-op one
function instrumentsOf({ otel, noopMeter }: Api): Instruments | null {
  const provider = otel.metrics.getMeterProvider();
  let instruments = instrumentsByProvider.get(provider);
  if (instruments === undefined) {
    const meter = provider.getMeter(telemetryScope);
    instruments = meter === noopMeter ? null : makeInstruments(meter);
    instrumentsByProvider.set(provider, instruments);
  }
  return instruments;
}

function countDecisions(loadedApi: Api, record: LinkRecord): void {
  const instruments = instrumentsOf(loadedApi);
  if (instruments === null) return;
  const server = record.stages.discovered.server;
  countDecision(instruments, 'link', record.decisions.link, server);
  if (record.decisions.read !== null) countDecision(instruments, 'read', record.decisions.read, server);
  const received = record.stages.received;
  if (received !== null) {
    const attributes = {
      'linkgate.server.id': server,
      'linkgate.read.effect': record.decisions.read?.effect ?? 'none',
    };
    instruments.readBytes.record(received.bytes, attributes);
    if (received.cache === null) instruments.readDuration.record(received.elapsedMs / 1000, attributes);
  }
}

function countDecision(instruments: Instruments, stage: 'link' | 'read', decision: Decision, server: string): void {
  instruments.decisions.add(1, {
    'linkgate.stage': stage,
    'linkgate.effect': decision.effect,
    'linkgate.server.id': server,
  });
  for (const reason of decision.reasons) {
    instruments.reasons.add(1, {
      'linkgate.stage': stage,
      'linkgate.effect': decision.effect,
      'linkgate.reason_code': reason.code,
    });
  }
}

function makeInstruments(meter: Meter): Instruments {
  const counter = (name: string, description: string, unit: string) => meter.createCounter(name, { description, unit });
  const histogram = (name: string, description: string, unit: string) =>
    meter.createHistogram(name, { description, unit });
  return {
    decisions: counter('linkgate.decisions', 'link and read decisions, by stage and effect', '{decision}'),
    reasons: counter(
      'linkgate.decision.reasons',
      'reasons given by link and read decisions, by stage, effect and reason code',
      '{reason}',
    ),
    readBytes: histogram('linkgate.read.bytes', 'decoded bytes received per link read', 'By'),
    readDuration: histogram('linkgate.read.duration', 'time from sending a link read to its answer', 's'),
  };
}

function reasonCodes(record: LinkRecord): string[] {
  const codes = new Set<string>();
  for (const reason of record.decisions.link.reasons) codes.add(reason.code);
  for (const reason of record.decisions.read?.reasons ?? []) codes.add(reason.code);
  return [...codes];
}

function firstCode(record: LinkRecord): string | undefined {
  return (record.decisions.read ?? record.decisions.link).reasons[0]?.code;
}

function timeOf(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : Date.now();
}
