import { domainToASCII, domainToUnicode } from 'node:url';
import { createRequire } from 'node:module';
import type * as Tr46 from 'tr46';
import { specialSchemeDefaultPorts } from './known-schemes.ts';
import { quoteValue } from '../decision/quote-value.ts';

/** Longest uri the gate parses, in UTF-16 code units; longer input is `uri.invalid` (bounds the work per link). */
export const maxUriChars = 65_536;

/** The host of a uri, canonical: IDNA ASCII and lower-case for names, dotted IPv4, RFC 5952 IPv6 without brackets. */
export interface UriHost {
  readonly kind: 'ipv4' | 'ipv6' | 'name';
  /** canonical text; a trailing dot on a name is kept (`example.com.` is another host) */
  readonly text: string;
}

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

  const defaultPort = specialSchemeDefaultPorts.get(scheme);
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

/** What one pass over the text after `scheme:` finds about the authority, as each kind of reader sees it. */
interface AuthorityScan {
  /** `//` follows the scheme */
  readonly slashes: boolean;
  /** the character after `//`, when it is `/` or `\` (`http:///x`) */
  readonly extraSlash: boolean;
  /** the authority (WHATWG's for special schemes, RFC 3986's otherwise) holds `@` */
  readonly userinfo: boolean;
  /** RFC 3986's authority (after `//`, up to `/`, `?`, `#`) holds a C0 control or DEL */
  readonly control: boolean;
  /** RFC 3986's authority holds `\` */
  readonly backslash: boolean;
  /** in the text up to the first `/`, a `?` or `#` comes before a `@` */
  readonly delimiterBeforeAt: boolean;
}

function scanAuthority(raw: string, from: number, special: boolean): AuthorityScan {
  const slashes = raw.charCodeAt(from) === 0x2f && raw.charCodeAt(from + 1) === 0x2f;
  const next = raw.charCodeAt(from + 2);
  const extraSlash = slashes && (next === 0x2f || next === 0x5c);
  let userinfo = false;
  // WHATWG reads a special authority after any run of `/` and `\`, up to `/`, `\`, `?` or `#`; when it starts
  // right after `//` (the common case) the pass below reads it too, so only other shapes take this loop
  let whatwgOpen = special && slashes && !extraSlash;
  if (special && !whatwgOpen) {
    let i = from;
    while (raw.charCodeAt(i) === 0x2f || raw.charCodeAt(i) === 0x5c) i++;
    for (; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) break;
      if (c === 0x40) userinfo = true;
    }
  }
  let control = false;
  let backslash = false;
  let delimiter = -1;
  let at = -1;
  if (slashes) {
    // one pass over the authority as a naive reader takes it (up to the first `/`); RFC 3986's ends earlier,
    // at the first `?` or `#`
    for (let i = from + 2; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x2f) break;
      if (c === 0x3f || c === 0x23) {
        if (delimiter === -1) delimiter = i;
        whatwgOpen = false;
      } else if (c === 0x40) {
        at = i;
        if (whatwgOpen || (delimiter === -1 && !special)) userinfo = true;
      } else if (c === 0x5c) {
        whatwgOpen = false;
        if (delimiter === -1) backslash = true;
      } else if (delimiter === -1 && c === 0x7f) control = true;
    }
  }
  return { slashes, extraSlash, userinfo, control, backslash, delimiterBeforeAt: delimiter !== -1 && at > delimiter };
}

function findConfusions(scan: AuthorityScan, networkSpecial: boolean): readonly string[] {
  // no array on the common path: most uris have no confusion form
  let found: string[] | undefined;
  // `http:foo.com`, `http:/foo.com`, `http:\\foo.com`, `http:///foo.com`: WHATWG finds a host, RFC 3986 none
  if (networkSpecial && (!scan.slashes || scan.extraSlash))
    found = append(found, 'a special scheme not followed by exactly `//`');
  // DEL in the authority (C0 controls never get here): some readers stop at it
  if (scan.control) found = append(found, 'a control character in the authority');
  // `http://a\@b/`: WHATWG reads host `a`, RFC 3986 parsers and curl read `b`
  if (networkSpecial && scan.backslash) found = append(found, 'a backslash in the authority');
  // `https://a#@b/`: WHATWG reads host `a`, a reader that takes everything up to `/` as the authority reads `b`
  if (scan.delimiterBeforeAt) found = append(found, '`?` or `#` before `@` in the authority');
  return found ?? noConfusions;
}

