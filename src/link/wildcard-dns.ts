import { domainToASCII } from 'node:url';

/**
 * Public wildcard-DNS services whose names answer with the address written inside them (`10.0.0.5.nip.io`,
 * `app-10-0-0-5.sslip.io`, `0a000005.nip.io`, IPv6 with `-` for `:` as in `fd00-ec2--254.sslip.io`); used to
 * judge such names by their text.
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

// every service is a name of two labels: a name whose last two labels are none of them is none of their names
// (`.com`, `.io` and `.me` hold far more names than these services)
const serviceDomains: ReadonlySet<string> = new Set([...embeddingSuffixes.map((s) => s.slice(1)), ...loopbackDomains]);
for (const domain of serviceDomains) if (domain.split('.').length !== 2) throw new Error(`${domain}: not two labels`);

// the last two labels of a name (the whole name when it has fewer)
function lastTwoLabels(name: string): string {
  const last = name.lastIndexOf('.');
  return last <= 0 ? name : name.slice(name.lastIndexOf('.', last - 1) + 1);
}

const dashedQuad = /(?:^|-)(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})$/;
const hexQuad = /(?:^|-)([0-9a-f]{8})$/;

/**
 * The addresses a wildcard-DNS name may answer with, as text (dotted IPv4, IPv6 with `:`), or `loopback` for
 * the fixed loopback domains, or undefined when the name is not one of these services or encodes nothing.
 * Every reading is listed (a label like `--1-1-1-1` is 1.1.1.1 and ::1:1:1:1), so a caller can require all to
 * be public. `name` is canonical: lower-case, no trailing dot.
 */
export function wildcardDnsAnswers(name: string): readonly string[] | 'loopback' | undefined {
  if (!serviceDomains.has(lastTwoLabels(name))) return undefined;
  for (let i = 0; i < loopbackDomains.length; i++) {
    if (name.endsWith(loopbackSuffixes[i] as string) || name === loopbackDomains[i]) return 'loopback';
  }
  let suffix: string | undefined;
  for (const s of embeddingSuffixes) if (name.endsWith(s)) suffix = s;
  if (suffix === undefined) return undefined;
  const labels = name.slice(0, -suffix.length).split('.');
  const answers: string[] = [];
  const dotted = labels.slice(-4);
  if (dotted.length === 4 && dotted.every((l) => /^\d{1,3}$/.test(l))) pushDefined(answers, octets(dotted.map(Number)));
  const last = labels[labels.length - 1] ?? '';
  const dashed = dashedQuad.exec(last);
  if (dashed !== null) pushDefined(answers, octets(dashed.slice(1, 5).map(Number)));
  const hex = hexQuad.exec(last)?.[1];
  if (hex !== undefined) pushDefined(answers, octets([0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16))));
  if (last.includes('-')) pushDefined(answers, dashedIpv6(last));
  return answers.length === 0 ? undefined : answers;
}

/** The first address `wildcardDnsAnswers` lists, or `loopback`, or undefined. */
export function wildcardDnsAnswer(name: string): string | undefined {
  const answers = wildcardDnsAnswers(name);
  return typeof answers === 'string' ? answers : answers?.[0];
}

function pushDefined(list: string[], value: string | undefined): void {
  if (value !== undefined && !list.includes(value)) list.push(value);
}

function octets(parts: readonly number[]): string | undefined {
  return parts.every((o) => o <= 255) ? parts.join('.') : undefined;
}

// sslip.io writes IPv6 with `-` for `:` (`--1`, `2a01-4f8-c17-b8f--2`), after an optional `prefix-`: the
// leftmost start (label start or after a `-`) whose rest of the label is an IPv6 address, as its matcher takes it
function dashedIpv6(label: string): string | undefined {
  let start = 0;
  for (;;) {
    const text = label.slice(start).replaceAll('-', ':');
    if (dashedIpv6Text.test(text)) {
      // the WHATWG IPv6 parser gives the canonical text (`[fd00:ec2::254]`), or '' when it is not an address
      const canonical = domainToASCII(`[${text}]`);
      if (canonical !== '') return canonical.slice(1, -1);
    }
    const dash = label.indexOf('-', start);
    if (dash === -1) return undefined;
    start = dash + 1;
  }
}

const dashedIpv6Text = /^[0-9a-f:]+$/;
