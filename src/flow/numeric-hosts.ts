// A host written as numbers is an IPv4 address to a URL parser, to curl and to `inet_aton`: `http://2852039166/`,
// `0xA9FEA9FE/latest`, `0251.0376.0251.0376` all reach 169.254.169.254. Text beside a refused link is searched for the
// link's address as a reader would take it back (`readBack` in read-back.ts), so each such host in it is read as the
// WHATWG URL standard's IPv4 parser reads it and written dotted. Only where a host stands: after `//` or `@`, or on its
// own (nothing word-like and no `/` before it) right before a `/`. One pass over the text, linear in its length.

import { splicedSpans } from './spliced-spans.ts';

// digits, a-f, A-F, `x`, `X`, `.`: what a numeric host is written with
function hostChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x66) ||
    (c >= 0x41 && c <= 0x46) ||
    c === 0x78 ||
    c === 0x58 ||
    c === 0x2e
  );
}

// letters, digits, `_`, `.`, `-`: a character a host name goes on with
function wordChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2d
  );
}

const slash = 0x2f;
const at = 0x40;

/** The dotted IPv4 address the WHATWG URL parser reads `host` as, or null when it reads no IPv4 address there. */
export function dottedIpv4(host: string): string | null {
  return dottedAt(host, 0, host.length);
}

// `dottedIpv4` of `text[start, end)`
function dottedAt(text: string, start: number, to: number): string | null {
  // one trailing dot is allowed
  const end = to - start > 1 && text.charCodeAt(to - 1) === dot ? to - 1 : to;
  let a = 0;
  let b = 0;
  let c = 0;
  let count = 0;
  let last = 0;
  for (let from = start; from <= end; ) {
    // the part's end, looked for within the host only (an `indexOf` would search the rest of the text)
    let next = from;
    while (next < end && text.charCodeAt(next) !== dot) next += 1;
    const value = partValue(text, from, next);
    if (value === null || count === 4) return null;
    if (count === 0) a = value;
    else if (count === 1) b = value;
    else if (count === 2) c = value;
    last = value;
    count += 1;
    from = next + 1;
  }
  // every part but the last is one byte; the last fills the bytes left
  const leading = [a, b, c].slice(0, count - 1);
  if (leading.some((n) => n > 255) || last >= 256 ** (5 - count)) return null;
  let value = last;
  for (let i = 0; i < leading.length; i += 1) value += (leading[i] as number) * 256 ** (3 - i);
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

// one part `host[from, to)`: decimal, octal (a leading 0) or hex (0x); null when it is none, or past 2^32 (no address)
function partValue(host: string, from: number, to: number): number | null {
  if (from === to) return null;
  let radix = 10;
  let at = from;
  if (to - from >= 2 && host.charCodeAt(from) === 0x30) {
    const hex = (host.charCodeAt(from + 1) | 0x20) === 0x78;
    radix = hex ? 16 : 8;
    at = hex ? from + 2 : from + 1;
  }
  let value = 0;
  for (; at < to; at += 1) {
    const c = host.charCodeAt(at);
    const lower = c | 0x20;
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : radix;
    if (digit >= radix) return null;
    value = value * radix + digit;
    if (value > 0xffffffff) return null;
  }
  return value;
}

const dot = 0x2e;

/** The spans `[start, end)` of `text` where a numeric host stands that is not written dotted already, in order, each with its dotted form. */
function numericHostSpans(text: string, first = false): [number, number, string][] {
  const spans: [number, number, string][] = [];
  const take = (start: number, end: number) => {
    if (start >= end || (first && spans.length > 0)) return;
    const last = spans.at(-1);
    if (last !== undefined && start < last[1]) return;
    const dotted = dottedAt(text, start, end);
    if (dotted !== null && (dotted.length !== end - start || !text.startsWith(dotted, start)))
      spans.push([start, end, dotted]);
  };
  for (let i = 0; i < text.length && !(first && spans.length > 0); i += 1) {
    const c = text.charCodeAt(i);
    if (c !== slash && c !== at) continue;
    // on its own right before this `/` (after a `/` it is a path segment: `latest/12/x` keeps its `12`)
    if (c === slash) {
      let start = i;
      while (start > 0 && hostChar(text.charCodeAt(start - 1))) start -= 1;
      const before = text.charCodeAt(start - 1);
      if (start === 0 || (!wordChar(before) && before !== slash)) take(start, i);
    }
    // after `//` or `@`
    if (c === at || (i > 0 && text.charCodeAt(i - 1) === slash)) {
      let end = i + 1;
      while (end < text.length && hostChar(text.charCodeAt(end))) end += 1;
      if (end === text.length || !wordChar(text.charCodeAt(end))) take(i + 1, end);
    }
  }
  return spans;
}

/** Whether `text` holds a numeric host not written dotted (`dottedNumericHosts` would change it). */
export function holdsNumericHost(text: string): boolean {
  return (text.includes('/') || text.includes('@')) && numericHostSpans(text, true).length > 0;
}

/** `text` with every numeric host where a host stands written as the dotted IPv4 address a URL parser reads. */
export function dottedNumericHosts(text: string): string {
  return splicedSpans(text, numericHostSpans(text));
}
