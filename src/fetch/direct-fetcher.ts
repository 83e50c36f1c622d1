import { deny, reason } from '../decision/deny.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { ResourceLink } from '../link/resource-link.ts';
import type { FetchRequest } from './fetch-request.ts';
import type { FetchResult } from './fetch-result.ts';
import { gatedFetch, type GatedFetchOptions } from './gated-fetch.ts';

/** Request headers for one link's url, from the host; may be async. */
export type FetchHeaders = (
  uri: string,
) => Readonly<Record<string, string>> | undefined | Promise<Readonly<Record<string, string>> | undefined>;

/**
 * How the host fetches a link itself when the policy enables it (`fetch.enabled`, the link's scheme in
 * `fetch.schemes`): the resolver and TLS/connection options of `gatedFetch`, and `headers`, the only source of
 * credentials for direct fetch (never the MCP connection's own).
 */
export interface DirectFetchOptions extends Omit<GatedFetchOptions, 'signal'> {
  /** headers for the link's url (Authorization, Cookie, the policy's api-key headers are credentials, attached only where the policy allows) */
  headers?: FetchHeaders;
}

/**
 * The direct fetcher as a reader: fetches one link's url with `gatedFetch` (every hop re-decided, the body checked)
 * and hands back what happened; `signal` (the tool result's budget) ends the fetch. Never throws.
 */
export type DirectFetcher = (link: ResourceLink, uri: string, signal?: AbortSignal) => Promise<FetchResult>;

/** A `DirectFetcher` over `gatedFetch` for links returned by `server`, with the host's `options`. */
export function directFetcher(gate: Gate, server: string, options: DirectFetchOptions | undefined): DirectFetcher {
  const { headers: headersFor, ...network } = options ?? {};
  return async (link, uri, signal) => {
    const request: FetchRequest = { url: uri, server, name: link.name };
    let headers: Readonly<Record<string, string>> | undefined;
    try {
      headers = await headersFor?.(uri);
    } catch {
      // the host's own callback failed: nothing was sent; its error text is not recorded (it may hold a header value)
      return refusedBeforeFetch(gate, "the host's `fetch.headers` callback failed");
    }
    if (headers !== undefined) request.headers = { ...headers };
    return gatedFetch(gate, request, { ...network, ...(signal === undefined ? {} : { signal }) });
  };
}

function refusedBeforeFetch(gate: Gate, message: string): FetchResult {
  return {
    transport: 'https-direct',
    decision: deny(gate.policy, reason('fetch.failed', 'fetch.headers', 'read', message)),
    ending: { kind: 'failed', why: message },
    hops: [],
    finalUrl: null,
    status: null,
    contentType: null,
    bytes: 0,
    truncated: false,
    elapsedMs: 0,
    evidence: [],
  };
}
