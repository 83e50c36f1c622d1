// A read may return the linked resource and sub-resources below it, never a sibling or another host
// (a server answering with other resources' contents would smuggle them past the link decision).

/** True when `itemUri` equals `linkUri` or lies below it: same scheme, authority and a path prefix ending at a `/` boundary (WHATWG URL, dot segments resolved). */
export function uriWithinLink(linkUri: string, itemUri: string): boolean {
  if (itemUri === linkUri) return true;
  const link = parse(linkUri);
  const item = parse(itemUri);
  if (link === null || item === null) return false;
  if (item.href === link.href) return true;
  if (item.protocol !== link.protocol || item.username !== link.username || item.password !== link.password)
    return false;
  if (item.host !== link.host) return false;
  // a link with a query or fragment names one resource; only that exact resource may come back
  if (link.search !== '' || link.hash !== '') return false;
  // opaque paths (`urn:isbn:…`, `mailto:…`) have no hierarchy to lie below
  if (!link.pathname.startsWith('/') || !item.pathname.startsWith('/')) return false;
  const base = link.pathname.endsWith('/') ? link.pathname : `${link.pathname}/`;
  return item.pathname.startsWith(base);
}

function parse(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}
