import { domainToASCII } from 'node:url';
import { quoteValue } from '../decision/quote-value.ts';
import {
  compactReading,
  decimalReading,
  idnaDeviation,
  punycodeReading,
  transitionalReading,
} from './host-readings.ts';
import { asciiHost, isDottedQuad, noHosts, safeDecode, type UriHost } from './uri-host.ts';

/**
 * `/^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)*$/.test(text)` in one pass by char code: lower-case LDH labels, each starting
 * with a letter (a pattern call costs more than the pass at host length).
 */
export function isCanonicalLdh(text: string): boolean {
  let labelStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) labelStart = false;
    else if (c === 0x2e) {
      if (labelStart) return false;
      labelStart = true;
    } else if (labelStart || !((c >= 0x30 && c <= 0x39) || c === 0x2d)) return false;
  }
  return !labelStart;
}

/** How one reader pass took the host: the canonical host, other readings, and what makes it unusable. */
export interface HostRead {
  readonly host: UriHost | null;
  readonly otherHosts: readonly UriHost[];
  /** a parser-confusion phrase the host text itself raises */
  readonly confusion?: string;
  /** set when the host must not be read at all (`uri.invalid`) */
  readonly invalid?: string;
}

function hostRead(host: UriHost | null, otherHosts: readonly UriHost[] = noHosts): HostRead {
  return { host, otherHosts };
}

// no host at all (`urn:isbn:…`, `javascript:…`, `guide:///x`): one shared answer
const noHostRead: HostRead = Object.freeze({ host: null, otherHosts: noHosts });

/** The host of a special-scheme uri as WHATWG read it (its `hostname`): null when empty. */
export function specialHost(hostname: string): UriHost | null {
  if (hostname === '') return null;
  if (hostname.charCodeAt(0) === 0x5b) return { kind: 'ipv6', text: hostname.slice(1, -1) };
  // WHATWG serializes every IPv4 host in dotted decimal, and a name cannot end in a number
  const last = hostname.charCodeAt(hostname.length - 1);
  return { kind: last >= 0x30 && last <= 0x39 && isDottedQuad(hostname) ? 'ipv4' : 'name', text: hostname };
}

/**
 * The readings other parsers take from the raw text of a special-scheme uri whose WHATWG host is `host` (`from`: after
 * `scheme:`); `serialized`: the raw text is WHATWG's own serialization of the uri (`href`).
 */
export function specialOtherHosts(
  host: UriHost | null,
  raw: string,
  from: number,
  serialized: boolean,
): readonly UriHost[] {
  if (host === null || host.kind === 'ipv6') return noHosts;
  const text = host.text;
  if (host.kind === 'ipv4') {
    // WHATWG writes an IPv4 host in dotted decimal with no zero-padded part, which every reader takes the same: when
    // the raw text is that serialization, there is nothing to read again. Else the usual shapes (dotted, one number,
    // hex; no zero-padded part) read the same everywhere too: one pass over the raw authority says so
    if (serialized || plainRawIpv4(raw, from)) return noHosts;
    return decimalReading(rawSpecialHost(raw, from), host);
  }
  // a deviation character becomes punycode, so only `xn--` hosts need the raw text, but for `ẞ`, which node's table
  // maps to `ss` (written or percent-encoded; a uri that is its own serialization is ASCII and holds neither)
  if (!text.includes('xn--') && (serialized || !mayHoldCapitalSharpS(raw))) return noHosts;
  const decoded = safeDecode(rawSpecialHost(raw, from));
  if (idnaDeviation.test(decoded)) return [...transitionalReading(decoded, host), ...punycodeReading(host)];
  return punycodeReading(host);
}

// `ẞ` (U+1E9E), as written or as its percent-encoded UTF-8, anywhere in the text
function mayHoldCapitalSharpS(raw: string): boolean {
  return raw.includes('\u1e9e') || capitalSharpSEscape.test(raw);
}

const capitalSharpSEscape = /%e1%ba%9e/i;

// True when the authority right after `//` is ASCII letters, digits and dots, then only a `:port`, and no part of
// digits alone is zero-padded: `decimalReading` finds no other reading there (a part with a letter is not decimal, and
// a part `0…` followed by a digit is the only one decimal readers take differently). Anything else (`@`, `%`, a
// non-ASCII character, `/\` runs) takes the full reading.
function plainRawIpv4(raw: string, from: number): boolean {
  if (raw.charCodeAt(from) !== 0x2f || raw.charCodeAt(from + 1) !== 0x2f) return false;
  const start = from + 2;
  let letter = false;
  let padded = false;
  let i = start;
  for (; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2e) continue;
    if (c >= 0x30 && c <= 0x39) {
      if (c === 0x30 && (i === start || raw.charCodeAt(i - 1) === 0x2e)) {
        const next = raw.charCodeAt(i + 1);
        if (next >= 0x30 && next <= 0x39) padded = true;
      }
      continue;
    }
    const lower = c | 0x20;
    if (lower >= 0x61 && lower <= 0x7a) {
      letter = true;
      continue;
    }
    break;
  }
  if (i === start) return false;
  if (raw.charCodeAt(i) === 0x3a) {
    // a port of digits only, then the end of the authority (a `@` after it makes this a userinfo)
    i++;
    while (i < raw.length && raw.charCodeAt(i) >= 0x30 && raw.charCodeAt(i) <= 0x39) i++;
    if (raw.charCodeAt(i) === 0x3a) return false;
  }
  return hostEnds(raw.charCodeAt(i)) && (letter || !padded);
}

