// When `@opentelemetry/api` cannot be loaded (not installed, or broken), the telemetry wrapper tries once and then
// emits nothing: a failed load is remembered as well as a successful one, so a records sink does not pay a failing
// `require` on every record (issue 39, second reading). Counted at Node's module loader.
import Module from 'node:module';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { obtainedRecord } from './record-fixtures.ts';

type Load = (request: string, ...rest: unknown[]) => unknown;
const loader = Module as unknown as { _load: Load };
const original = loader._load;
afterEach(() => {
  loader._load = original;
});

describe('telemetry without a loadable @opentelemetry/api', () => {
  test('the load is tried once, every record still reaches the sink, and nothing throws', async () => {
    let tries = 0;
    loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
      if (request === '@opentelemetry/api') {
        tries += 1;
        throw new Error('Cannot find module @opentelemetry/api');
      }
      return original.call(this, request, ...rest);
    };
    // a fresh copy of the module, which has not loaded the API yet
    vi.resetModules();
    const { emitLinkTelemetry, telemetrySink } = await import('../../src/record/link-telemetry.ts');
    const written: LinkRecord[] = [];
    const sink = telemetrySink({ write: async (r) => void written.push(r), close: async () => {} });
    for (let i = 0; i < 5; i += 1) await sink.write(obtainedRecord());
    emitLinkTelemetry(obtainedRecord());
    expect(written).toHaveLength(5);
    expect(tries).toBe(1);
  });
});
