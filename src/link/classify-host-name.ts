import { classifyAddress } from './classify-address.ts';
import { metadataNames } from './cloud-metadata.ts';
import { matchesNamePatterns, type NamePatterns } from './name-patterns.ts';
import { hashBits, mayHoldHash, nameHash } from './name-hash.ts';
import { topLevelBits } from './top-level-kinds.ts';
import { topLevelLabelHashes, topLevelLabelKinds, topLevelLabelText } from './top-level-table.ts';
import { wildcardDnsAnswers, wildcardDnsDomainBits, wildcardDnsDomainHashes } from './wildcard-dns.ts';

/** Why a host name is, or is not, a public destination by its text alone. */
export type NameClass =
  | 'public'
  | 'localhost'
  | 'cloud-metadata'
  | 'policy-internal'
  | 'internal-tld'
  | 'undelegated-tld'
  | 'single-label'
  | 'empty-label'
  | 'wildcard-dns';

/** The verdict on a host name; `public` means "nothing in the text says otherwise" (resolution may). */
export interface NameVerdict {
  readonly class: NameClass;
  readonly public: boolean;
  /** lower-case words for messages */
  readonly description: string;
}

/**
 * Top-level domains that never name a public destination: RFC 6761/6762/8375/9476 special-use names, the
 * RFC 2606 reserved names that local resolvers answer (`test`: Laravel Valet and dnsmasq set-ups point it at
 * 127.0.0.1; `invalid`), and the ICANN-withheld or de-facto private `corp`, `home`, `lan`, `intranet`, …. Not
 * `example`: it is for documentation, not a local namespace (`resolvedReservedTopLevelDomains`).
 */
export const internalTopLevelDomains: ReadonlySet<string> = new Set([
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'intra',
  'private',
  'corp',
  'home',
  'lan',
  'test',
  'invalid',
  'onion',
  'alt',
  'arpa',
  // cluster and service-discovery domains (kubernetes `*.svc`, `*.svc.cluster.local`, consul, nomad, docker
  // desktop) and distribution hosts-file domains (`localhost4.localdomain4`): never delegated, so they reach
  // whatever the local resolver says, also as opaque custom-scheme authorities
  'svc',
  'cluster',
  'consul',
  'nomad',
  'docker',
  'k8s',
  'kube',
  'localdomain4',
  'localdomain6',
]);

/**
 * Loopback and link-local names from distribution hosts files (Debian's `ip6-*`, SUSE's `ipv6-*`, Red Hat's
 * `localhost4`/`localhost6` and their `.localdomain4`/`.localdomain6` forms, macOS `broadcasthost`).
 */
export const hostsFileNames: ReadonlySet<string> = new Set([
  'localhost.localdomain',
  'localhost4',
  'localhost6',
  'localhost4.localdomain4',
  'localhost6.localdomain6',
  'ip6-localhost',
  'ip6-loopback',
  'ip6-localnet',
  'ip6-mcastprefix',
  'ip6-allnodes',
  'ip6-allrouters',
  'ip6-allhosts',
  'ipv6-localhost',
  'ipv6-loopback',
  'ipv6-localnet',
  'ipv6-mcastprefix',
  'ipv6-allnodes',
  'ipv6-allrouters',
  'ipv6-allhosts',
  'broadcasthost',
]);

/** How names are judged: network schemes treat single labels as intranet names; opaque custom schemes do not. */
export interface NameRules {
  readonly internalNames?: NamePatterns;
  /** true for custom-scheme authorities (`guide://manuals/…`), where a single label is an identifier */
  readonly opaqueAuthority?: boolean;
}

const publicName: NameVerdict = Object.freeze({ class: 'public', public: true, description: 'public' });
const emptyLabel: NameVerdict = Object.freeze({
  class: 'empty-label',
  public: false,
  description: 'has an empty label, so it is not a dns name',
});
const localhostName: NameVerdict = Object.freeze({
  class: 'localhost',
  public: false,
  description: 'is a localhost name',
});
const policyInternal: NameVerdict = Object.freeze({
  class: 'policy-internal',
  public: false,
  description: 'is marked internal by the policy',
});
const singleLabel: NameVerdict = Object.freeze({
  class: 'single-label',
  public: false,
  description: 'is a single-label name, resolved by search domains or intranet dns',
});
const loopbackWildcard: NameVerdict = Object.freeze({
  class: 'wildcard-dns',
  public: false,
  description: 'is a public dns name that answers with loopback',
});

// hosts-file names and cloud metadata names in one map (a hosts-file name is a localhost name first), made at first use
let knownNameVerdicts: ReadonlyMap<string, NameVerdict> | undefined;

function knownNames(): ReadonlyMap<string, NameVerdict> {
  if (knownNameVerdicts === undefined) {
    const map = new Map<string, NameVerdict>();
    for (const [name, what] of metadataNames) {
      map.set(
        name,
        Object.freeze({ class: 'cloud-metadata', public: false, description: `is a cloud metadata name (${what})` }),
      );
    }
    for (const name of hostsFileNames) map.set(name, localhostName);
    knownNameVerdicts = map;
    knownNameHashes = new Set([...map.keys()].map(nameHash));
    knownNameBits = hashBits(knownNameHashes);
  }
  return knownNameVerdicts;
}

// `nameHash` of every known name, made with the map: a name whose hash is none of them is not looked up (the map
// would hash the name's text again, which `classifyHostName`'s one pass already read)
let knownNameHashes: ReadonlySet<number> | undefined;
// the same hashes as bits: most names are ruled out without a set lookup
let knownNameBits: Uint32Array | undefined;

