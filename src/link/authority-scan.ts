// What one pass over the text after `scheme:` finds about the authority, as each kind of reader sees it: bit flags in
// one number, so the per-link scan allocates nothing.

/** `//` follows the scheme. */
export const scanSlashes = 1;
/** The character after `//` is `/` or `\` (`http:///x`). */
export const scanExtraSlash = 2;
/** The authority (WHATWG's for special schemes, RFC 3986's otherwise) holds `@`. */
export const scanUserinfo = 4;
/** RFC 3986's authority (after `//`, up to `/`, `?`, `#`) holds DEL (a C0 control ends the scan: `scanC0Control`). */
export const scanControl = 8;
/** RFC 3986's authority holds `\`. */
export const scanBackslash = 16;
/** In the text up to the first `/`, a `?` or `#` comes before a `@`. */
export const scanDelimiterBeforeAt = 32;

/** The pass stopped at a raw C0 control (U+0000–U+001F), at `scanStop(scan)`. */
export const scanC0Control = 64;

/** The text from `//` up to the first `/` holds a `:` (a port, an IPv6 literal, or a `:` of the userinfo). */
export const scanColon = 128;

// the offset where the pass stopped is kept above the flags (`maxUriChars` keeps it within 17 bits)
const stopUnit = 256;

/** Where a scan's pass stopped: the raw C0 control it met (`scanC0Control`), else the end of the authority it read. */
export function scanStop(scan: number): number {
  return scan >>> 8;
}

// what each ASCII character is to the authority pass (0: an ordinary one)
const slash = 1;
const control = 2;
const delimiterChar = 3;
const atSign = 4;
const backslash = 5;
const del = 6;
const colon = 7;
const authorityChars = new Uint8Array(0x80);
authorityChars.fill(control, 0, 0x20);
authorityChars[0x2f] = slash;
authorityChars[0x3f] = delimiterChar;
authorityChars[0x23] = delimiterChar;
authorityChars[0x40] = atSign;
authorityChars[0x5c] = backslash;
authorityChars[0x7f] = del;
authorityChars[0x3a] = colon;

/**
 * One pass over the text after `scheme:` (from offset `from`): the authority as WHATWG, RFC 3986 and naive readers
 * take it, as `scan*` flags, and where the pass stopped (`scanStop`): at the first raw C0 control in the authority
 * (`scanC0Control`; such a uri is refused whatever else it holds), else at its end, where `firstC0Control` goes on.
 */
export function scanAuthority(raw: string, from: number, special: boolean): number {
  const slashes = raw.charCodeAt(from) === 0x2f && raw.charCodeAt(from + 1) === 0x2f;
  const next = raw.charCodeAt(from + 2);
  const extraSlash = slashes && (next === 0x2f || next === 0x5c);
  let flags = (slashes ? scanSlashes : 0) | (extraSlash ? scanExtraSlash : 0);
  // WHATWG reads a special authority after any run of `/` and `\`, up to `/`, `\`, `?` or `#`; when it starts
  // right after `//` (the common case) the pass below reads it too, so only other shapes take this loop
  let whatwgOpen = special && slashes && !extraSlash;
  if (special && !whatwgOpen) {
    let i = from;
    while (raw.charCodeAt(i) === 0x2f || raw.charCodeAt(i) === 0x5c) i++;
    for (; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) break;
      if (c === 0x40) flags |= scanUserinfo;
    }
  }
  let i = from;
  if (slashes) {
    let delimiter = -1;
    let at = -1;
    // one pass over the authority as a naive reader takes it (up to the first `/`); RFC 3986's ends earlier, at the
    // first `?` or `#`
    for (i = from + 2; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      // most characters of an authority are none of these: one table load decides
      const kind = c < 0x80 ? authorityChars[c] : 0;
      if (kind === 0) continue;
      if (kind === slash) break;
      if (kind === control) return flags | scanC0Control | (i * stopUnit);
      if (kind === delimiterChar) {
        if (delimiter === -1) delimiter = i;
        whatwgOpen = false;
      } else if (kind === atSign) {
        at = i;
        if (whatwgOpen || (delimiter === -1 && !special)) flags |= scanUserinfo;
      } else if (kind === backslash) {
        whatwgOpen = false;
        if (delimiter === -1) flags |= scanBackslash;
      } else if (kind === colon) flags |= scanColon;
      else if (delimiter === -1) flags |= scanControl;
    }
    if (delimiter !== -1 && at > delimiter) flags |= scanDelimiterBeforeAt;
  }
  return flags | (i * stopUnit);
}

/** The offset of the first raw C0 control (U+0000–U+001F) at or after `from`, -1 when none. */
export function firstC0Control(raw: string, from: number): number {
  // a loop by char code costs less than a pattern at link length
  for (let i = from; i < raw.length; i++) if (raw.charCodeAt(i) < 0x20) return i;
  return -1;
}

/** The parser-confusion forms a scan's flags name, one lower-case phrase each, in a fixed order (shared empty list when none). */
export function findConfusions(flags: number, networkSpecial: boolean): readonly string[] {
  // the common path: no confusion form at all
  const wrongSlashes = networkSpecial && ((flags & scanSlashes) === 0 || (flags & scanExtraSlash) !== 0);
  if (!wrongSlashes && (flags & (scanControl | scanBackslash | scanDelimiterBeforeAt)) === 0) return noConfusions;
  const found: string[] = [];
  // `http:foo.com`, `http:/foo.com`, `http:\\foo.com`, `http:///foo.com`: WHATWG finds a host, RFC 3986 none
  if (wrongSlashes) found.push('a special scheme not followed by exactly `//`');
  // DEL in the authority (C0 controls never get here): some readers stop at it
  if ((flags & scanControl) !== 0) found.push('a control character in the authority');
  // `http://a\@b/`: WHATWG reads host `a`, RFC 3986 parsers and curl read `b`
  if (networkSpecial && (flags & scanBackslash) !== 0) found.push('a backslash in the authority');
  // `https://a#@b/`: WHATWG reads host `a`, a reader that takes everything up to `/` as the authority reads `b`
  if ((flags & scanDelimiterBeforeAt) !== 0) found.push('`?` or `#` before `@` in the authority');
  return found.length === 0 ? noConfusions : found;
}

const noConfusions: readonly string[] = Object.freeze([]);
