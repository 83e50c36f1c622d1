import { domainToASCII } from 'node:url';
import { type AddressClass, type Ipv4Range, type Ipv6Range, octetsToNumber, tables } from './address-tables.ts';

export type { AddressClass } from './address-tables.ts';

/** The verdict on one address: `address` is canonical text (IPv4 dotted, IPv6 RFC 5952, no brackets). */
export interface AddressVerdict {
  readonly address: string;
  readonly class: AddressClass;
  readonly public: boolean;
  /** lower-case words for messages: `loopback 127/8`, `ipv4-mapped, embeds 10.0.0.1 (private 10/8)` */
  readonly description: string;
}

const fourPartDecimal = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;

/**
 * Classifies an IP address given as text: IPv4 in four-part decimal (no leading zeros), or IPv6 with or
 * without brackets (a zone id is ignored). Addresses that embed IPv4 (mapped, NAT64 64:ff9b::/96, 6to4, ISATAP)
 * are judged by the embedded address. Text that is not an address gets class `invalid`, never `public`.
 */
export function classifyAddress(text: string): AddressVerdict {
  if (fourPartDecimal.test(text)) {
    const parts = text.split('.').map(Number);
    if (parts.every((p) => p <= 255)) return classifyIpv4(octetsToNumber(parts) | 0);
  } else if (text.includes(':')) {
    const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
    // the WHATWG IPv6 parser gives RFC 5952 text; ipaddr.js would read the deprecated `::a.b.c.d` as `::ffff:a.b.c.d`
    const canonical = domainToASCII(`[${bare.split('%', 1)[0] ?? ''}]`);
    if (canonical !== '') return classifyIpv6(canonical.slice(1, -1));
  }
  return { address: text, class: 'invalid', public: false, description: 'not an ip address' };
}

/**
 * Classifies an IP literal already in canonical form (`UriHost` from `parseUri`: dotted IPv4, WHATWG
 * IPv6 text without brackets); skips re-canonicalizing, so it is the hot-path twin of `classifyAddress`.
 */
export function classifyIpLiteral(kind: 'ipv4' | 'ipv6', canonical: string): AddressVerdict {
  if (kind === 'ipv6') return classifyIpv6(canonical);
  return classifyIpv4(dottedValue(canonical), canonical);
}

// IPv4 addresses are numbers as signed 32-bit values (`| 0`) throughout this file: one at or over 2^31 as an unsigned
// number would be a heap number, made at each call and hashed as a double by the metadata map

// the number of an IPv4 address in dotted decimal as WHATWG serializes it (four runs of digits, each ≤ 255), signed
function dottedValue(canonical: string): number {
  let address = 0;
  let octet = 0;
  for (let i = 0; i < canonical.length; i++) {
    const c = canonical.charCodeAt(i);
    if (c === 0x2e) {
      address = (address << 8) | octet;
      octet = 0;
    } else octet = octet * 10 + (c - 0x30);
  }
  return (address << 8) | octet;
}

/**
 * `classifyIpLiteral(kind, canonical).class`, without building the verdict: the per-link allow path asks only whether
 * a literal is public (its words are needed only for a denial).
 */
export function ipLiteralClass(kind: 'ipv4' | 'ipv6', canonical: string): AddressClass {
  if (kind === 'ipv6') return ipv6Class(canonical);
  return ipv4Class(dottedValue(canonical));
}

// the class of an IPv4 address as a number (`classifyIpv4(address).class`): a metadata address is its own /32 range
function ipv4Class(address: number): AddressClass {
  return ipv4Range(address)?.cls ?? 'public';
}

// the first range of the table that holds an IPv4 address (a cloud metadata address first, as a /32 of class
// `cloud-metadata`); undefined when none does
function ipv4Range(address: number): Ipv4Range | undefined {
  const ranges = tables().ipv4ByFirstOctet[address >>> 24] ?? noRanges;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i] as Ipv4Range;
    if ((address & range.mask) === range.base) return range;
  }
  return undefined;
}

/**
 * `classifyIpLiteral(kind, canonical)` when the literal is not public, undefined when it is: the address is classified
 * once, and the verdict's words are built only for a literal that is denied.
 */
