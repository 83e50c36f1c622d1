// An IPv6 host in brackets is one address however it is written: `[0:0:0:0:0:FFFF:a9fe:A9FE]`,
// `[::ffff:169.254.169.254]` and `[::ffff:a9fe:a9fe]` are the same host to a URL parser, and an IPv4-mapped one
// (`::ffff:a.b.c.d`) reaches the IPv4 address itself through curl or a dual-stack socket. Text beside a refused link is
// searched for the link's address as a reader takes it back (`readBack` in read-back.ts), so each bracketed IPv6
// host in it is written as the WHATWG URL parser writes it, and an IPv4-mapped one as its dotted IPv4 address. One
// pass over the text: each `[` looks at most `maxInner` characters ahead.

import { splicedSpans } from './spliced-spans.ts';

// the longest text an IPv6 address is written in (eight pieces of four digits, or six and a dotted IPv4 tail)
const maxInner = 45;
const close = 0x5d;

// hex digits, `:` and `.`: what an IPv6 address is written with
function ipv6Char(c: number): boolean {
  const lower = c | 0x20;
  return (c >= 0x30 && c <= 0x3a) || (lower >= 0x61 && lower <= 0x66) || c === 0x2e;
}

const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/;

/**
 * The host `written` (brackets included) as a reader takes it: the WHATWG URL parser's serialization, or the dotted
 * IPv4 address of an IPv4-mapped one; null when the URL parser reads no IPv6 address there.
 */
export function readIpv6Host(written: string): string | null {
  const url = `http://${written}/`;
  if (!URL.canParse(url)) return null;
  const host = new URL(url).hostname;
  const pieces = mapped.exec(host);
  if (pieces === null) return host;
  const high = Number.parseInt(pieces[1] as string, 16);
  const low = Number.parseInt(pieces[2] as string, 16);
  return `${high >>> 8}.${high & 255}.${low >>> 8}.${low & 255}`;
}

// the spans `[start, end)` of `text` holding a bracketed IPv6 host a reader takes otherwise, each with how it is read
function bracketedSpans(text: string, first = false): [number, number, string][] {
  const spans: [number, number, string][] = [];
  for (let i = text.indexOf('['); i !== -1 && !(first && spans.length > 0); ) {
    let end = i + 1;
    while (end < text.length && end - i <= maxInner && ipv6Char(text.charCodeAt(end))) end += 1;
    if (end < text.length && text.charCodeAt(end) === close && end > i + 2) {
      const written = text.slice(i, end + 1);
      const read = readIpv6Host(written);
      if (read !== null && read !== written) spans.push([i, end + 1, read]);
    }
    i = text.indexOf('[', i + 1);
  }
  return spans;
}

/** Whether `text` holds a bracketed IPv6 host that `readIpv6Hosts` would write otherwise. */
export function holdsIpv6Host(text: string): boolean {
  return text.includes('[') && bracketedSpans(text, true).length > 0;
}

/** `text` with every bracketed IPv6 host written as `readIpv6Host` reads it. */
export function readIpv6Hosts(text: string): string {
  if (!text.includes('[')) return text;
  return splicedSpans(text, bracketedSpans(text));
}
