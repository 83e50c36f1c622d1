/** The host of a uri, canonical: IDNA ASCII and lower-case for names, dotted IPv4, RFC 5952 IPv6 without brackets. */
export interface UriHost {
  readonly kind: 'ipv4' | 'ipv6' | 'name';
  /** canonical text; a trailing dot on a name is kept (`example.com.` is another host) */
  readonly text: string;
}

/** No other hosts (shared, frozen). */
export const noHosts: readonly UriHost[] = Object.freeze([]);

/** Four dotted decimal parts (`/^\d+\.\d+\.\d+\.\d+$/`, one pass by char code): how WHATWG serializes every IPv4 host. */
export function isDottedQuad(text: string): boolean {
  let dots = 0;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === 0x2e && digits > 0 && dots < 3) {
      dots++;
      digits = 0;
    } else return false;
  }
  return dots === 3 && digits > 0;
}

/** The host a WHATWG host parser's ASCII output names (`[…]` IPv6, dotted IPv4, else a name). */
export function asciiHost(ascii: string): UriHost {
  if (ascii.startsWith('[')) return { kind: 'ipv6', text: ascii.slice(1, -1) };
  if (isDottedQuad(ascii)) return { kind: 'ipv4', text: ascii };
  return { kind: 'name', text: ascii };
}

/** `text` percent-decoded, or as it is when its escapes do not decode. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