export function nonPublicLiteral(kind: 'ipv4' | 'ipv6', canonical: string): AddressVerdict | undefined {
  if (kind === 'ipv4') return ipv4NonPublic(dottedValue(canonical), canonical);
  // the class first, with no verdict built (a public verdict is `public` exactly when its class is)
  if (ipv6Class(canonical) === 'public') return undefined;
  // `ipv6Class` left the address's hextets in `scratchParts`: not read again
  return classifyIpv6(canonical, scratchParts);
}

// `classifyIpv4(address, text)` when it is not public, else undefined (one lookup in the tables)
function ipv4NonPublic(address: number, text: string): AddressVerdict | undefined {
  const range = ipv4Range(address);
  return range === undefined ? undefined : { address: text, class: range.cls, public: false, description: range.label };
}

// the hextets of the address `ipv6Class` is judging: one array reused, so the allow path allocates nothing
const scratchParts = [0, 0, 0, 0, 0, 0, 0, 0];

// `classifyIpv6(address).class`, the same steps (`embeddedIpv4`'s order) without the words
function ipv6Class(address: string): AddressClass {
  // asked before the scratch hextets are filled: the first answer classifies the metadata addresses with them
  const metadataPublic = metadataIpv6Public();
  const cls = ipv6RangeClass(address);
  if (cls === 'public' && !metadataPublic) return 'public';
  return tables().metadataIpv6.has(address) ? 'cloud-metadata' : cls;
}

// `ipv6Class` without the metadata lookup
function ipv6RangeClass(address: string): AddressClass {
  const { mapped, nat64, sixToFour } = tables();
  const parts = hextets(address, scratchParts);
  const low = ((parts[6] ?? 0) << 16) | (parts[7] ?? 0);
  if (inPrefix(parts, mapped) || inPrefix(parts, nat64)) return ipv4Class(low);
  if (inPrefix(parts, sixToFour)) return ipv4Class(((parts[1] ?? 0) << 16) | (parts[2] ?? 0));
  const outer = ipv6PrefixClass(parts);
  // ISATAP: the IPv4 sits in the interface id, so the prefix and the IPv4 must both be public
  if (((parts[4] ?? 0) & 0xfcff) !== 0 || parts[5] !== 0x5efe || outer !== 'public') return outer;
  return ipv4Class(low);
}

// whether some cloud metadata address is public by the tables alone (then every public address is looked up too)
let ipv6MetadataPublic: boolean | undefined;

function metadataIpv6Public(): boolean {
  ipv6MetadataPublic ??= [...tables().metadataIpv6.keys()].some((a) => ipv6RangeClass(a) === 'public');
  return ipv6MetadataPublic;
}

// `classifyIpv6Prefix(…).class`
function ipv6PrefixClass(parts: readonly number[]): AddressClass {
  const { ipv6ByFirstByte, ipv6PublicExceptions, globalUnicast } = tables();
  const ranges = ipv6ByFirstByte[(parts[0] ?? 0) >> 8] ?? noV6Ranges;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i] as Ipv6Range;
    if (!inPrefix(parts, range)) continue;
    if (range.cls === 'ietf-protocol' && ipv6PublicExceptions.some((p) => inPrefix(parts, p))) break;
    return range.cls;
  }
  return inPrefix(parts, globalUnicast) ? 'public' : 'reserved';
}

// `text` is the canonical dotted form of `address` when the caller has it
function classifyIpv4(address: number, text: string = numberToDotted(address)): AddressVerdict {
  return ipv4NonPublic(address, text) ?? { address: text, class: 'public', public: true, description: 'public' };
}

// `address` is WHATWG-serialized IPv6 (lower-case hex, longest zero run compressed, no dotted tail); `parsed`: its
// hextets, when the caller has read them already
function classifyIpv6(address: string, parsed?: readonly number[]): AddressVerdict {
  const metadata = tables().metadataIpv6.get(address);
  if (metadata !== undefined) return { address, class: 'cloud-metadata', public: false, description: metadata };
  const parts = parsed ?? hextets(address);
  const embedded = embeddedIpv4(parts);
  if (embedded !== undefined && embedded.within !== undefined) {
    // ISATAP's interface id embeds an IPv4 under any prefix: both the prefix and the IPv4 must be public
    const outer = classifyIpv6Prefix(address, parts);
    if (!outer.public) return outer;
    const inner = classifyIpv4(embedded.ipv4);
    if (inner.public) return outer;
    return {
      address,
      class: inner.class,
      public: false,
      description: `${embedded.kind}, embeds ${inner.address} (${inner.description})`,
    };
  }
  if (embedded !== undefined) {
    const inner = classifyIpv4(embedded.ipv4);
    if (inner.public)
      return {
        address,
        class: 'public',
        public: true,
        description: `${embedded.kind}, embeds public ${inner.address}`,
      };
    return {
      address,
      class: inner.class,
      public: false,
      description: `${embedded.kind}, embeds ${inner.address} (${inner.description})`,
    };
  }
  return classifyIpv6Prefix(address, parts);
}

