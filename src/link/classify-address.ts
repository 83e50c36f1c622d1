import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import { metadataAddresses } from './cloud-metadata.ts';

/** What an IP address is, as a destination; `public` is the only class a link may reach. */
export type AddressClass =
  | 'public'
  | 'cloud-metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'this-network'
  | 'shared'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'ietf-protocol'
  | 'relay-anycast'
  | 'unique-local'
  | 'site-local'
  | 'discard'
  | 'teredo'
  | 'orchid'
  | 'drone-id'
  | 'segment-routing'
  | 'nat64-local'
  | 'ipv4-translated'
  | 'ipv4-compatible'
  | 'invalid';

/** The verdict on one address: `address` is canonical text (IPv4 dotted, IPv6 RFC 5952, no brackets). */
export interface AddressVerdict {
  readonly address: string;
  readonly class: AddressClass;
  readonly public: boolean;
  /** lower-case words for messages: `loopback 127/8`, `ipv4-mapped, embeds 10.0.0.1 (private 10/8)` */
  readonly description: string;
}

type Range = readonly [cidr: string, cls: AddressClass, label: string];

// IANA IPv4 special-purpose registry (RFC 6890 and updates), most specific first. ipaddr.js lumps several of
// these under `reserved`; this table names them. 192.31.196/24 and 192.175.48/24 (AS112) and 192.52.193/24
// (AMT) are globally reachable anycast and stay public.
const ipv4Ranges: readonly Range[] = [
  ['0.0.0.0/32', 'unspecified', 'unspecified 0.0.0.0'],
  ['0.0.0.0/8', 'this-network', '"this network" 0/8'],
  ['10.0.0.0/8', 'private', 'private 10/8'],
  ['100.64.0.0/10', 'shared', 'shared address space (cgnat) 100.64/10'],
  ['127.0.0.0/8', 'loopback', 'loopback 127/8'],
  ['169.254.0.0/16', 'link-local', 'link-local 169.254/16'],
  ['172.16.0.0/12', 'private', 'private 172.16/12'],
  ['192.0.0.0/24', 'ietf-protocol', 'ietf protocol assignments 192.0.0/24'],
  ['192.0.2.0/24', 'documentation', 'documentation 192.0.2/24'],
  ['192.88.99.0/24', 'relay-anycast', 'deprecated 6to4 relay anycast 192.88.99/24'],
  ['192.168.0.0/16', 'private', 'private 192.168/16'],
  ['198.18.0.0/15', 'benchmarking', 'benchmarking 198.18/15'],
  ['198.51.100.0/24', 'documentation', 'documentation 198.51.100/24'],
  ['203.0.113.0/24', 'documentation', 'documentation 203.0.113/24'],
  ['224.0.0.0/4', 'multicast', 'multicast 224/4'],
  ['255.255.255.255/32', 'broadcast', 'broadcast 255.255.255.255'],
  ['240.0.0.0/4', 'reserved', 'reserved 240/4'],
];

// IPv6: everything outside 2000::/3 is non-public (loopback, unspecified, ula, link-local, multicast,
// discard, reserved); inside it, these special-purpose blocks are not destinations either. ipaddr.js calls
// the last four ordinary `unicast`, or gives them no name at all.
const ipv6Ranges: readonly Range[] = [
  ['::1/128', 'loopback', 'loopback ::1'],
  ['::/128', 'unspecified', 'unspecified ::'],
  ['::ffff:0:0:0/96', 'ipv4-translated', 'ipv4-translated ::ffff:0:0:0/96'],
  ['::/96', 'ipv4-compatible', 'deprecated ipv4-compatible ::/96'],
  ['64:ff9b:1::/48', 'nat64-local', 'local-use nat64 64:ff9b:1::/48'],
  ['100::/64', 'discard', 'discard-only 100::/64'],
  ['fc00::/7', 'unique-local', 'unique-local fc00::/7'],
  ['fe80::/10', 'link-local', 'link-local fe80::/10'],
  ['fec0::/10', 'site-local', 'deprecated site-local fec0::/10'],
  ['ff00::/8', 'multicast', 'multicast ff00::/8'],
  ['2001::/32', 'teredo', 'teredo 2001::/32'],
  ['2001:2::/48', 'benchmarking', 'benchmarking 2001:2::/48'],
  ['2001:10::/28', 'orchid', 'deprecated orchid 2001:10::/28'],
  ['2001:20::/28', 'orchid', 'orchidv2 2001:20::/28'],
  ['2001:30::/28', 'drone-id', 'drone remote id 2001:30::/28'],
  // AMT (2001:3::/32) and AS112 (2001:4:112::/48) are globally reachable anycast: checked before the /23
  ['2001::/23', 'ietf-protocol', 'ietf protocol assignments 2001::/23'],
  ['2001:db8::/32', 'documentation', 'documentation 2001:db8::/32'],
  ['3fff::/20', 'documentation', 'documentation 3fff::/20'],
  ['5f00::/16', 'segment-routing', 'srv6 sids 5f00::/16'],
];

