/** Longest masked uri, in UTF-16 code units; longer output is cut and ends in `…`. */
export const maxMaskedUriChars = 2048;

/**
 * A uri fit for records: no userinfo, query values removed (keys kept, `a=1&b` → `a=&b`), no fragment,
 * `data:` payloads dropped, control characters percent-encoded, at most `maxMaskedUriChars` long.
 * Never throws; input that does not parse is masked by text.
 */
export function maskUri(uri: string): string {
  let masked: string;
  try {
    const url = URL.parse(uri);
    masked = url === null ? maskText(uri) : maskUrl(url);
  } catch {
    masked = maskText(uri);
  }
  return masked.length > maxMaskedUriChars ? `${masked.slice(0, maxMaskedUriChars - 1)}…` : masked;
}

function maskUrl(url: URL): string {
  if (url.protocol === 'data:') {
    const comma = url.pathname.indexOf(',');
    return `data:${comma === -1 ? url.pathname : url.pathname.slice(0, comma)},…`;
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  if (url.search !== '') url.search = maskQuery(url.search.slice(1));
  return url.href;
}

function maskText(text: string): string {
  let rest = text;
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  let query = '';
  const q = rest.indexOf('?');
  if (q !== -1) {
    query = `?${maskQuery(rest.slice(q + 1))}`;
    rest = rest.slice(0, q);
  }
  // userinfo: anything before the last `@` of the authority, however the authority is delimited
  const lead = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?[/\\]*/.exec(rest)?.[0] ?? '';
  const authorityEnd = rest.slice(lead.length).search(/[/\\]/);
  const authority = authorityEnd === -1 ? rest.slice(lead.length) : rest.slice(lead.length, lead.length + authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at !== -1) rest = lead + rest.slice(lead.length + at + 1);
  return encodeControls(rest + query);
}

function maskQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : pair.slice(0, eq + 1);
    })
    .join('&');
}

function encodeControls(text: string): string {
  return text.replace(
    /[\u0000-\u0020\u007f]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