// the IPv6 special-purpose table and global unicast, ignoring any embedded IPv4
function classifyIpv6Prefix(address: string, parts: readonly number[]): AddressVerdict {
  const { ipv6ByFirstByte, ipv6PublicExceptions, globalUnicast } = tables();
  const ranges = ipv6ByFirstByte[(parts[0] ?? 0) >> 8] ?? noV6Ranges;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i] as Ipv6Range;
    if (!inPrefix(parts, range)) continue;
    if (range.cls === 'ietf-protocol' && ipv6PublicExceptions.some((p) => inPrefix(parts, p))) break;
    return { address, class: range.cls, public: false, description: range.label };
  }
  if (!inPrefix(parts, globalUnicast))
    return { address, class: 'reserved', public: false, description: 'outside global unicast 2000::/3' };
  return { address, class: 'public', public: true, description: 'public' };
}

// `within` is set when the IPv4 sits in the interface id, so the prefix is judged too
function embeddedIpv4(parts: readonly number[]): { kind: string; ipv4: number; within?: 'interface-id' } | undefined {
  const { mapped, nat64, sixToFour } = tables();
  const low = ((parts[6] ?? 0) << 16) | (parts[7] ?? 0);
  if (inPrefix(parts, mapped)) return { kind: 'ipv4-mapped ::ffff:0:0/96', ipv4: low };
  if (inPrefix(parts, nat64)) return { kind: 'nat64 64:ff9b::/96', ipv4: low };
  if (inPrefix(parts, sixToFour)) return { kind: '6to4 2002::/16', ipv4: ((parts[1] ?? 0) << 16) | (parts[2] ?? 0) };
  // RFC 5214 §6.1: ISATAP interface id `0000:5efe` or `0200:5efe` (u/g bits free), then the IPv4; a host with
  // an ISATAP tunnel sends `prefix::5efe:7f00:1` to 127.0.0.1 over IPv4
  if (((parts[4] ?? 0) & 0xfcff) === 0 && parts[5] === 0x5efe)
    return { kind: 'isatap ::5efe:0:0/96', ipv4: low, within: 'interface-id' };
  return undefined;
}

// WHATWG IPv6 text: 1–4 hex digits per group, at most one `::`, no dotted tail
function hextets(address: string, parts: number[] = [0, 0, 0, 0, 0, 0, 0, 0]): number[] {
  // a loop, not `fill` (a call out of optimized code per address)
  for (let i = 0; i < 8; i++) parts[i] = 0;
  let count = 0;
  // index in `parts` where `::` stands; the groups after it move to the end
  let gap = -1;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= address.length; i++) {
    const c = i === address.length ? 0x3a : address.charCodeAt(i);
    if (c === 0x3a) {
      if (digits > 0) parts[count++] = value;
      else if (gap === -1 && i < address.length) gap = count;
      value = 0;
      digits = 0;
    } else {
      value = value * 16 + (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57);
      digits++;
    }
  }
  if (gap !== -1 && count < 8) {
    for (let from = count - 1, to = 7; from >= gap; from--, to--) {
      parts[to] = parts[from] ?? 0;
      parts[from] = 0;
    }
  }
  return parts;
}

function inPrefix(
  parts: readonly number[],
  prefix: { readonly parts: readonly number[]; readonly bits: number },
): boolean {
  let bits = prefix.bits;
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const shift = bits >= 16 ? 0 : 16 - bits;
    if ((parts[i] ?? 0) >> shift !== (prefix.parts[i] ?? 0) >> shift) return false;
  }
  return true;
}

const noRanges: readonly Ipv4Range[] = Object.freeze([]);
const noV6Ranges: readonly Ipv6Range[] = Object.freeze([]);

function numberToDotted(address: number): string {
  return `${address >>> 24}.${(address >>> 16) & 255}.${(address >>> 8) & 255}.${address & 255}`;
}
