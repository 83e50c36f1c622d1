/**
 * Public wildcard-DNS services whose names answer with the IPv4 address written inside them
 * (`10.0.0.5.nip.io`, `app-10-0-0-5.sslip.io`, `0a000005.nip.io`); used to judge such names by their text.
 */
const embeddingSuffixes: readonly string[] = [
  '.nip.io',
  '.sslip.io',
  '.xip.io',
  '.traefik.me',
  '.nip.direct',
  '.local.gd',
];

/** Names (and their subdomains) that public DNS answers with loopback: developer conveniences, SSRF favourites. */
const loopbackDomains: readonly string[] = ['localtest.me', 'lvh.me', 'vcap.me', 'lacolhost.com', 'fuf.me'];
const loopbackSuffixes: readonly string[] = loopbackDomains.map((d) => `.${d}`);

/** Top-level domains of every service above: names under any other TLD skip the scan. */
export const wildcardDnsTopLevelDomains: ReadonlySet<string> = new Set(
  [...embeddingSuffixes, ...loopbackDomains].map((d) => d.slice(d.lastIndexOf('.') + 1)),
);

const dashedQuad = /(?:^|-)(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})$/;
const hexQuad = /(?:^|-)([0-9a-f]{8})$/;

/**
 * The IPv4 address a wildcard-DNS name encodes, in dotted decimal, or `loopback` for the fixed
 * loopback domains, or undefined when the name is not one of these services (or encodes nothing).
 * `name` is canonical: lower-case, no trailing dot.
 */
export function wildcardDnsAnswer(name: string): string | 'loopback' | undefined {
  for (let i = 0; i < loopbackDomains.length; i++) {
    if (name.endsWith(loopbackSuffixes[i] as string) || name === loopbackDomains[i]) return 'loopback';
  }
  let suffix: string | undefined;
  for (const s of embeddingSuffixes) if (name.endsWith(s)) suffix = s;
  if (suffix === undefined) return undefined;
  const labels = name.slice(0, -suffix.length).split('.');
  const dotted = labels.slice(-4);
  if (dotted.length === 4 && dotted.every((l) => /^\d{1,3}$/.test(l))) return octets(dotted.map(Number));
  const last = labels[labels.length - 1] ?? '';
  const dashed = dashedQuad.exec(last);
  if (dashed !== null) return octets(dashed.slice(1, 5).map(Number));
  const hex = hexQuad.exec(last)?.[1];
  if (hex !== undefined) return octets([0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16)));
  return undefined;
}

function octets(parts: readonly number[]): string | undefined {
  return parts.every((o) => o <= 255) ? parts.join('.') : undefined;
}