function append(list: string[] | undefined, form: string): string[] {
  if (list === undefined) return [form];
  list.push(form);
  return list;
}

const noConfusions: readonly string[] = Object.freeze([]);

// the offset of the first C0 control (U+0000–U+001F), -1 when none; a loop by char code costs less than a
// pattern on uris of link length
function firstC0Control(raw: string): number {
  for (let i = 0; i < raw.length; i++) if (raw.charCodeAt(i) < 0x20) return i;
  return -1;
}
const dottedQuad = /^\d+\.\d+\.\d+\.\d+$/;
const canonicalLdh = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)*$/;

/** How one reader pass took the host: the canonical host, other readings, and what makes it unusable. */
interface HostRead {
  readonly host: UriHost | null;
  readonly otherHosts: readonly UriHost[];
  /** a parser-confusion phrase the host text itself raises */
  readonly confusion?: string;
  /** set when the host must not be read at all (`uri.invalid`) */
  readonly invalid?: string;
}

const noHosts: readonly UriHost[] = Object.freeze([]);

function hostRead(host: UriHost | null, otherHosts: readonly UriHost[] = noHosts): HostRead {
  return { host, otherHosts };
}

function specialHost(url: URL, raw: string, from: number): HostRead {
  const hostname = url.hostname;
  if (hostname === '') return hostRead(null);
  if (hostname.startsWith('[')) return hostRead({ kind: 'ipv6', text: hostname.slice(1, -1) });
  // WHATWG serializes every IPv4 host in dotted decimal, and a name cannot end in a number
  const last = hostname.charCodeAt(hostname.length - 1);
  if (last >= 0x30 && last <= 0x39 && dottedQuad.test(hostname)) {
    const host: UriHost = { kind: 'ipv4', text: hostname };
    // written as WHATWG writes it (right after `//`, no userinfo): no zero-padded part, one reading
    if (raw.startsWith(hostname, from + 2) && hostEnds(raw.charCodeAt(from + 2 + hostname.length)))
      return hostRead(host);
    return hostRead(host, decimalReading(rawSpecialHost(raw, from), host));
  }
  const host: UriHost = { kind: 'name', text: hostname };
  // a deviation character always becomes punycode, so only `xn--` hosts need the raw text
  if (hostname.includes('xn--')) {
    const decoded = safeDecode(rawSpecialHost(raw, from));
    if (idnaDeviation.test(decoded))
      return hostRead(host, [...transitionalReading(decoded, host), ...punycodeReading(host)]);
  }
  return hostRead(host, punycodeReading(host));
}

// the character after a host: `:`, `/`, `\`, `?`, `#` or the end (NaN)
function hostEnds(c: number): boolean {
  return Number.isNaN(c) || c === 0x3a || c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23;
}

// UTS #46 deviation characters: IDNA2003 and transitional readers map `ß` to `ss`, `ς` to `σ` and delete ZWJ and
// ZWNJ, while WHATWG (nontransitional) keeps them, so `faß.de` is xn--fa-hia.de to one reader and fass.de to
// another. Both names are judged: the transitional one is another reading of the host (`otherHosts`).
const idnaDeviation = /[\u00df\u03c2\u200c\u200d]/;

const load = createRequire(import.meta.url);
let tr46: typeof Tr46 | undefined;

// tr46 carries the whole UTS #46 mapping table (a few hundred KB): it is loaded only for a host that holds a deviation
// character, so a hook event (one process start) does not compile it
function uts46ToAscii(...args: Parameters<typeof Tr46.toASCII>): ReturnType<typeof Tr46.toASCII> {
  tr46 ??= load('tr46') as typeof Tr46;
  return tr46.toASCII(...args);
}

// the host as a UTS #46 transitional reader (IDNA2003 libraries, older browsers and resolvers) writes it; none
// when it is the WHATWG reading or does not convert
function transitionalReading(unicode: string, host: UriHost): readonly UriHost[] {
  const ascii = uts46ToAscii(unicode, {
    transitionalProcessing: true,
    checkHyphens: false,
    checkBidi: true,
    checkJoiners: true,
    useSTD3ASCIIRules: false,
    verifyDNSLength: false,
  });
  if (ascii === null || ascii === '') return noHosts;
  const reading = asciiHost(ascii.toLowerCase());
  return reading.text === host.text ? noHosts : [reading];
}