// Tables are parsed with ipaddr.js once, at the first classification (a hook event that judges no address, one
// process start, does not parse them); classification then compares integers (IPv4) and
// hextets (IPv6).
interface Ipv4Range {
  readonly base: number;
  readonly mask: number;
  readonly cls: AddressClass;
  readonly label: string;
}
interface Ipv6Range {
  readonly parts: readonly number[];
  readonly bits: number;
  readonly cls: AddressClass;
  readonly label: string;
}
type Prefix = { readonly parts: readonly number[]; readonly bits: number };

interface Tables {
  /** the IPv4 ranges that can hold an address with this first octet, in table order (most specific first) */
  readonly ipv4ByFirstOctet: readonly (readonly Ipv4Range[])[];
  /** the IPv6 ranges that can hold an address with this first byte, in table order */
  readonly ipv6ByFirstByte: readonly (readonly Ipv6Range[])[];
  readonly ipv6PublicExceptions: readonly Prefix[];
  readonly globalUnicast: Prefix;
  readonly mapped: Prefix;
  readonly nat64: Prefix;
  readonly sixToFour: Prefix;
  readonly metadataIpv4: ReadonlyMap<number, string>;
  readonly metadataIpv6: ReadonlyMap<string, string>;
}

let built: Tables | undefined;

function tables(): Tables {
  built ??= buildTables();
  return built;
}

function buildTables(): Tables {
  const ipv4Table = ipv4Ranges.map(([cidr, cls, label]): Ipv4Range => {
    const [addr, bits] = ipaddr.IPv4.parseCIDR(cidr);
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    return { base: (octetsToNumber(addr.octets) & mask) >>> 0, mask, cls, label };
  });
  // a range covers the first octets from its base's to its last address's
  const ipv4ByFirstOctet = Array.from({ length: 256 }, (_, octet) =>
    ipv4Table.filter((r) => octet >= r.base >>> 24 && octet <= ((r.base | ~r.mask) >>> 0) >>> 24),
  );
  const ipv6Prefix = (cidr: string): Prefix => {
    const [addr, bits] = ipaddr.IPv6.parseCIDR(cidr);
    return { parts: addr.parts, bits };
  };
  const metadataIpv4 = new Map<number, string>();
  const metadataIpv6 = new Map<string, string>();
  for (const [address, what] of metadataAddresses) {
    if (address.includes(':')) metadataIpv6.set(address, what);
    else metadataIpv4.set(octetsToNumber(ipaddr.IPv4.parse(address).octets), what);
  }
  const ipv6Table = ipv6Ranges.map(([cidr, cls, label]) => ({ ...ipv6Prefix(cidr), cls, label }));
  // a range covers the first bytes that agree with its prefix in its first (up to 8) bits
  const ipv6ByFirstByte = Array.from({ length: 256 }, (_, byte) =>
    ipv6Table.filter((r) => {
      const shift = 8 - Math.min(r.bits, 8);
      return byte >> shift === ((r.parts[0] ?? 0) >> 8) >> shift;
    }),
  );
  return {
    ipv4ByFirstOctet,
    ipv6ByFirstByte,
    ipv6PublicExceptions: ['2001:3::/32', '2001:4:112::/48'].map(ipv6Prefix),
    globalUnicast: ipv6Prefix('2000::/3'),
    mapped: ipv6Prefix('::ffff:0:0/96'),
    nat64: ipv6Prefix('64:ff9b::/96'),
    sixToFour: ipv6Prefix('2002::/16'),
    metadataIpv4,
    metadataIpv6,
  };
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
    if (parts.every((p) => p <= 255)) return classifyIpv4(octetsToNumber(parts));
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

// the number of an IPv4 address in dotted decimal as WHATWG serializes it: four runs of digits, each ≤ 255
function dottedValue(canonical: string): number {
  let address = 0;
  let octet = 0;
  for (let i = 0; i < canonical.length; i++) {
    const c = canonical.charCodeAt(i);
    if (c === 0x2e) {
      address = address * 256 + octet;
      octet = 0;
    } else octet = octet * 10 + (c - 0x30);
  }
  return address * 256 + octet;
}

/**
 * `classifyIpLiteral(kind, canonical).class`, without building the verdict: the per-link allow path asks only whether
 * a literal is public (its words are needed only for a denial).
 */
export function ipLiteralClass(kind: 'ipv4' | 'ipv6', canonical: string): AddressClass {
  if (kind === 'ipv6') return ipv6Class(canonical);
  return ipv4Class(dottedValue(canonical));
}

// the class of an IPv4 address as a number (`classifyIpv4(address).class`)
function ipv4Class(address: number): AddressClass {
  const cls = ipv4RangeClass(address);
  // a public address needs the metadata lookup only when some metadata address is public by the ranges alone
  if (cls === 'public' && !metadataIpv4Public()) return 'public';
  return tables().metadataIpv4.has(address) ? 'cloud-metadata' : cls;
}

function ipv4RangeClass(address: number): AddressClass {
  const ranges = tables().ipv4ByFirstOctet[address >>> 24] ?? noRanges;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i] as Ipv4Range;
    if ((address & range.mask) >>> 0 === range.base) return range.cls;
  }
  return 'public';
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
  const low = ((parts[6] ?? 0) * 0x10000 + (parts[7] ?? 0)) >>> 0;
  if (inPrefix(parts, mapped) || inPrefix(parts, nat64)) return ipv4Class(low);
  if (inPrefix(parts, sixToFour)) return ipv4Class(((parts[1] ?? 0) * 0x10000 + (parts[2] ?? 0)) >>> 0);
  const outer = ipv6PrefixClass(parts);
  // ISATAP: the IPv4 sits in the interface id, so the prefix and the IPv4 must both be public
  if (((parts[4] ?? 0) & 0xfcff) !== 0 || parts[5] !== 0x5efe || outer !== 'public') return outer;
  return ipv4Class(low);
}

