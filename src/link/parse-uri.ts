import { schemeFacts, type SchemeFacts } from './known-schemes.ts';
import {
  findConfusions,
  firstC0Control,
  scanAuthority,
  scanC0Control,
  scanColon,
  scanSlashes,
  scanStop,
  scanUserinfo,
} from './authority-scan.ts';
import { customHost, customHostAt, specialHost, specialOtherHosts } from './read-host.ts';
import { canonicalParts, opaqueHostEnd, parsedUrl, type UriReading } from './reused-url.ts';
import { noHosts, type UriHost } from './uri-host.ts';

export type { UriHost } from './uri-host.ts';

/** Longest uri the gate parses, in UTF-16 code units; longer input is `uri.invalid` (bounds the work per link). */
export const maxUriChars = 65_536;

/** A uri that parsed: the WHATWG reading plus what raw-text checks found. */
export interface ParsedUri {
  readonly ok: true;
  /** lower-case, without `:` */
  readonly scheme: string;
  /** `schemeFacts(scheme)` */
  readonly schemeFacts: SchemeFacts;
  /** a WHATWG special scheme (http, https, ws, wss, ftp, file) */
  readonly special: boolean;
  /** the uri has an authority (`scheme://…`) */
  readonly hasAuthority: boolean;
  /** null when there is no authority or it is empty (`file:///x`, `urn:isbn:…`) */
  readonly host: UriHost | null;
  /** explicit port, or the scheme's default; null when neither */
  readonly port: number | null;
  /** the port the uri writes, when it is not the scheme's default (WHATWG drops a default one); null when none */
  readonly explicitPort: number | null;
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
  /** the WHATWG reading (its `pathname` is the path) */
  readonly url: URL;
}

/**
 * The canonical origin of a parsed uri, `scheme://host[:port]` with a default port elided; null without a host. Made
 * when asked (most decisions never need it).
 */