// A custom scheme's host is opaque to WHATWG (kept percent-encoded, case kept). The server behind it may
// still hand it to a resolver, so it is read as a special host would be: percent-decoded, IDNA-mapped
// (fullwidth digits, `。`), IPv4 number forms. Text that is not a valid host name stays an identifier,
// unless a lenient reader would still find an address or a delimiter in it.
function customHost(url: URL): HostRead {
  const read = customHostOnce(url);
  const decoded = safeDecode(url.hostname);
  if (read.host === null || !idnaDeviation.test(decoded)) return read;
  const transitional = transitionalReading(decoded, read.host);
  return transitional.length === 0 ? read : { ...read, otherHosts: [...transitional, ...read.otherHosts] };
}

function customHostOnce(url: URL): HostRead {
  const hostname = url.hostname;
  if (hostname === '') return hostRead(null);
  if (hostname.startsWith('[')) return hostRead({ kind: 'ipv6', text: hostname.slice(1, -1) });
  // lower-case LDH labels that start with a letter are already canonical and cannot be an IPv4 form
  if (canonicalLdh.test(hostname)) {
    const host: UriHost = { kind: 'name', text: hostname };
    return hostRead(host, punycodeReading(host));
  }
  const decoded = safeDecode(hostname);
  // node's domainToASCII runs the WHATWG host parser: percent-decoding, UTS #46 mapping, IPv4 number forms
  const ascii = domainToASCII(hostname);
  if (ascii !== '') {
    const host = asciiHost(ascii);
    if (host.kind === 'ipv4') return hostRead(host, decimalReading(hostname, host));
    if (host.kind === 'ipv6') return hostRead(host);
    return hostRead(host, [...punycodeReading(host), ...compactReading(host)]);
  }
  const text = decoded.toLowerCase();
  // `guide://127.0.0.1%00/`, `guide://%3a%3a1/`, `guide://a%40127.0.0.1/`: C strings end at NUL, inet_aton
  // stops at a space, and a decoded `:`, `@` or `/` moves the host for any reader that splits after decoding
  if (forbiddenHostCodePoint.test(decoded)) {
    return {
      host: { kind: 'name', text },
      otherHosts: noHosts,
      confusion: 'a percent-encoded delimiter, space or control character in the host',
    };
  }
  // `guide://256.0.0.1/`, `guide://4294967296/`, `guide://127.0.0.1.5/`: WHATWG rejects these hosts for
  // special schemes; lenient parsers wrap overflowing parts (`425.510.425.510` is 169.254.169.254 to some)
  const mapped = text.normalize('NFKC').replace(ideographicFullStops, '.');
  if (numericLabels.test(mapped))
    return {
      host: null,
      otherHosts: noHosts,
      invalid: `host ${quoteValue(decoded)} is made of numbers but is not an ipv4 address`,
    };
  return hostRead({ kind: 'name', text });
}

function asciiHost(ascii: string): UriHost {
  if (ascii.startsWith('[')) return { kind: 'ipv6', text: ascii.slice(1, -1) };
  if (dottedQuad.test(ascii)) return { kind: 'ipv4', text: ascii };
  return { kind: 'name', text: ascii };
}

