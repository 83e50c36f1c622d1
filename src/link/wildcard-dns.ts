import { domainToASCII } from 'node:url';
import { hashBits, nameHash } from './name-hash.ts';

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

/**
 * `nameHash` of every service domain (two labels each): a name whose last two labels hash to none of these is not
 * one of their names, so a caller that hashed them already skips `wildcardDnsAnswers`.
 */
export const wildcardDnsDomainHashes: ReadonlySet<number> = new Set([...serviceDomains].map(nameHash));

/** `wildcardDnsDomainHashes` as bits (`mayHoldHash`): most names are ruled out without a set lookup. */
export const wildcardDnsDomainBits: Uint32Array = hashBits(wildcardDnsDomainHashes);

// the last two labels of a name (the whole name when it has fewer)
function lastTwoLabels(name: string): string {
  const last = name.lastIndexOf('.');
  return last <= 0 ? name : name.slice(name.lastIndexOf('.', last - 1) + 1);
}

// sslip.io (and nip.io) take an address anywhere in the name, bounded by the name's start or end, `.` or `-`:
// four decimal octets with `.` or `-` between them (mixed too), or eight hex digits
const quadAnywhere = /(?<=^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=$|[.-])/g;
const hexAnywhere = /(?<=^|[.-])([0-9a-f]{8})(?=$|[.-])/g;

// every match of a global pattern, overlapping ones too (`1-2-3-4-5` holds 1.2.3.4 and 2.3.4.5)
function* everyMatch(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    yield m;
    pattern.lastIndex = m.index + 1;
  }
}

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
  // every reading anywhere in the name, not only in its last labels (`127-0-0-1.app.sslip.io`,
  // `x-127-0-0-1-y.sslip.io`, `7f000001-app.nip.io`, `--1.app.sslip.io`): the caller requires all to be public
  const embedded = name.slice(0, -suffix.length);
  const answers: string[] = [];
  for (const m of everyMatch(quadAnywhere, embedded)) pushDefined(answers, octets(m.slice(1, 5).map(Number)));
  for (const m of everyMatch(hexAnywhere, embedded)) {
    const hex = m[1] ?? '';
    pushDefined(answers, octets([0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16))));
  }
  for (const label of embedded.split('.')) if (label.includes('-')) pushDefined(answers, dashedIpv6(label));
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

// sslip.io writes IPv6 with `-` for `:` (`--1`, `2a01-4f8-c17-b8f--2`), anywhere in a label bounded by its
// ends or a `-`: as its matcher takes it, the leftmost start (label start, a `-` that may open `::`, or after a
// `-`) with the longest end (label end or before a `-`) whose text is an IPv6 address
function dashedIpv6(label: string): string | undefined {
  for (let start = 0; start < label.length; start++) {
    if (start > 0 && label[start] !== '-' && label[start - 1] !== '-') continue;
    for (let end = label.length; end > start; end = label.lastIndexOf('-', end - 1)) {
      const text = label.slice(start, end).replaceAll('-', ':');
      if (text.includes(':') && dashedIpv6Text.test(text)) {
        // the WHATWG IPv6 parser gives the canonical text (`[fd00:ec2::254]`), or '' when it is not an address
        const canonical = domainToASCII(`[${text}]`);
        if (canonical !== '') return canonical.slice(1, -1);
      }
    }
  }
  return undefined;
}

const dashedIpv6Text = /^[0-9a-f:]+$/;
