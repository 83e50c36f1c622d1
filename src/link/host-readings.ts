import { createRequire } from 'node:module';
import { domainToASCII, domainToUnicode } from 'node:url';
import type * as Tr46 from 'tr46';
import { asciiHost, noHosts, type UriHost } from './uri-host.ts';

// Other readings of one host: what common non-WHATWG readers (Go and Java, IDNA2003 libraries, resolvers that drop
// empty labels) take from the same text, each judged beside the WHATWG host (`ParsedUri.otherHosts`).

// UTS #46 deviation characters: IDNA2003 and transitional readers map `ß` to `ss`, `ς` to `σ` and delete ZWJ and
// ZWNJ, while WHATWG (nontransitional) keeps them, so `faß.de` is xn--fa-hia.de to one reader and fass.de to
// another. `ẞ` (U+1E9E) splits readers the same way: node's IDNA table (Unicode 15.0) maps it to `ss`, UTS #46 since
// Unicode 15.1 (newer browsers, tr46) to `ß`, so `faẞ.de` is fass.de to the gate's parser and xn--fa-hia.de to them.
// Every reading is judged: the others are other readings of the host (`otherHosts`).
/** Characters UTS #46 readers map differently (`ß`, `ς`, ZWJ, ZWNJ, `ẞ`). */
export const idnaDeviation = /[\u00df\u03c2\u1e9e\u200c\u200d]/;

const load = createRequire(import.meta.url);
let tr46: typeof Tr46 | undefined;

// tr46 carries the whole UTS #46 mapping table (a few hundred KB): it is loaded only for a host that holds a deviation
// character, so a hook event (one process start) does not compile it
function uts46ToAscii(...args: Parameters<typeof Tr46.toASCII>): ReturnType<typeof Tr46.toASCII> {
  tr46 ??= load('tr46') as typeof Tr46;
  return tr46.toASCII(...args);
}

/**
 * The host as UTS #46 readers write it, transitional (IDNA2003 libraries, older browsers and resolvers) and
 * nontransitional by the current table (newer browsers, tr46), each that differs from `host` (the WHATWG reading of
 * node's table) and converts; none when all agree.
 */
export function transitionalReading(unicode: string, host: UriHost): readonly UriHost[] {
  let readings: UriHost[] | undefined;
  for (const transitionalProcessing of [true, false]) {
    const ascii = uts46ToAscii(unicode, {
      transitionalProcessing,
      checkHyphens: false,
      checkBidi: true,
      checkJoiners: true,
      useSTD3ASCIIRules: false,
      verifyDNSLength: false,
    });
    if (ascii === null || ascii === '') continue;
    const reading = asciiHost(ascii.toLowerCase());
    if (reading.text === host.text || readings?.some((r) => r.text === reading.text) === true) continue;
    (readings ??= []).push(reading);
  }
  return readings ?? noHosts;
}

const decimalParts = /^\d+$/;
const zeroPadded = /^0\d/;
const plainDotted = /^[\d.]*$/;
const needsMapping = /[^\x21-\x7e]|%/;

// only digits and dots, and no part a zero-padded number (`0` alone is one): `/^[\d.]*$/` without `/(?:^|\.)0\d/`,
// in one pass by char code (most IPv4 hosts a link carries are this)
function plainUnpadded(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) continue;
    if (c < 0x30 || c > 0x39) return false;
    if (c === 0x30 && (i === 0 || text.charCodeAt(i - 1) === 0x2e)) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0x30 && next <= 0x39) return false;
    }
  }
  return true;
}

/**
 * CVE-2021-29923 (Go < 1.17), Java's `InetAddress` and netmask's CVE-2021-28918: a zero-padded IPv4 part is
 * decimal to these readers and octal to WHATWG and inet_aton. Returns the decimal reading (inet_aton's one to
 * four parts) when it differs from `host`; `rawHost` may be percent-encoded or fullwidth.
 */
