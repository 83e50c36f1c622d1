// The address tables `classify-address.ts` judges by: the IANA special-purpose registries as CIDR text, parsed and
// indexed once, at the first classification.
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
/**
 * An IPv4 range of the table as integers: `base` and `mask` as signed 32-bit values (`| 0`), as every IPv4 number of the
 * classification is (a number at or over 2^31 would be a heap number, boxed at each call and map lookup).
 */
export interface Ipv4Range {
  readonly base: number;
  readonly mask: number;
  readonly cls: AddressClass;
  readonly label: string;
}
/** An IPv6 range of the table as hextets. */
export interface Ipv6Range {
  readonly parts: readonly number[];
  readonly bits: number;
  readonly cls: AddressClass;
  readonly label: string;
}
/** An IPv6 prefix as hextets and its length in bits. */
export type Prefix = { readonly parts: readonly number[]; readonly bits: number };

/** The parsed tables, indexed for classification. */
export interface Tables {
  /**
   * the IPv4 ranges that can hold an address with this first octet, in table order (most specific first), after the
   * cloud metadata addresses with it (each a /32 of class `cloud-metadata`, its label what it is): the first range that
   * holds an address is its verdict, metadata or not, in one lookup
   */
  readonly ipv4ByFirstOctet: readonly (readonly Ipv4Range[])[];
  /** the IPv6 ranges that can hold an address with this first byte, in table order */
  readonly ipv6ByFirstByte: readonly (readonly Ipv6Range[])[];
  readonly ipv6PublicExceptions: readonly Prefix[];
  readonly globalUnicast: Prefix;
  readonly mapped: Prefix;
  readonly nat64: Prefix;
  readonly sixToFour: Prefix;
  /** by the address as a signed 32-bit value (`| 0`) */
  readonly metadataIpv4: ReadonlyMap<number, string>;
  readonly metadataIpv6: ReadonlyMap<string, string>;
}

let built: Tables | undefined;

/** The tables, parsed with ipaddr.js at the first call. */
export function tables(): Tables {
  built ??= buildTables();
  return built;
}

function buildTables(): Tables {
  const ipv4Table = ipv4Ranges.map(([cidr, cls, label]): Ipv4Range => {
    const [addr, bits] = ipaddr.IPv4.parseCIDR(cidr);
    const mask = bits === 0 ? 0 : 0xffffffff << (32 - bits);
    return { base: octetsToNumber(addr.octets) & mask, mask, cls, label };
  });
  const ipv6Prefix = (cidr: string): Prefix => {
    const [addr, bits] = ipaddr.IPv6.parseCIDR(cidr);
    return { parts: addr.parts, bits };
  };
  const metadataIpv4 = new Map<number, string>();
  const metadataIpv6 = new Map<string, string>();
  for (const [address, what] of metadataAddresses) {
    if (address.includes(':')) metadataIpv6.set(address, what);
    else metadataIpv4.set(octetsToNumber(ipaddr.IPv4.parse(address).octets) | 0, what);
  }
  const metadataRanges = [...metadataIpv4].map(
    ([base, what]): Ipv4Range => ({ base, mask: -1, cls: 'cloud-metadata', label: what }),
  );
  // a range covers the first octets from its base's to its last address's
  const ipv4ByFirstOctet = Array.from({ length: 256 }, (_, octet) =>
    [...metadataRanges, ...ipv4Table].filter(
      (r) => octet >= r.base >>> 24 && octet <= ((r.base | ~r.mask) >>> 0) >>> 24,
    ),
  );
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

/** The number of an IPv4 address given as four octets. */
export function octetsToNumber(octets: readonly number[]): number {
  return (((octets[0] ?? 0) << 24) | ((octets[1] ?? 0) << 16) | ((octets[2] ?? 0) << 8) | (octets[3] ?? 0)) >>> 0;
}