// the verdict of a known name, or undefined; `hash` is `nameHash(name)`
function knownName(name: string, hash: number): NameVerdict | undefined {
  const known = knownNames();
  if (knownNameBits === undefined || !mayHoldHash(knownNameBits, hash)) return undefined;
  return knownNameHashes?.has(hash) === true ? known.get(name) : undefined;
}

// What a top-level domain is, as bits: one lookup per name instead of one per table.
const tldInternal = topLevelBits.internal;
const tldWildcard = topLevelBits.wildcard;
const tldDelegated = topLevelBits.delegated;
const tldLocalhost = topLevelBits.localhost;

// every internal, wildcard-DNS and delegated top-level label, sorted by `nameHash`, as the build wrote them
// (top-level-table.ts): decoded at first use, never built label by label in a process that judges one link
let labelHashes: Uint32Array | undefined;
let labelTexts: readonly string[] = [];

function knownLabelHashes(): Uint32Array {
  if (labelHashes !== undefined) return labelHashes;
  const bytes = Buffer.from(topLevelLabelHashes, 'base64');
  const hashes = new Uint32Array(bytes.length >>> 2);
  for (let i = 0; i < hashes.length; i++) hashes[i] = bytes.readUInt32LE(i * 4);
  labelTexts = topLevelLabelText.split('|');
  if (labelTexts.length !== hashes.length || topLevelLabelKinds.length !== hashes.length)
    throw new Error('top-level-table.ts: its lists differ in length (run scripts/gen-top-level-table.ts)');
  labelHashes = hashes;
  return hashes;
}

// the bits of the label `host[start, end)` whose `nameHash` is `hash` (`isPublicTopLevelDomain` for the delegated bit:
// an IDN label, `xn--…`, listed or not, is left to resolution); the label is compared in place (no slice)
function topLevelKind(host: string, start: number, end: number, hash: number): number {
  const hashes = knownLabelHashes();
  // the first entry whose hash is not below `hash`, then every entry of that hash
  let lo = 0;
  let hi = hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((hashes[mid] ?? 0) < hash) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < hashes.length && hashes[i] === hash; i++) {
    const text = labelTexts[i] ?? '';
    if (text.length === end - start && host.startsWith(text, start))
      return Number.parseInt(topLevelLabelKinds[i] ?? '0', 16);
  }
  return host.startsWith('xn--', start) ? tldDelegated : 0;
}

/**
 * Classifies a canonical host name (IDNA ASCII, lower-case; one trailing dot allowed) by its text:
 * localhost names (RFC 6761) and hosts-file aliases, cloud metadata names, the policy's internal names,
 * internal top-level domains (`.home.arpa` falls under `.arpa`), single-label names, empty labels, wildcard-DNS
 * names that encode a non-public address, and, for network authorities, names whose top-level domain is not
 * delegated in the root zone (an allow-list: only a local resolver can answer them).
 */
export function classifyHostName(host: string, rules: NameRules = {}): NameVerdict {
  // one pass: the last dot, whether a label is empty (one trailing dot is allowed), the name's `nameHash`, and the
  // hashes of its last label and of its last two labels
  const end = host.charCodeAt(host.length - 1) === 0x2e ? host.length - 1 : host.length;
  let lastDot = -1;
  let empty = end === 0;
  let hash = 0;
  let labelHash = 0;
  let twoLabelHash = 0;
  for (let i = 0; i < end; i++) {
    const c = host.charCodeAt(i);
    hash = (Math.imul(hash, 31) + c) & 0x7fffffff;
    if (c !== 0x2e) {
      labelHash = (Math.imul(labelHash, 31) + c) & 0x7fffffff;
      twoLabelHash = (Math.imul(twoLabelHash, 31) + c) & 0x7fffffff;
      continue;
    }
    if (i === lastDot + 1) empty = true;
    lastDot = i;
    twoLabelHash = (Math.imul(labelHash, 31) + c) & 0x7fffffff;
    labelHash = 0;
  }
  if (empty || lastDot === end - 1) return rules.opaqueAuthority === true ? publicName : emptyLabel;
  const kind = topLevelKind(host, lastDot + 1, end, labelHash);
  if ((kind & tldLocalhost) !== 0) return localhostName;
  const name = end === host.length ? host : host.slice(0, end);
  const known = knownName(name, hash);
  if (known !== undefined) return known;
  const internal = rules.internalNames;
  if (internal !== undefined && (internal.exact.size > 0 || internal.suffixes.length > 0)) {
    if (matchesNamePatterns(internal, name)) return policyInternal;
  }
  if (lastDot === -1) return rules.opaqueAuthority === true ? publicName : singleLabel;
  if ((kind & tldInternal) !== 0) {
    const tld = name.slice(lastDot + 1);
    return { class: 'internal-tld', public: false, description: `uses the internal top-level domain \`.${tld}\`` };
  }
  // a wildcard-DNS service is a name of two labels: only a name ending in one of them is read for an address
  const wildcard =
    (kind & tldWildcard) !== 0 &&
    mayHoldHash(wildcardDnsDomainBits, twoLabelHash) &&
    wildcardDnsDomainHashes.has(twoLabelHash)
      ? wildcardDnsAnswers(name)
      : undefined;
  if (wildcard === 'loopback') return loopbackWildcard;
  if (wildcard !== undefined) {
    for (const answer of wildcard) {
      const inner = classifyAddress(answer);
      if (!inner.public) {
        return {
          class: 'wildcard-dns',
          public: false,
          description: `is a wildcard-dns name for ${inner.address} (${inner.description})`,
        };
      }
    }
  }
  if (rules.opaqueAuthority !== true && (kind & tldDelegated) === 0) {
    const tld = name.slice(lastDot + 1);
    return {
      class: 'undelegated-tld',
      public: false,
      description: `uses the top-level domain \`.${tld}\`, which is not delegated in the dns root zone`,
    };
  }
  return publicName;
}