export function uriOrigin(uri: ParsedUri): string | null {
  const host = uri.host;
  if (host === null) return null;
  const text = host.kind === 'ipv6' ? `[${host.text}]` : host.text;
  return uri.explicitPort === null ? `${uri.scheme}://${text}` : `${uri.scheme}://${text}:${uri.explicitPort}`;
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
 * `reading`: the caller's WHATWG reading of the uri (`reused-url.ts`), taken when it reads exactly `raw`.
 */
export function parseUri(raw: string, reading?: UriReading): UriParse {
  if (raw.length > maxUriChars) return { ok: false, message: `uri is longer than ${maxUriChars} characters` };
  // the record `maskUri` read of the same text just before, when the caller handed its reading (`reused-url.ts`)
  const canonical = canonicalParts(raw, reading);
  if (canonical !== null) {
    const facts = commonFacts(canonical.scheme);
    const address = canonical.address;
    const host: UriHost = {
      kind: canonical.kind,
      text: address ?? raw.slice(canonical.hostStart, canonical.hostEnd),
    };
    const explicitPort = canonical.port === -1 ? null : canonical.port;
    // an IPv4 host in another number form is read again by the readers that take zero-padded parts as decimal
    const otherHosts = address === null ? noHosts : specialOtherHosts(host, raw, canonical.scheme.length + 1, false);
    const port = explicitPort ?? (facts.defaultPort as number);
    return new CanonicalUri(raw, canonical.scheme, facts, host, port, explicitPort, otherHosts);
  }
  // a usual custom-scheme link, its own WHATWG serialization in a narrow grammar: read without the parse
  const opaqueEnd = opaqueHostEnd(raw, reading);
  if (opaqueEnd !== -1) return serializedOpaqueUri(raw, opaqueEnd);
  const colon = schemeEnd(raw);
  if (colon === -1) {
    const control = firstC0Control(raw, schemeRun(raw));
    return control === -1 ? { ok: false, message: 'uri has no scheme' } : controlMessage(raw, control);
  }
  const common = commonScheme(raw, colon);
  const scheme = common ?? customScheme(raw, colon);
  const facts = common === undefined ? lastFacts(scheme) : commonFacts(common);
  const defaultPort = facts.defaultPort;
  const special = defaultPort !== undefined;
  // the scheme is ASCII from the first character on, so WHATWG (which only strips leading C0/space and
  // deletes tab/LF/CR) reads the same scheme
  // a link's uri masked for its record just before is not parsed again (`reused-url.ts`)
  const url = parsedUrl(raw, reading);
  // WHATWG strips, deletes or percent-encodes every raw C0 control (or fails), so a uri it serializes as its own text
  // holds none, and only other text is scanned for one
  const serialized = url !== null && url.href === raw;
  if (serialized && common !== undefined) return serializedNetworkUri(raw, colon, common, facts, url);
  // one pass over the authority as each kind of reader takes it, stopping at a raw C0 control
  const scan = scanAuthority(raw, colon + 1, special);
  // RFC 3986 §2 has no place for a raw C0 control: WHATWG strips or percent-encodes them (`java\tscript:`,
  // `http://a/%00`), so the text a consumer sees is not the uri the parser read
  if ((scan & scanC0Control) !== 0) return controlMessage(raw, scanStop(scan));
  if (!serialized) {
    const control = firstC0Control(raw, scanStop(scan));
    if (control !== -1) return controlMessage(raw, control);
  }
  if (url === null) return { ok: false, message: `\`${scheme}:\` uri does not parse` };

  let host: UriHost | null;
  let otherHosts: readonly UriHost[];
  let confusions = findConfusions(scan, special && scheme !== 'file');
  // a special uri that is its own serialization has its authority right after `//`, up to the first `/` (WHATWG writes
  // a path for every special uri): with no `@` and no `:` there, that text is the host, and there is no port, so the
  // getters are not asked
  const plainAuthority = special && serialized && (scan & (scanColon | scanUserinfo)) === 0;
  if (special) {
    host = specialHost(plainAuthority ? raw.slice(colon + 3, scanStop(scan)) : url.hostname);
    otherHosts = specialOtherHosts(host, raw, colon + 1, serialized);
  } else {
    // a serialized uri with `//` has its authority right after them (`customHost` reads the host from there)
    const read = customHost(url, serialized && (scan & scanSlashes) !== 0 ? colon + 3 : -1);
    if (read.invalid !== undefined) return { ok: false, message: read.invalid };
    host = read.host;
    otherHosts = read.otherHosts;
    if (read.confusion !== undefined) confusions = [...confusions, read.confusion];
  }
  const portText = plainAuthority ? '' : url.port;
  const explicitPort = portText === '' ? null : Number(portText);
  const port = explicitPort ?? (host === null ? null : (defaultPort ?? null));
  return {
    ok: true,
    scheme,
    schemeFacts: facts,
    special,
    hasAuthority: (scan & scanSlashes) !== 0 || (special && scheme !== 'file'),
    host,
    port,
    explicitPort,
    userinfo: (scan & scanUserinfo) !== 0,
    confusions,
    otherHosts,
    url,
  };
}

/**
 * A uri of a usual network scheme (http, https, ws, wss) that is its own WHATWG serialization: `scheme://`, the
 * authority as WHATWG writes it, then a path. Such text holds no raw control, no `\\`, no `?` or `#` before the path,
 * no empty userinfo and no `//` run other than the one (WHATWG deletes, encodes or drops them), so no parser-confusion
 * form, and its authority is what WHATWG read: a userinfo exactly when there is a user or a password, the host and the
 * port its getters give. No pass over the raw text is needed.
 */
function serializedNetworkUri(raw: string, colon: number, scheme: string, facts: SchemeFacts, url: URL): ParsedUri {
  const host = specialHost(url.hostname);
  const portText = url.port;
  const explicitPort = portText === '' ? null : Number(portText);
  return {
    ok: true,
    scheme,
    schemeFacts: facts,
    special: true,
    hasAuthority: true,
    host,
    port: explicitPort ?? (host === null ? null : (facts.defaultPort ?? null)),
    explicitPort,
    userinfo: url.username !== '' || url.password !== '',
    confusions: noConfusions,
    otherHosts: specialOtherHosts(host, raw, colon + 1, true),
    url,
  };
}

const noConfusions: readonly string[] = Object.freeze([]);

/**
 * A uri `readCanonicalOpaqueUri` read (`hostEnd`: where its host ends): what the custom path below would find from its
 * WHATWG reading, found from the text. The text is `href`, the host `hostname`, there is no port and no userinfo; its
 * authority (`//`, then only unreserved characters up to `/` or the end) holds none of the characters `scanAuthority`
 * flags, so the only confusion is one the host itself raises.
 */
function serializedOpaqueUri(raw: string, hostEnd: number): UriParse {
  const colon = raw.indexOf(':');
  const scheme = customScheme(raw, colon);
  const facts = lastFacts(scheme);
  const read = customHostAt(raw, colon + 3, hostEnd);
  if (read.invalid !== undefined) return { ok: false, message: read.invalid };
  const confusions = read.confusion === undefined ? noConfusions : [read.confusion];
  return new OpaqueUri(raw, scheme, facts, read.host, confusions, read.otherHosts);
}

// A uri `readCanonicalOpaqueUri` read: no WHATWG special scheme, an authority with no port and no userinfo; its WHATWG
// reading is made only when asked (custom rules read its path). What is the same for every such uri lives on the
// prototype, not in each instance.
class OpaqueUri implements ParsedUri {
  declare readonly ok: true;
  declare readonly special: false;
  declare readonly hasAuthority: true;
  declare readonly port: null;
  declare readonly explicitPort: null;
  declare readonly userinfo: false;
  readonly #raw: string;
  #url: URL | undefined;

  constructor(
    raw: string,
    readonly scheme: string,
    readonly schemeFacts: SchemeFacts,
    readonly host: UriHost | null,
    readonly confusions: readonly string[],
    readonly otherHosts: readonly UriHost[],
  ) {
    this.#raw = raw;
  }

  get url(): URL {
    this.#url ??= new URL(this.#raw);
    return this.#url;
  }
}

Object.defineProperties(OpaqueUri.prototype, {
  ok: { value: true },
  special: { value: false },
  hasAuthority: { value: true },
  port: { value: null },
  explicitPort: { value: null },
  userinfo: { value: false },
});

// A uri `readCanonicalNetworkUri` read: what the WHATWG path would find (no userinfo, no confusion; no other reading
// of a name, which holds no `xn--`, of a dotted IPv4 host or of IPv6), with the WHATWG reading made only when asked
// (custom rules read its path). What is the same for every such uri lives on the prototype, not in each instance.
class CanonicalUri implements ParsedUri {
  declare readonly ok: true;
  declare readonly special: true;
  declare readonly hasAuthority: true;
  declare readonly userinfo: false;
  declare readonly confusions: readonly string[];
  readonly #raw: string;
  #url: URL | undefined;

  constructor(
    raw: string,
    readonly scheme: string,
    readonly schemeFacts: SchemeFacts,
    readonly host: UriHost,
    readonly port: number,
    readonly explicitPort: number | null,
    readonly otherHosts: readonly UriHost[],
  ) {
    this.#raw = raw;
  }

  get url(): URL {
    this.#url ??= new URL(this.#raw);
    return this.#url;
  }
}

Object.defineProperties(CanonicalUri.prototype, {
  ok: { value: true },
  special: { value: true },
  hasAuthority: { value: true },
  userinfo: { value: false },
  confusions: { value: noConfusions },
});

// the facts of the schemes `commonScheme` names, looked up once
const httpFacts = schemeFacts('http');
const httpsFacts = schemeFacts('https');
const wsFacts = schemeFacts('ws');
const wssFacts = schemeFacts('wss');

function commonFacts(scheme: 'http' | 'https' | 'ws' | 'wss'): SchemeFacts {
  if (scheme === 'https') return httpsFacts;
  if (scheme === 'http') return httpFacts;
  return scheme === 'ws' ? wsFacts : wssFacts;
}

// The lower-case scheme as a shared constant when it is a usual network scheme: no new string, and its hash
// is already known to the sets and maps it is looked up in
function commonScheme(raw: string, colon: number): 'http' | 'https' | 'ws' | 'wss' | undefined {
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
  const end = schemeRun(raw);
  return end > 0 && raw.charCodeAt(end) === 0x3a ? end : -1;
}

// the length of the run of scheme characters at the start (a letter first)
function schemeRun(raw: string): number {
  let i = 0;
  for (; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (letter || (i > 0 && ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e))) continue;
    break;
  }
  return i;
}

// the scheme of another kind read last, and its facts: the links of one result mostly share theirs (no slice, no
// lower-casing, no lookup per link)
let lastScheme = '';
let lastSchemeFacts: SchemeFacts | undefined;

// `raw.slice(0, colon).toLowerCase()`, the last one again when `raw` starts with it as written
function customScheme(raw: string, colon: number): string {
  if (colon === lastScheme.length && raw.startsWith(lastScheme)) return lastScheme;
  return raw.slice(0, colon).toLowerCase();
}

// `schemeFacts(scheme)`, kept for the last scheme
function lastFacts(scheme: string): SchemeFacts {
  if (scheme !== lastScheme || lastSchemeFacts === undefined) {
    lastSchemeFacts = schemeFacts(scheme);
    lastScheme = scheme;
  }
  return lastSchemeFacts;
}

function controlMessage(raw: string, offset: number): UnparsedUri {
  const code = raw.charCodeAt(offset).toString(16).toUpperCase().padStart(4, '0');
  return { ok: false, message: `uri holds the raw control character U+${code} at offset ${offset}` };
}