// WHATWG forbidden host code points (URL Standard §3.2) plus `%`, space and C0/DEL, after one percent-decoding
const forbiddenHostCodePoint = /[\u0000-\u0020\u007f#%/:<>?@[\\\]^|]/;
// every non-empty label is a WHATWG number (digits, or `0x` and hex digits), with any empty labels
const numericLabels = /^\.*(?:\d+|0x[0-9a-f]*)(?:\.+(?:\d+|0x[0-9a-f]*))*\.*$/;
const ideographicFullStops = /[\u3002\uff61]/g;

// The raw host text of a special-scheme authority: after any run of `/` and `\`, up to `/`, `\`, `?` or `#`,
// after the last `@`, before the port
function rawSpecialHost(raw: string, from: number): string {
  let i = from;
  while (raw.charCodeAt(i) === 0x2f || raw.charCodeAt(i) === 0x5c) i++;
  // one pass by char code (no tab or line break is left: `parseUri` refuses raw C0 controls)
  let end = i;
  let at = -1;
  for (; end < raw.length; end++) {
    const c = raw.charCodeAt(end);
    if (c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) break;
    if (c === 0x40) at = end;
  }
  const start = at === -1 ? i : at + 1;
  for (let k = end - 1; k >= start; k--) if (raw.charCodeAt(k) === 0x3a) return raw.slice(start, k);
  return raw.slice(start, end);
}

const decimalParts = /^\d+$/;
const zeroPadded = /^0\d/;
const plainDotted = /^[\d.]*$/;
const needsMapping = /[^\x21-\x7e]|%/;
const zeroPaddedPart = /(?:^|\.)0\d/;

/**
 * CVE-2021-29923 (Go < 1.17), Java's `InetAddress` and netmask's CVE-2021-28918: a zero-padded IPv4 part is
 * decimal to these readers and octal to WHATWG and inet_aton. Returns the decimal reading (inet_aton's one to
 * four parts) when it differs from `host`; `rawHost` may be percent-encoded or fullwidth.
 */
function decimalReading(rawHost: string, host: UriHost): readonly UriHost[] {
  // the common case, plain dotted digits without a zero-padded part, reads the same everywhere
  if (!rawHost.includes('0') || (plainDotted.test(rawHost) && !zeroPaddedPart.test(rawHost))) return noHosts;
  let text: string;
  if (!needsMapping.test(rawHost)) {
    // printable ASCII without `%`: mapping would only lower-case it, and a letter (`0x7f`) is not a decimal part
    if (!plainDotted.test(rawHost)) return noHosts;
    text = rawHost;
  } else {
    // map fullwidth digits, ideographic dots and percent-escapes as WHATWG does, but stop it reading numbers:
    // a trailing label makes the text a name
    const mapped = domainToASCII(`${rawHost}.x`);
    if (mapped === '') return noHosts;
    text = mapped.slice(0, -2);
  }
  if (text.endsWith('.')) text = text.slice(0, -1);
  const parts = text.split('.');
  if (parts.length > 4 || !parts.every((p) => decimalParts.test(p)) || !parts.some((p) => zeroPadded.test(p)))
    return noHosts;
  const numbers = parts.map(Number);
  const last = numbers.pop() ?? 0;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return noHosts;
  let address = 0;
  for (const n of numbers) address = address * 256 + n;
  address = address * 256 ** (4 - numbers.length) + last;
  const dotted = `${Math.floor(address / 16777216)}.${Math.floor(address / 65536) % 256}.${Math.floor(address / 256) % 256}.${address % 256}`;
  return dotted === host.text ? noHosts : [{ kind: 'ipv4', text: dotted }];
}

/**
 * A label `xn--…` whose decoding is plain ASCII (`xn--localhost-` is `localhost`) is invalid under UTS #46
 * since Unicode 15.1 yet kept by node's IDNA; the decoded name is the reading a converting client may use.
 */
function punycodeReading(host: UriHost): readonly UriHost[] {
  if (!host.text.includes('xn--')) return noHosts;
  const unicode = domainToUnicode(host.text);
  // ASCII-only after decoding, and not the same text: some label was fake punycode
  if (unicode === host.text || !asciiOnly.test(unicode)) return noHosts;
  const ascii = domainToASCII(unicode);
  return ascii === '' || ascii === host.text ? noHosts : [asciiHost(ascii)];
}

const asciiOnly = /^[\u0000-\u007f]*$/;

// An opaque identifier may have empty labels (`guide://127.0.0.1../`), but a resolver that drops them must not
// find a non-public host: the reading with empty labels removed, read again as a WHATWG host
function compactReading(host: UriHost): readonly UriHost[] {
  if (!host.text.includes('..') && !host.text.startsWith('.') && !host.text.endsWith('.')) return noHosts;
  const compact = host.text
    .split('.')
    .filter((label) => label !== '')
    .join('.');
  const ascii = compact === '' ? '' : domainToASCII(compact);
  return ascii === '' || ascii === host.text ? noHosts : [asciiHost(ascii)];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
