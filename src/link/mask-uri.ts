import { canonicalParts, opaqueHostEnd, parsedUrl, type UriReading } from './reused-url.ts';

/** Longest masked uri, in UTF-16 code units; longer output is cut and ends in `…`. */
export const maxMaskedUriChars = 2048;

/**
 * A uri fit for records and notices: no userinfo (by the most reading any parser could give it, parsed or not), query
 * values removed (keys kept, `a=1&b` → `a=&b`), no fragment, `data:` payloads dropped, controls, invisible format
 * characters, line separators, spaces and backticks percent-encoded, at most `maxMaskedUriChars` long. Never throws.
 * `reading`: the WHATWG reading of `uri` the caller's link decision takes too (`reused-url.ts`), read and never changed.
 */
export function maskUri(uri: string, reading?: UriReading): string {
  // one pass finds what the usual uri lacks (`textFlags`): a tab, LF or CR, a `@`, a `?` or `#`, a character
  // `encodeUnsafe` would change; a uri with none of the first two is its own stripped text
  const flags = textFlags(uri);
  // WHATWG URL drops tab, LF and CR anywhere, so they cannot hide a userinfo from the strip below
  const stripped = (flags & (hasBreak | hasAt)) === 0 ? uri : stripUserinfo(uri.replace(/[\t\n\r]/g, ''));
  // the userinfo is gone from the whole text; what is past `maxMaskedInputChars` is cut before the costly passes (a
  // server's 64 MiB uri is masked in the time of a short one): each pass turns a prefix into a prefix of its output,
  // and the output is cut far shorter anyway
  const cut = stripped.length > maxMaskedInputChars;
  const plain = cut ? stripped.slice(0, maxMaskedInputChars) : stripped;
  let masked: string;
  // text that is its own WHATWG serialization (`readCanonicalNetworkUri`, its host in WHATWG's own form) with no
  // userinfo, query or fragment is what the parse would give back, with nothing to remove: not parsed
  const queryOrFragment =
    plain === uri ? (flags & hasQueryOrFragment) !== 0 : plain.includes('?') || plain.includes('#');
  const canonical = queryOrFragment ? null : canonicalParts(plain, reading);
  if (canonical !== null && canonical.address === null) masked = plain;
  // so is a custom-scheme uri `readCanonicalOpaqueUri` reads (no userinfo, query or fragment, not `data:`)
  else if (canonical === null && !queryOrFragment && opaqueHostEnd(plain, reading) !== -1) masked = plain;
  else
    try {
      const url = parsedUrl(plain, reading);
      masked = url === null ? maskText(plain) : maskUrl(url, plain, url === reading?.url);
    } catch {
      masked = maskText(plain);
    }
  // the uri itself, printable ASCII but the backtick, is what `encodeUnsafe` gives back (`plainAscii`)
  if (masked !== uri || (flags & notPlain) !== 0) masked = encodeUnsafe(masked);
  // a cut input ends in `…` too, within the same cap
  if (masked.length > maxMaskedUriChars || (cut && masked.length === maxMaskedUriChars))
    return `${masked.slice(0, maxMaskedUriChars - 1)}…`;
  return cut ? `${masked}…` : masked;
}

// what `textFlags` finds in a uri
const hasBreak = 1;
const hasAt = 2;
const hasQueryOrFragment = 4;
const notPlain = 8;

// the flags of `text`, in one pass by char code (a regular expression and three `includes` cost four)
function textFlags(text: string): number {
  let flags = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // `plainAscii`: `!` to `_`, `a` to `~`
    if (c > 0x20 && c < 0x7f && c !== 0x60) {
      if (c === 0x40) flags |= hasAt;
      else if (c === 0x3f || c === 0x23) flags |= hasQueryOrFragment;
      continue;
    }
    flags |= notPlain;
    if (c === 0x09 || c === 0x0a || c === 0x0d) flags |= hasBreak;
  }
  return flags;
}

/** Longest part of a uri (after its userinfo is stripped) the masking passes read, UTF-16 code units. */
const maxMaskedInputChars = 16 * maxMaskedUriChars;

/**
 * `text` without anything some uri parser reads as userinfo: after the scheme and its slashes (or backslashes), up to
 * the last `@` before the first `/`. `?`, `#` and `\` are not taken as the authority's end, since a parser that does
 * not split there reads them as part of the userinfo (`http://admin:pw?q@host`, `http://u\\x:pw@host`).
 */
function stripUserinfo(text: string): string {
  // no `@` anywhere: nothing any parser reads as userinfo
  if (!text.includes('@')) return text;
  const lead = /^[\u0000-\u0020]*(?:[A-Za-z][A-Za-z0-9+.-]*:)?[/\\]*/.exec(text)?.[0] ?? '';
  const slash = text.indexOf('/', lead.length);
  const authority = slash === -1 ? text.slice(lead.length) : text.slice(lead.length, slash);
  const at = authority.lastIndexOf('@');
  return at === -1 ? text : lead + text.slice(lead.length + at + 1);
}

// `url`: the WHATWG reading of `text`; `shared` (the caller's reading): what is removed is removed from a copy
function maskUrl(url: URL, text: string, shared: boolean): string {
  // the serialization starts with the lower-case scheme and its `:` (`protocol` would slice a new string per link)
  if (url.href.startsWith('data:')) {
    const comma = url.pathname.indexOf(',');
    return `data:${comma === -1 ? url.pathname : url.pathname.slice(0, comma)},…`;
  }
  if (url.username === '' && url.password === '' && url.hash === '' && url.search === '' && !url.href.endsWith('#'))
    return url.href;
  const own = shared ? (URL.parse(text) as URL) : url;
  // each setter serializes the url again: only what is there is removed (`#` alone is an empty fragment)
  if (own.username !== '') own.username = '';
  if (own.password !== '') own.password = '';
  if (own.hash !== '' || own.href.endsWith('#')) own.hash = '';
  if (own.search !== '') own.search = maskQuery(own.search.slice(1));
  return own.href;
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
  return rest + query;
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

// controls (C0, DEL, C1), invisible format characters (bidi, zero-width), line and paragraph separators, spaces and
// backticks: nothing that reorders, hides or ends a line, or closes a quote, survives into a record or a notice
const unsafe = /[\u0000-\u0020\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}\p{Zs}`]|[\ud800-\udfff]/gu;

// printable ASCII but the backtick: nothing in it is unsafe (the common case, checked without the Unicode classes)
const plainAscii = /^[!-_a-~]*$/;

function encodeUnsafe(text: string): string {
  if (plainAscii.test(text)) return text;
  return text.replace(unsafe, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      // a lone surrogate has no UTF-8 form: the replacement character's
      return '%EF%BF%BD';
    }
  });
}
