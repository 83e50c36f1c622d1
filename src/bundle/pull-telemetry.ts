import { SpanStatusCode, trace } from '@opentelemetry/api';
import { telemetryScope } from '../record/link-telemetry.ts';
import type { BundleState } from './bundle-state.ts';
import type { PullResult } from './pull-bundle.ts';

/** The name of the span a pull emits: the fleet's status record, one per scheduled pull. */
export const pullSpanName = 'linkgate.bundle.pull';

/**
 * Emits one span for a pull to the OpenTelemetry provider in force (a no-op without one): the result, the active
 * revision and its expiry, the revision offered and why it was refused. A collector receiving these from every
 * machine answers "which machines run which revision" and "which pulls fail". Never throws.
 */
export function emitPullStatus(result: PullResult, active: BundleState | undefined, source: string): void {
  try {
    const span = trace.getTracer(telemetryScope).startSpan(pullSpanName, {
      attributes: {
        'linkgate.bundle.result': result.result,
        'linkgate.bundle.source': source,
        ...(result.revision === undefined ? {} : { 'linkgate.bundle.revision': result.revision }),
        ...(active === undefined ? {} : { 'linkgate.bundle.expires_at': active.manifest.expiresAt }),
        ...(result.result === 'refused'
          ? {
              'linkgate.bundle.refusal': result.code,
              ...(result.offered === undefined ? {} : { 'linkgate.bundle.offered': result.offered }),
            }
          : {}),
      },
    });
    if (result.result === 'refused') span.setStatus({ code: SpanStatusCode.ERROR, message: result.reason });
    span.end();
  } catch {
    // a faulty telemetry provider never changes a pull
  }
}
