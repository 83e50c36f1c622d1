import { classifyAddress } from './classify-address.ts';
import { metadataNames } from './cloud-metadata.ts';
import { matchesNamePatterns, noNamePatterns, type NamePatterns } from './name-patterns.ts';
import { isPublicTopLevelDomain } from './root-zone.ts';
import { wildcardDnsAnswers, wildcardDnsTopLevelDomains } from './wildcard-dns.ts';

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
 * Top-level domains that never name a public destination: RFC 6761/6762/8375/9476 special-use names,
 * RFC 2606 reserved names, and the ICANN-withheld or de-facto private `corp`, `home`, `lan`, `intranet`, ….
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
  'example',
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

/**
 * Classifies a canonical host name (IDNA ASCII, lower-case; one trailing dot allowed) by its text:
 * localhost names (RFC 6761) and hosts-file aliases, cloud metadata names, the policy's internal names,
 * internal top-level domains (`.home.arpa` falls under `.arpa`), single-label names, empty labels, wildcard-DNS
 * names that encode a non-public address, and, for network authorities, names whose top-level domain is not
 * delegated in the root zone (an allow-list: only a local resolver can answer them).
 */
export function classifyHostName(host: string, rules: NameRules = {}): NameVerdict {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === '' || name.startsWith('.') || name.endsWith('.') || name.includes('..')) {
    if (rules.opaqueAuthority === true) return publicName;
    return { class: 'empty-label', public: false, description: 'has an empty label, so it is not a dns name' };
  }
  const lastDot = name.lastIndexOf('.');
  const tld = lastDot === -1 ? name : name.slice(lastDot + 1);
  if (tld === 'localhost' || hostsFileNames.has(name)) {
    return { class: 'localhost', public: false, description: 'is a localhost name' };
  }
  const metadata = metadataNames.get(name);
  if (metadata !== undefined)
    return { class: 'cloud-metadata', public: false, description: `is a cloud metadata name (${metadata})` };
  if (matchesNamePatterns(rules.internalNames ?? noNamePatterns, name)) {
    return { class: 'policy-internal', public: false, description: 'is marked internal by the policy' };
  }
  if (lastDot === -1) {
    if (rules.opaqueAuthority === true) return publicName;
    return {
      class: 'single-label',
      public: false,
      description: 'is a single-label name, resolved by search domains or intranet dns',
    };
  }
  if (internalTopLevelDomains.has(tld)) {
    return { class: 'internal-tld', public: false, description: `uses the internal top-level domain \`.${tld}\`` };
  }
  const wildcard = wildcardDnsTopLevelDomains.has(tld) ? wildcardDnsAnswers(name) : undefined;
  if (wildcard === 'loopback')
    return { class: 'wildcard-dns', public: false, description: 'is a public dns name that answers with loopback' };
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
  if (rules.opaqueAuthority !== true && !isPublicTopLevelDomain(tld)) {
    return {
      class: 'undelegated-tld',
      public: false,
      description: `uses the top-level domain \`.${tld}\`, which is not delegated in the dns root zone`,
    };
  }
  return publicName;
}
