import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { GateError } from '../gate-error.ts';
import { maskUri } from '../link/mask-uri.ts';
import { cappedFetch } from '../fetch/capped-fetch.ts';

/** Most same-origin 307/308 redirects followed for one request. */
export const maxUpstreamRedirects = 5;

/**
 * A fetch that only ever talks to `origin` (scheme + host + port): a request or redirect to any other origin is
 * refused before it is sent, so the `--header` credentials never leave the server they were given for. Only 307/308
 * redirects within the origin are followed (they keep the method and body); any other redirect is returned as is.
 */
export function sameOriginFetch(origin: string, fetchImpl: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    let target = new URL(String(input));
    for (let hop = 0; ; hop += 1) {
      if (originOf(target) !== origin)
        throw new GateError(
          'READ_FAILED',
          `refused a request to \`${maskUri(target.href)}\`: not the origin \`${origin}\``,
        );
      const response = await fetchImpl(target, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if ((response.status !== 307 && response.status !== 308) || location === null) return response;
      await response.body?.cancel().catch(() => {});
      if (hop >= maxUpstreamRedirects)
        throw new GateError(
          'READ_FAILED',
          `more than \`${maxUpstreamRedirects}\` redirects from \`${maskUri(target.href)}\``,
        );
      target = new URL(location, target);
    }
  };
}

/** The Streamable HTTP transport to `url`: every response capped at `maxBytes`, `headers` sent to its origin only. */
export function httpUpstream(url: URL, headers: ReadonlyArray<readonly [string, string]>, maxBytes: number): Transport {
  const origin = originOf(url);
  return new StreamableHTTPClientTransport(url, {
    fetch: cappedFetch(maxBytes, sameOriginFetch(origin)),
    requestInit: { headers: Object.fromEntries(headers) },
  });
}

// WHATWG origin: scheme, host and port, lower-cased, default port elided
function originOf(url: URL): string {
  return url.origin;
}
