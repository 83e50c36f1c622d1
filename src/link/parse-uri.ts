import { schemeFacts } from './known-schemes.ts';
import { findConfusions, scanAuthority } from './authority-scan.ts';
import { customHost, specialHost } from './read-host.ts';
import type { UriHost } from './uri-host.ts';

export type { UriHost } from './uri-host.ts';

/** Longest uri the gate parses, in UTF-16 code units; longer input is `uri.invalid` (bounds the work per link). */
export const maxUriChars = 65_536;

/** A uri that parsed: the WHATWG reading plus what raw-text checks found. */
export interface ParsedUri {
  readonly ok: true;
  /** lower-case, without `:` */
  readonly scheme: string;
  /** a WHATWG special scheme (http, https, ws, wss, ftp, file) */
  readonly special: boolean;
  /** the uri has an authority (`scheme://…`) */
  readonly hasAuthority: boolean;
  /** null when there is no authority or it is empty (`file:///x`, `urn:isbn:…`) */
  readonly host: UriHost | null;
  /** explicit port, or the scheme's default; null when neither */
  readonly port: number | null;
  /** canonical `scheme://host[:port]` with default ports elided; null without a host */
  readonly origin: string | null;
  /** the path as WHATWG serializes it */
  readonly path: string;
  /** the authority holds a `@` (user, password, or an empty userinfo) */
  readonly userinfo: boolean;
  /** one lower-case phrase per parser-confusion form found, in a fixed order; empty when none */
  readonly confusions: readonly string[];
  /**
   * Other hosts that common non-WHATWG readers take from the same authority, each different from `host`:
   * the decimal reading of a zero-padded IPv4 (`010.0.0.1` is 8.0.0.1 to WHATWG, 10.0.0.1 to Java and old Go),
   * the decoded form of ASCII-only punycode, a reading without empty labels. Empty when all agree.
   */
  readonly otherHosts: readonly UriHost[];
  /** the WHATWG reading */
  readonly url: URL;
}

/** A uri that did not parse, with a lower-case reason. */
export interface UnparsedUri {
  readonly ok: false;
  readonly message: string;
}

/** The outcome of `parseUri`. */
export type UriParse = ParsedUri | UnparsedUri;

/**
 * Parses a uri for the gate. Special schemes are read by WHATWG `URL` (what browsers, Node's fetch and
 * undici connect to); other schemes follow RFC 3986 structure, with the authority host decoded the way a
 * WHATWG host parser would (percent-decoding, IDNA, IPv4 number forms) so `guide://0x7f.1/` is seen as
 * 127.0.0.1. Raw-text checks list the parser-confusion forms where RFC 3986 parsers, naive regexes and
 * WHATWG disagree about the host; hosts that other readers take differently are listed in `otherHosts`. Never throws.
 */
export function parseUri(raw: string): UriParse {
  if (raw.length > maxUriChars) return { ok: false, message: `uri is longer than ${maxUriChars} characters` };
  // RFC 3986 §2 has no place for a raw C0 control: WHATWG strips or percent-encodes them (`java\tscript:`,
  // `http://a/%00`), so the text a consumer sees is not the uri the parser read
  const control = firstC0Control(raw);
  if (control !== -1) {
    const code = raw.charCodeAt(control).toString(16).toUpperCase().padStart(4, '0');
    return { ok: false, message: `uri holds the raw control character U+${code} at offset ${control}` };
  }
  const colon = schemeEnd(raw);
  if (colon === -1) return { ok: false, message: 'uri has no scheme' };
  const scheme = commonScheme(raw, colon) ?? raw.slice(0, colon).toLowerCase();
  // the scheme is ASCII from the first character on, so WHATWG (which only strips leading C0/space and
  // deletes tab/LF/CR) reads the same scheme
  const url = URL.parse(raw);
  if (url === null) return { ok: false, message: `\`${scheme}:\` uri does not parse` };

  const defaultPort = schemeFacts(scheme).defaultPort;
  const special = defaultPort !== undefined;
  const scan = scanAuthority(raw, colon + 1, special);
  const read = special ? specialHost(url, raw, colon + 1) : customHost(url);
  if (read.invalid !== undefined) return { ok: false, message: read.invalid };
  const found = findConfusions(scan, special && scheme !== 'file');
  const confusions = read.confusion === undefined ? found : [...found, read.confusion];
  const host = read.host;
  const explicitPort = url.port === '' ? null : Number(url.port);
  const port = explicitPort ?? (host === null ? null : (defaultPort ?? null));
  const origin =
    host === null
      ? null
      : `${scheme}://${host.kind === 'ipv6' ? `[${host.text}]` : host.text}${explicitPort === null ? '' : `:${explicitPort}`}`;
  return {
    ok: true,
    scheme,
    special,
    hasAuthority: scan.slashes || (special && scheme !== 'file'),
    host,
    port,
    origin,
    path: url.pathname,
    userinfo: scan.userinfo,
    confusions,
    otherHosts: read.otherHosts,
    url,
  };
}

// The lower-case scheme as a shared constant when it is a usual network scheme: no new string, and its hash
// is already known to the sets and maps it is looked up in
function commonScheme(raw: string, colon: number): string | undefined {
  const c0 = raw.charCodeAt(0) | 0x20;
  if (c0 === 0x68) {
    // http, https
    if (
      (raw.charCodeAt(1) | 0x20) !== 0x74 ||
      (raw.charCodeAt(2) | 0x20) !== 0x74 ||
      (raw.charCodeAt(3) | 0x20) !== 0x70
    )
      return undefined;
    if (colon === 4) return 'http';
    return colon === 5 && (raw.charCodeAt(4) | 0x20) === 0x73 ? 'https' : undefined;
  }
  if (c0 === 0x77 && (raw.charCodeAt(1) | 0x20) === 0x73) {
    // ws, wss
    if (colon === 2) return 'ws';
    return colon === 3 && (raw.charCodeAt(2) | 0x20) === 0x73 ? 'wss' : undefined;
  }
  return undefined;
}

// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then `:`; -1 when the uri has none
function schemeEnd(raw: string): number {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i) | 0x20;
    if (c >= 0x61 && c <= 0x7a) continue;
    const d = raw.charCodeAt(i);
    if (i > 0 && ((d >= 0x30 && d <= 0x39) || d === 0x2b || d === 0x2d || d === 0x2e)) continue;
    return d === 0x3a && i > 0 ? i : -1;
  }
  return -1;
}

// the offset of the first C0 control (U+0000–U+001F), -1 when none; a loop by char code costs less than a
// pattern on uris of link length
function firstC0Control(raw: string): number {
  for (let i = 0; i < raw.length; i++) if (raw.charCodeAt(i) < 0x20) return i;
  return -1;
}
