import delegated from 'tlds' with { type: 'json' };

const asciiLdh = /^[a-z][a-z0-9-]*$/;

// ASCII top-level domains delegated in the DNS root zone (IANA's list as the `tlds` package ships it). IDN
// top-level domains are left out: they are written in punycode here, and their judgement is left to resolution,
// so a list older than a newly delegated IDN ccTLD never blocks it.
/** ASCII top-level domains delegated in the DNS root zone (lower-case, as the `tlds` package lists them). */
export const asciiTopLevelDomains: ReadonlySet<string> = new Set(delegated.filter((tld) => asciiLdh.test(tld)));

/**
 * Reserved top-level domains that name resolution must not treat as special (RFC 6761 §6.5: `example` is for
 * documentation, and resolvers send its names to their DNS server like any other): not a local namespace, so a name
 * under one is left to resolution, as a name under a delegated one is.
 */
export const resolvedReservedTopLevelDomains: ReadonlySet<string> = new Set(['example']);

/**
 * True when `tld` (lower-case ASCII, no dot) can name a public DNS destination: it is delegated in the root
 * zone, or it is an IDN label (`xn--…`) or a reserved one of `resolvedReservedTopLevelDomains`, which are left to
 * resolution. Names under any other top-level domain
 * (`.svc`, `.consul`, `.localdomain4`, `.docker`, …) are answered only by a local, search-domain or
 * split-horizon resolver.
 */
export function isPublicTopLevelDomain(tld: string): boolean {
  return asciiTopLevelDomains.has(tld) || tld.startsWith('xn--') || resolvedReservedTopLevelDomains.has(tld);
}
