import { classifyAddress } from './classify-address.ts';
import { metadataNames } from './cloud-metadata.ts';
import { matchesNamePatterns, noNamePatterns, type NamePatterns } from './name-patterns.ts';
import { wildcardDnsAnswer, wildcardDnsTopLevelDomains } from './wildcard-dns.ts';

/** Why a host name is, or is not, a public destination by its text alone. */
export type NameClass =
  | 'public'
  | 'localhost'
  | 'cloud-metadata'
  | 'policy-internal'
  | 'internal-tld'
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
 * localhost names (RFC 6761), cloud metadata names, the policy's internal names, internal top-level
 * domains (`.home.arpa` falls under `.arpa`), single-label names, empty labels, and wildcard-DNS names that encode a non-public IPv4.
 */
export function classifyHostName(host: string, rules: NameRules = {}): NameVerdict {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === '' || name.startsWith('.') || name.endsWith('.') || name.includes('..')) {
    if (rules.opaqueAuthority === true) return publicName;
    return { class: 'empty-label', public: false, description: 'has an empty label, so it is not a dns name' };
  }
  const lastDot = name.lastIndexOf('.');
  const tld = lastDot === -1 ? name : name.slice(lastDot + 1);
  if (tld === 'localhost' || name === 'ip6-localhost' || name === 'ip6-loopback' || name === 'localhost.localdomain') {
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
  const wildcard = wildcardDnsTopLevelDomains.has(tld) ? wildcardDnsAnswer(name) : undefined;
  if (wildcard === 'loopback')
    return { class: 'wildcard-dns', public: false, description: 'is a public dns name that answers with loopback' };
  if (wildcard !== undefined) {
    const inner = classifyAddress(wildcard);
    if (!inner.public) {
      return {
        class: 'wildcard-dns',
        public: false,
        description: `is a wildcard-dns name for ${inner.address} (${inner.description})`,
      };
    }
  }
  return publicName;
}
