// The usual link, `https://docs.example.com/guide?x=1`, read without the WHATWG parser: text that is provably its own
// WHATWG serialization already says what the parser would (issue 42 item 5). Anything the proof does not cover takes
// the parser (`parseUri`); `test/link/canonical-network-uri.test.ts` checks every reading here against `URL`.

/** Where a canonical network uri's parts are, as `readCanonicalNetworkUri` read them. */
export interface CanonicalParts {
  scheme: 'http' | 'https' | 'ws' | 'wss';
  /** the host is `raw.slice(hostStart, hostEnd)`, without the brackets of an IPv6 host */
  hostStart: number;
  hostEnd: number;
  /** what the host is: a name, four dotted decimal parts, or an IPv6 address as WHATWG writes it */
  kind: 'name' | 'ipv4' | 'ipv6';
  /**
   * WHATWG's dotted form of an IPv4 host written in another number form (`2130706433`, `0x7f.1`, `0177.0.0.1`): the
   * text is then not its own serialization, only its host differs; null when the host is written as WHATWG writes it
   */
  address: string | null;
  /** the port the text writes (never the scheme's default), or -1 */
  port: number;
}

// Characters kept as they are, by part (WHATWG URL §4.4's percent-encode sets, narrowed to RFC 3986 unreserved and
// sub-delims plus `:` `@` `/`): `%` is checked on its own; `'` is encoded in a special uri's query; `?` ends the path
const inPath = 1;
const inQuery = 2;
const inFragment = 4;
const kept = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) kept[c] = inPath | inQuery | inFragment;
for (let c = 0x41; c <= 0x5a; c++) kept[c] = inPath | inQuery | inFragment;
for (let c = 0x61; c <= 0x7a; c++) kept[c] = inPath | inQuery | inFragment;
for (const c of '-._~!$&()*+,;=:@/') kept[c.charCodeAt(0)] = inPath | inQuery | inFragment;
kept[0x27] = inPath | inFragment; // '
kept[0x3f] = inQuery | inFragment; // ?

/**
 * The parts of `raw` when it is an `http`, `https`, `ws` or `wss` uri that WHATWG URL serializes as exactly `raw`,
 * with no userinfo and a host that every reader takes the same way; null for anything else (the caller parses it).
 * Covered: a lower-case scheme, `//`; a host of lower-case letter, digit and `-` labels whose last label starts with a
 * letter, with no `xn--` in it (the IDNA mapping leaves it as it is and it cannot end in a number), or four decimal
 * parts 0–255 without a leading zero (or another number form of an IPv4 address, whose dotted form `address` gives:
 * the only way the text may differ from its serialization), or a bracketed IPv6 address in RFC 5952 form (WHATWG's:
 * lower-case pieces without leading zeros, the first longest run of two or more zero pieces written `::`, no dotted
 * tail); an optional port 1–65535 without a leading zero, not the scheme's default; then a path from `/` with no `.`
 * or `..` segment and no `%2e`, an optional query and fragment, each of characters WHATWG keeps, `%` only before two
 * hex digits. Each call returns its own record (one small object: the parser's `URL` it saves is far larger).
 */
export function readCanonicalNetworkUri(raw: string): Readonly<CanonicalParts> | null {
  const n = raw.length;
  // the scheme, lower-case, then `://` (every offset read is checked against the length: a read past the end is
  // NaN, which costs the optimized code its fast path)
  if (n < 8) return null;
  let at: number;
  let defaultPort: number;
  let scheme: CanonicalParts['scheme'];
  const c0 = raw.charCodeAt(0);
  if (c0 === 0x68 && raw.charCodeAt(1) === 0x74 && raw.charCodeAt(2) === 0x74 && raw.charCodeAt(3) === 0x70) {
    if (raw.charCodeAt(4) === 0x73) {
      scheme = 'https';
      at = 5;
      defaultPort = 443;
    } else {
      scheme = 'http';
      at = 4;
      defaultPort = 80;
    }
  } else if (c0 === 0x77 && raw.charCodeAt(1) === 0x73) {
    if (raw.charCodeAt(2) === 0x73) {
      scheme = 'wss';
      at = 3;
      defaultPort = 443;
    } else {
      scheme = 'ws';
      at = 2;
      defaultPort = 80;
    }
  } else return null;
  if (raw.charCodeAt(at) !== 0x3a || raw.charCodeAt(at + 1) !== 0x2f || raw.charCodeAt(at + 2) !== 0x2f) return null;
  let hostStart = at + 3;
  let hostEnd: number;
  const parts: CanonicalParts = { scheme, hostStart, hostEnd: 0, kind: 'name', address: null, port: -1 };
  let i: number;
  if (raw.charCodeAt(hostStart) === 0x5b) {
    hostStart++;
    hostEnd = ipv6End(raw, hostStart);
    if (hostEnd === -1) return null;
    parts.kind = 'ipv6';
    i = hostEnd + 1;
  } else {
    hostEnd = hostNameEnd(raw, hostStart, parts);
    if (hostEnd === -1) hostEnd = ipv4NumberEnd(raw, hostStart, parts);
    if (hostEnd === -1) return null;
    i = hostEnd;
  }

  // the port: digits without a leading zero, 1–65535, not the default (WHATWG drops a default port)
  let port = -1;
  let c = i < n ? raw.charCodeAt(i) : -1;
  if (c === 0x3a) {
    const first = ++i;
    port = 0;
    for (c = i < n ? raw.charCodeAt(i) : -1; c >= 0x30 && c <= 0x39; c = ++i < n ? raw.charCodeAt(i) : -1) {
      if (i === first && c === 0x30) return null;
      port = port * 10 + (c - 0x30);
      if (port > 65535) return null;
    }
    if (i === first || port === defaultPort) return null;
  }
  // WHATWG writes a `/` path for every special uri: the text must have it
  if (c !== 0x2f || !canonicalPath(raw, i)) return null;
  parts.hostStart = hostStart;
  parts.hostEnd = hostEnd;
  parts.port = port;
  return parts;
}

