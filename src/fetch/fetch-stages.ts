import type { FetchHop, FetchResult } from './fetch-result.ts';
import type { ReceivedItem, ReceivedStage, RequestedHop, RequestedStage } from '../record/link-record.ts';

/** The requested stage of a direct fetch: transport `https-direct` and every hop, credentials by header name only. */
export function requestedFromFetch(result: FetchResult, server: string, deadlineMs: number, at: Date): RequestedStage {
  return {
    at: at.toISOString(),
    requestId: null,
    server,
    deadlineMs,
    transport: 'https-direct',
    hops: result.hops.map(hopRecord),
  };
}

/**
 * The received stage of a direct fetch, or null when no final response head came back. `bytes` counts the
 * body bytes kept (at most `read.maxBytes`); items are filled only when the content checks ran on the body.
 */
export function receivedFromFetch(result: FetchResult, at: Date): ReceivedStage | null {
  if (result.status === null || result.finalUrl === null) return null;
  const items: ReceivedItem[] = result.evidence.map((e) => ({
    index: e.index,
    carrier: e.carrier,
    bytes: e.bytes,
    declaredMime: e.declaredMime,
    kind: e.kind,
    sha256: e.sha256,
  }));
  return {
    at: at.toISOString(),
    elapsedMs: result.elapsedMs,
    // `complete` only when the body was read to its end (or to the cap) and checked
    resultType: items.length > 0 ? 'complete' : null,
    error: null,
    inputRequests: null,
    itemCount: items.length,
    textItems: items.filter((i) => i.carrier === 'text').length,
    blobItems: items.filter((i) => i.carrier === 'blob').length,
    bytes: result.bytes,
    items,
    ttlMs: null,
    cacheScope: null,
    cache: null,
    finalUrl: result.finalUrl,
    httpStatus: result.status,
    truncated: result.truncated,
  };
}

function hopRecord(hop: FetchHop): RequestedHop {
  return {
    url: hop.url,
    method: hop.method,
    status: hop.status,
    effect: hop.decision.effect,
    codes: unique(hop.decision.reasons.map((r) => r.code)),
    address: hop.address,
    // the value is never copied: a record names the header and what happened to it
    credentials: hop.credentials.map((c) => ({
      header: c.header,
      kind: c.kind,
      attached: c.attached,
      codes: unique(c.reasons.map((r) => r.code)),
    })),
  };
}

function unique(codes: readonly string[]): string[] {
  return [...new Set(codes)];
}