// whether some cloud metadata address is public by the tables alone (then every public address is looked up too)
let ipv4MetadataPublic: boolean | undefined;
let ipv6MetadataPublic: boolean | undefined;

function metadataIpv4Public(): boolean {
  ipv4MetadataPublic ??= [...tables().metadataIpv4.keys()].some((a) => ipv4RangeClass(a) === 'public');
  return ipv4MetadataPublic;
}

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
  const { metadataIpv4, ipv4ByFirstOctet } = tables();
  const metadata = metadataIpv4.get(address);
  if (metadata !== undefined) return { address: text, class: 'cloud-metadata', public: false, description: metadata };
  const ranges = ipv4ByFirstOctet[address >>> 24] ?? noRanges;
  for (let i = 0; i < ranges.length; i++) {
    const range = ranges[i] as Ipv4Range;
    if ((address & range.mask) >>> 0 === range.base)
      return { address: text, class: range.cls, public: false, description: range.label };
  }
  return { address: text, class: 'public', public: true, description: 'public' };
}

// `address` is WHATWG-serialized IPv6 (lower-case hex, longest zero run compressed, no dotted tail)
function classifyIpv6(address: string): AddressVerdict {
  const metadata = tables().metadataIpv6.get(address);
  if (metadata !== undefined) return { address, class: 'cloud-metadata', public: false, description: metadata };
  const parts = hextets(address);
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
  const low = ((parts[6] ?? 0) * 0x10000 + (parts[7] ?? 0)) >>> 0;
  if (inPrefix(parts, mapped)) return { kind: 'ipv4-mapped ::ffff:0:0/96', ipv4: low };
  if (inPrefix(parts, nat64)) return { kind: 'nat64 64:ff9b::/96', ipv4: low };
  if (inPrefix(parts, sixToFour))
    return { kind: '6to4 2002::/16', ipv4: ((parts[1] ?? 0) * 0x10000 + (parts[2] ?? 0)) >>> 0 };
  // RFC 5214 §6.1: ISATAP interface id `0000:5efe` or `0200:5efe` (u/g bits free), then the IPv4; a host with
  // an ISATAP tunnel sends `prefix::5efe:7f00:1` to 127.0.0.1 over IPv4
  if (((parts[4] ?? 0) & 0xfcff) === 0 && parts[5] === 0x5efe)
    return { kind: 'isatap ::5efe:0:0/96', ipv4: low, within: 'interface-id' };
  return undefined;
}

// WHATWG IPv6 text: 1–4 hex digits per group, at most one `::`, no dotted tail
function hextets(address: string, parts: number[] = [0, 0, 0, 0, 0, 0, 0, 0]): number[] {
  parts.fill(0);
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

function octetsToNumber(octets: readonly number[]): number {
  return (((octets[0] ?? 0) << 24) | ((octets[1] ?? 0) << 16) | ((octets[2] ?? 0) << 8) | (octets[3] ?? 0)) >>> 0;
}

function numberToDotted(address: number): string {
  return `${address >>> 24}.${(address >>> 16) & 255}.${(address >>> 8) & 255}.${address & 255}`;
}