export function decimalReading(rawHost: string, host: UriHost): readonly UriHost[] {
  // the common case, plain dotted digits without a zero-padded part, reads the same everywhere
  if (!rawHost.includes('0') || plainUnpadded(rawHost)) return noHosts;
  let text: string;
  if (!needsMapping.test(rawHost)) {
    // printable ASCII without `%`: mapping would only lower-case it, and a letter (`0x7f`) is not a decimal part
    if (!plainDotted.test(rawHost)) return noHosts;
    return decimalDigitsReading(rawHost, host);
  } else {
    // map fullwidth digits, ideographic dots and percent-escapes as WHATWG does, but stop it reading numbers:
    // a trailing label makes the text a name
    const mapped = domainToASCII(`${rawHost}.x`);
    if (mapped === '') return noHosts;
    text = mapped.slice(0, -2);
  }
  if (text.endsWith('.')) text = text.slice(0, -1);
  const parts = text.split('.');
  if (parts.length > 4 || !parts.every((p) => decimalParts.test(p)) || !parts.some((p) => zeroPadded.test(p)))
    return noHosts;
  const numbers = parts.map(Number);
  const last = numbers.pop() ?? 0;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return noHosts;
  let address = 0;
  for (const n of numbers) address = address * 256 + n;
  address = address * 256 ** (4 - numbers.length) + last;
  const dotted = `${Math.floor(address / 16777216)}.${Math.floor(address / 65536) % 256}.${Math.floor(address / 256) % 256}.${address % 256}`;
  return dotted === host.text ? noHosts : [{ kind: 'ipv4', text: dotted }];
}

// `decimalReading` of text made of ASCII digits and dots only, in one pass: the same parts, numbers and checks
function decimalDigitsReading(rawHost: string, host: UriHost): readonly UriHost[] {
  const end = rawHost.endsWith('.') ? rawHost.length - 1 : rawHost.length;
  const numbers = [0, 0, 0, 0];
  let count = 0;
  let digits = 0;
  let padded = false;
  for (let i = 0; i <= end; i++) {
    const c = i === end ? 0x2e : rawHost.charCodeAt(i);
    if (c === 0x2e) {
      // an empty part, or a fifth, is not an address to these readers
      if (digits === 0 || count === 4) return noHosts;
      count++;
      digits = 0;
      continue;
    }
    if (digits === 1 && numbers[count] === 0) padded = true;
    numbers[count] = (numbers[count] ?? 0) * 10 + (c - 0x30);
    digits++;
  }
  if (!padded) return noHosts;
  const last = numbers[count - 1] ?? 0;
  for (let k = 0; k < count - 1; k++) if ((numbers[k] ?? 0) > 255) return noHosts;
  if (last >= 256 ** (5 - count)) return noHosts;
  let address = 0;
  for (let k = 0; k < count - 1; k++) address = address * 256 + (numbers[k] ?? 0);
  address = address * 256 ** (5 - count) + last;
  const dotted = `${Math.floor(address / 16777216)}.${Math.floor(address / 65536) % 256}.${Math.floor(address / 256) % 256}.${address % 256}`;
  return dotted === host.text ? noHosts : [{ kind: 'ipv4', text: dotted }];
}

/**
 * A label `xn--…` whose decoding is plain ASCII (`xn--localhost-` is `localhost`) is invalid under UTS #46
 * since Unicode 15.1 yet kept by node's IDNA; the decoded name is the reading a converting client may use.
 */
export function punycodeReading(host: UriHost): readonly UriHost[] {
  if (!host.text.includes('xn--')) return noHosts;
  const unicode = domainToUnicode(host.text);
  // ASCII-only after decoding, and not the same text: some label was fake punycode
  if (unicode === host.text || !asciiOnly.test(unicode)) return noHosts;
  const ascii = domainToASCII(unicode);
  return ascii === '' || ascii === host.text ? noHosts : [asciiHost(ascii)];
}

const asciiOnly = /^[\u0000-\u007f]*$/;

/**
 * An opaque identifier may have empty labels (`guide://127.0.0.1../`), but a resolver that drops them must not
 * find a non-public host: the reading with empty labels removed, read again as a WHATWG host.
 */
export function compactReading(host: UriHost): readonly UriHost[] {
  if (!host.text.includes('..') && !host.text.startsWith('.') && !host.text.endsWith('.')) return noHosts;
  const compact = host.text
    .split('.')
    .filter((label) => label !== '')
    .join('.');
  const ascii = compact === '' ? '' : domainToASCII(compact);
  return ascii === '' || ascii === host.text ? noHosts : [asciiHost(ascii)];
}
