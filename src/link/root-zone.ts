import delegated from 'tlds' with { type: 'json' };

const asciiLdh = /^[a-z][a-z0-9-]*$/;

// ASCII top-level domains delegated in the DNS root zone (IANA's list as the `tlds` package ships it). IDN
// top-level domains are left out: they are written in punycode here, and their judgement is left to resolution,
// so a list older than a newly delegated IDN ccTLD never blocks it.
/** ASCII top-level domains delegated in the DNS root zone (lower-case, as the `tlds` package lists them). */
export const asciiTopLevelDomains: ReadonlySet<string> = new Set(delegated.filter((tld) => asciiLdh.test(tld)));

/**
 * True when `tld` (lower-case ASCII, no dot) can name a public DNS destination: it is delegated in the root
 * zone, or it is an IDN label (`xn--…`), which is left to resolution. Names under any other top-level domain
 * (`.svc`, `.consul`, `.localdomain4`, `.docker`, …) are answered only by a local, search-domain or
 * split-horizon resolver.
 */
export function isPublicTopLevelDomain(tld: string): boolean {
  return asciiTopLevelDomains.has(tld) || tld.startsWith('xn--');
}
