import { parseUri, type ParsedUri, uriOrigin } from './parse-uri.ts';

interface WildcardOrigin {
  readonly scheme: string;
  readonly port: number | null;
  /** with its leading dot: `.assets.example.com` */
  readonly suffix: string;
}

/** A compiled `links.origins` list: canonical exact origins and `scheme://*.suffix[:port]` patterns. */
export interface OriginAllowList {
  readonly exact: ReadonlySet<string>;
  readonly wildcards: readonly WildcardOrigin[];
}

// a label that cannot occur in a real entry, parsed in place of `*` so the rest is canonicalized by WHATWG
const placeholder = 'linkgate-wildcard-0';

/**
 * Compiles origin entries (`https://docs.example.com`, `https://*.assets.example.com:8443`) to canonical
 * form with the same parser links go through. An entry that does not parse matches nothing (fails closed).
 */
export function compileOriginAllowList(entries: readonly string[]): OriginAllowList {
  const exact = new Set<string>();
  const wildcards: WildcardOrigin[] = [];
  for (const entry of entries) {
    const star = entry.indexOf('://*.');
    if (star === -1) {
      const parsed = parseUri(entry);
      const origin = parsed.ok ? uriOrigin(parsed) : null;
      if (origin !== null) exact.add(origin);
      continue;
    }
    const parsed = parseUri(`${entry.slice(0, star)}://${placeholder}.${entry.slice(star + 5)}`);
    if (!parsed.ok || parsed.host?.kind !== 'name' || !parsed.host.text.startsWith(`${placeholder}.`)) continue;
    wildcards.push({ scheme: parsed.scheme, port: parsed.port, suffix: parsed.host.text.slice(placeholder.length) });
  }
  return Object.freeze({ exact, wildcards: Object.freeze(wildcards) });
}

/** True when the uri's canonical origin is listed, or its host is a subdomain of a `*.` entry (never the apex). */
export function originAllowed(list: OriginAllowList, uri: ParsedUri): boolean {
  const origin = uriOrigin(uri);
  if (origin === null || uri.host === null) return false;
  if (list.exact.has(origin)) return true;
  if (uri.host.kind !== 'name') return false;
  const host = uri.host.text;
  return list.wildcards.some(
    (w) => w.scheme === uri.scheme && w.port === uri.port && host.endsWith(w.suffix) && host.length > w.suffix.length,
  );
}