// the character after a host: `:`, `/`, `\`, `?`, `#` or the end (NaN)
function hostEnds(c: number): boolean {
  return Number.isNaN(c) || c === 0x3a || c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23;
}

/**
 * The host of a custom-scheme uri, with its other readings. It is opaque to WHATWG (kept percent-encoded, case
 * kept), but the server behind it may still hand it to a resolver, so it is read as a special host would be:
 * percent-decoded, IDNA-mapped (fullwidth digits, `。`), IPv4 number forms. Text that is not a valid host name stays
 * an identifier, unless a lenient reader would still find an address or a delimiter in it.
 */
export function customHost(url: URL, serialized = -1): HostRead {
  // the reading depends on the host text alone: the many links of one result on one host share the last one, frozen
  // once shared (freezing every reading would cost more than reading a host); a uri that is its own serialization with
  // that host right after its `//` is known to have it without the `hostname` getter's new string
  return customHostOf(serialized !== -1 && hostAt(url.href, serialized, lastHostname) ? lastHostname : url.hostname);
}

/**
 * `customHost` of a uri whose WHATWG `hostname` is `raw.slice(start, end)` (`readCanonicalOpaqueUri` proved it): the
 * last host read is taken without a new string when the text there is that host.
 */
export function customHostAt(raw: string, start: number, end: number): HostRead {
  const same = end - start === lastHostname.length && raw.startsWith(lastHostname, start);
  return customHostOf(same ? lastHostname : raw.slice(start, end));
}

// `customHost` of the host text `hostname`, the last reading given again for the same text
function customHostOf(hostname: string): HostRead {
  if (hostname === lastHostname) {
    if (!lastShared) {
      frozenRead(lastRead);
      lastShared = true;
    }
    return lastRead;
  }
  lastRead = customHostRead(hostname);
  lastHostname = hostname;
  lastShared = false;
  return lastRead;
}

// the host text `customHost` read last, its reading, and whether that was given out twice (and frozen)
let lastHostname = '';
let lastRead: HostRead = noHostRead;
let lastShared = true;

// Whether the WHATWG serialization `href` of a non-special uri has the host name `host` as its whole authority, from
// offset `start` (just after `scheme://`): `host` there, then the authority's end (`/`, `?`, `#`, or the end of the
// text). A host name WHATWG gave holds no `@`, `:`, `/`, `?` or `#` (forbidden host code points), so no userinfo or port
// can hide around it; an IPv6 literal or the empty host is read by the getter.
function hostAt(href: string, start: number, host: string): boolean {
  if (host === '' || host.charCodeAt(0) === 0x5b || !href.startsWith(host, start)) return false;
  const end = start + host.length;
  if (end === href.length) return true;
  const c = href.charCodeAt(end);
  return c === 0x2f || c === 0x3f || c === 0x23;
}

// `read` frozen with what it holds, so no caller can change the reading the next link on that host is given
function frozenRead(read: HostRead): HostRead {
  if (read.host !== null) Object.freeze(read.host);
  for (const host of read.otherHosts) Object.freeze(host);
  Object.freeze(read.otherHosts);
  return Object.freeze(read);
}

// `customHost` of the host text `hostname`
function customHostRead(hostname: string): HostRead {
  if (hostname === '') return noHostRead;
  const read = customHostOnce(hostname);
  if (read.host === null) return read;
  // with no escape the text is its own decoding
  const decoded = hostname.includes('%') ? safeDecode(hostname) : hostname;
  if (!idnaDeviation.test(decoded)) return read;
  const transitional = transitionalReading(decoded, read.host);
  return transitional.length === 0 ? read : { ...read, otherHosts: [...transitional, ...read.otherHosts] };
}

function customHostOnce(hostname: string): HostRead {
  if (hostname.startsWith('[')) return hostRead({ kind: 'ipv6', text: hostname.slice(1, -1) });
  // lower-case LDH labels that start with a letter are already canonical and cannot be an IPv4 form
  if (isCanonicalLdh(hostname)) {
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
