import { parseUri, uriOrigin } from './parse-uri.ts';

/**
 * Compiles `links.allowNonPublicOrigins` to canonical origins (`scheme://host[:port]`, default port elided,
 * IPv6 in brackets), read by the same parser links go through. Only bare origins count: an entry with a
 * path, query, fragment, userinfo, a parser-confusion form or a `*` anywhere is not an exact origin and
 * matches nothing (fails closed), so the exemption can never widen past the one listed server.
 */
export function compileExemptOrigins(entries: readonly string[]): ReadonlySet<string> {
  const exact = new Set<string>();
  for (const entry of entries) {
    if (entry.includes('*')) continue;
    const parsed = parseUri(entry);
    if (!parsed.ok || parsed.userinfo || parsed.confusions.length > 0) continue;
    const origin = uriOrigin(parsed);
    if (origin === null) continue;
    const { url } = parsed;
    if (
      (url.pathname !== '' && url.pathname !== '/') ||
      url.search !== '' ||
      url.hash !== '' ||
      entry.endsWith('?') ||
      entry.endsWith('#')
    )
      continue;
    exact.add(origin);
  }
  return exact;
}