// The end of a host name or dotted IPv4 host starting at `start` (sets `parts.kind`), or -1 when it is not covered:
// labels of [a-z0-9-], one dot between two
function hostNameEnd(raw: string, start: number, parts: CanonicalParts): number {
  const n = raw.length;
  let labels = 0;
  let quadParts = 0;
  let labelStart = start;
  // the label's value as a decimal part 0–255 without a leading zero, -1 when it is not one
  let value = 0;
  let lastStartsWithLetter = false;
  let i = start;
  for (;;) {
    const c = i < n ? raw.charCodeAt(i) : -1;
    const letter = c >= 0x61 && c <= 0x7a;
    const digit = c >= 0x30 && c <= 0x39;
    if (letter || digit || c === 0x2d) {
      if (i === labelStart) {
        value = 0;
        lastStartsWithLetter = letter;
      }
      // `xn--` anywhere: a punycode label is checked by the IDNA step (and may be refused) and read again by others
      if (
        c === 0x2d &&
        raw.charCodeAt(i - 1) === 0x2d &&
        raw.charCodeAt(i - 2) === 0x6e &&
        raw.charCodeAt(i - 3) === 0x78
      )
        return -1;
      if (value >= 0) value = digit && !(i > labelStart && value === 0) ? value * 10 + (c - 0x30) : -1;
      if (value > 255) value = -1;
      i++;
      continue;
    }
    // an empty label (a leading, doubled or trailing dot) is not covered
    if (i === labelStart) return -1;
    labels++;
    if (value >= 0) quadParts++;
    if (c !== 0x2e) break;
    i++;
    labelStart = i;
  }
  if (labels === 4 && quadParts === 4) parts.kind = 'ipv4';
  else if (lastStartsWithLetter) parts.kind = 'name';
  else return -1;
  return i;
}

// The end of a host that WHATWG reads as an IPv4 address written in another number form, starting at `start` (sets
// `parts.kind` and `parts.address`), or -1: one to four parts of digits (octal after a leading `0`) or `0x` and hex
// digits, lower-case, no empty part, each but the last at most 255 and the last within what the others leave (URL
// Standard, IPv4 parser; anything it refuses, or reads as a name, is left to it)
function ipv4NumberEnd(raw: string, start: number, parts: CanonicalParts): number {
  const n = raw.length;
  let address = 0;
  let count = 0;
  let i = start;
  for (;;) {
    // one part: its radix from its prefix, then at least one digit of that radix (`0x` alone is 0 to WHATWG: left
    // to it, as is `0` followed by nothing, which is plain 0 and taken below)
    let radix = 10;
    if (i < n && raw.charCodeAt(i) === 0x30) {
      const next = i + 1 < n ? raw.charCodeAt(i + 1) : -1;
      if (next === 0x78) {
        radix = 16;
        i += 2;
      } else if (next >= 0x30 && next <= 0x39) {
        radix = 8;
        i += 1;
      }
    }
    const first = i;
    let value = 0;
    for (; i < n; i++) {
      const c = raw.charCodeAt(i);
      let digit = -1;
      if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
      if (digit === -1) break;
      if (digit >= radix) return -1;
      value = value * radix + digit;
      if (value > 0xffffffff) return -1;
    }
    if (i === first) return -1;
    count++;
    const c = i < n ? raw.charCodeAt(i) : -1;
    if (c === 0x2e) {
      // a part before the last is one byte, and at most four parts
      if (value > 255 || count === 4) return -1;
      address = address * 256 + value;
      i++;
      continue;
    }
    // the last part fills the bytes the others left
    const room = 256 ** (5 - count);
    if (value >= room) return -1;
    address = address * room + value;
    break;
  }
  parts.kind = 'ipv4';
  parts.address = `${Math.floor(address / 16777216)}.${Math.floor(address / 65536) % 256}.${Math.floor(address / 256) % 256}.${address % 256}`;
  return i;
}

