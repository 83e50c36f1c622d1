import { metrics, ProxyTracerProvider, trace } from '@opentelemetry/api';
import { describe, expect, test, vi } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { emitLinkTelemetry } from '../../src/record/link-telemetry.ts';

const at = new Date(0).toISOString();
const record: LinkRecord = {
  uri: 'demo://x',
  verdict: 'link-only',
  next: null,
  stages: {
    discovered: {
      at,
      tool: null,
      responseId: null,
      contentIndex: null,
      contentType: null,
      uri: 'demo://x',
      mimeType: null,
      size: null,
      server: 's',
      protocolVersion: null,
      client: null,
      serverInfo: null,
    },
    requested: null,
    received: null,
    delivered: null,
  },
  decisions: {
    link: { effect: 'allow', reasons: [], policy: { id: 'p', version: '1', digest: 'sha256:0' } },
    read: null,
  },
};

describe('emitLinkTelemetry with no provider registered', () => {
  test('builds no span and no instrument', () => {
    trace.disable();
    metrics.disable();
    const getTracer = vi.spyOn(ProxyTracerProvider.prototype, 'getTracer');
    try {
      emitLinkTelemetry(record);
      emitLinkTelemetry(record);
      expect(getTracer).not.toHaveBeenCalled();
    } finally {
      getTracer.mockRestore();
    }
  });
});
