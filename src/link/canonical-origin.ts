import { type ParsedUri, uriOrigin } from './parse-uri.ts';

/** Schemes whose WHATWG origin is a (scheme, host, port) tuple; every other scheme has an opaque origin. */
const tupleOriginSchemes: ReadonlySet<string> = new Set(['http', 'https', 'ws', 'wss', 'ftp']);

/**
 * The canonical origin a credential is bound to: `scheme://host[:port]` (IDNA, lower-case, default port
 * elided, trailing dot kept, IPv6 compressed in brackets), or null for an opaque origin (custom schemes,
 * `file:`, `data:`), which is never the same origin as anything (WHATWG HTML §7.5).
 */
export function credentialOrigin(uri: ParsedUri): string | null {
  return tupleOriginSchemes.has(uri.scheme) ? uriOrigin(uri) : null;
}