// The offset of the `]` closing an IPv6 address that starts at `start` in WHATWG's own form, or -1: pieces of 1–4
// lower-case hex digits without a leading zero, eight of them or fewer around one `::` that stands for two or more
// zero pieces, is the first longest run of zero pieces, and has no zero piece beside it
function ipv6End(raw: string, start: number): number {
  const n = raw.length;
  let pieces = 0;
  // zero pieces, one bit each in the order written; `compressAt`: how many pieces come before the `::`
  let zeros = 0;
  let compressAt = -1;
  let i = start;
  if (i + 1 < n && raw.charCodeAt(i) === 0x3a && raw.charCodeAt(i + 1) === 0x3a) {
    compressAt = 0;
    i += 2;
    if (i < n && raw.charCodeAt(i) === 0x5d) return zeroRunsCanonical(zeros, 0, 0) ? i : -1;
  }
  for (;;) {
    const first = i;
    let value = 0;
    for (; i < n && i - first < 4; i++) {
      const c = raw.charCodeAt(i);
      const digit = c >= 0x30 && c <= 0x39;
      if (!digit && !(c >= 0x61 && c <= 0x66)) break;
      if (i > first && value === 0) return -1;
      value = value * 16 + (digit ? c - 0x30 : c - 0x57);
    }
    if (i === first || pieces === 8) return -1;
    if (value === 0) zeros |= 1 << pieces;
    pieces++;
    const c = i < n ? raw.charCodeAt(i) : -1;
    if (c === 0x5d) break;
    if (c !== 0x3a) return -1;
    i++;
    if (i < n && raw.charCodeAt(i) === 0x3a) {
      if (compressAt !== -1) return -1;
      compressAt = pieces;
      i++;
      if (i < n && raw.charCodeAt(i) === 0x5d) break;
    }
  }
  if (compressAt === -1) return pieces === 8 && zeroRunsCanonical(zeros, pieces, -1) ? i : -1;
  return pieces <= 6 && zeroRunsCanonical(zeros, pieces, compressAt) ? i : -1;
}

// Whether the `::` after `compressAt` written pieces (-1: none) is where WHATWG puts it, given which written pieces are
// zero: it stands for the first longest run of two or more zero pieces of the whole address
function zeroRunsCanonical(zeros: number, pieces: number, compressAt: number): boolean {
  const compressed = 8 - pieces;
  if (compressAt !== -1) {
    if (compressed < 2) return false;
    // a zero piece beside the `::` would belong to its run
    if (compressAt > 0 && ((zeros >> (compressAt - 1)) & 1) === 1) return false;
    if (compressAt < pieces && ((zeros >> compressAt) & 1) === 1) return false;
  }
  let run = 0;
  for (let k = 0; k <= pieces; k++) {
    if (k < pieces && ((zeros >> k) & 1) === 1) {
      run++;
      continue;
    }
    // a written run of zero pieces ends before piece k: WHATWG would compress it instead when there is no `::` (two or
    // more), or when it is at least as long as the `::` run and before it, or longer and after it
    if (run > 0 && (compressAt === -1 ? run >= 2 : k <= compressAt ? run >= compressed : run > compressed))
      return false;
    run = 0;
  }
  return true;
}

// The path, query and fragment from the `/` at `from` are as WHATWG writes them: no `.` or `..` segment (WHATWG removes
// them, `%2e` included), only characters it keeps, `%` only before two hex digits
function canonicalPath(raw: string, from: number): boolean {
  const n = raw.length;
  let segmentStart = from + 1;
  let dots = 0;
  let part = inPath;
  for (let i = from + 1; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (part === inPath) {
      if (c === 0x2f || c === 0x3f || c === 0x23) {
        if (dots > 0 && dots === i - segmentStart) return false;
        segmentStart = i + 1;
        dots = 0;
        if (c === 0x2f) continue;
        part = c === 0x3f ? inQuery : inFragment;
        continue;
      }
      if (c === 0x2e) {
        dots++;
        continue;
      }
    } else if (c === 0x23 && part === inQuery) {
      part = inFragment;
      continue;
    }
    if (c === 0x25) {
      // `%2e` in the path is a dot to WHATWG's segment rules
      if (i + 2 >= n || !isHex(raw.charCodeAt(i + 1)) || !isHex(raw.charCodeAt(i + 2))) return false;
      if (part === inPath && raw.charCodeAt(i + 1) === 0x32 && (raw.charCodeAt(i + 2) | 0x20) === 0x65) return false;
      i += 2;
      continue;
    }
    if (c >= 0x80 || ((kept[c] as number) & part) === 0) return false;
  }
  return part !== inPath || dots === 0 || dots !== n - segmentStart;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}
