/** What one pass over the text after `scheme:` finds about the authority, as each kind of reader sees it. */
export interface AuthorityScan {
  /** `//` follows the scheme */
  readonly slashes: boolean;
  /** the character after `//`, when it is `/` or `\` (`http:///x`) */
  readonly extraSlash: boolean;
  /** the authority (WHATWG's for special schemes, RFC 3986's otherwise) holds `@` */
  readonly userinfo: boolean;
  /** RFC 3986's authority (after `//`, up to `/`, `?`, `#`) holds a C0 control or DEL */
  readonly control: boolean;
  /** RFC 3986's authority holds `\` */
  readonly backslash: boolean;
  /** in the text up to the first `/`, a `?` or `#` comes before a `@` */
  readonly delimiterBeforeAt: boolean;
}

/** One pass over the text after `scheme:` (from offset `from`): the authority as WHATWG, RFC 3986 and naive readers take it. */
export function scanAuthority(raw: string, from: number, special: boolean): AuthorityScan {
  const slashes = raw.charCodeAt(from) === 0x2f && raw.charCodeAt(from + 1) === 0x2f;
  const next = raw.charCodeAt(from + 2);
  const extraSlash = slashes && (next === 0x2f || next === 0x5c);
  let userinfo = false;
  // WHATWG reads a special authority after any run of `/` and `\`, up to `/`, `\`, `?` or `#`; when it starts
  // right after `//` (the common case) the pass below reads it too, so only other shapes take this loop
  let whatwgOpen = special && slashes && !extraSlash;
  if (special && !whatwgOpen) {
    let i = from;
    while (raw.charCodeAt(i) === 0x2f || raw.charCodeAt(i) === 0x5c) i++;
    for (; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x2f || c === 0x5c || c === 0x3f || c === 0x23) break;
      if (c === 0x40) userinfo = true;
    }
  }
  let control = false;
  let backslash = false;
  let delimiter = -1;
  let at = -1;
  if (slashes) {
    // one pass over the authority as a naive reader takes it (up to the first `/`); RFC 3986's ends earlier,
    // at the first `?` or `#`
    for (let i = from + 2; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x2f) break;
      if (c === 0x3f || c === 0x23) {
        if (delimiter === -1) delimiter = i;
        whatwgOpen = false;
      } else if (c === 0x40) {
        at = i;
        if (whatwgOpen || (delimiter === -1 && !special)) userinfo = true;
      } else if (c === 0x5c) {
        whatwgOpen = false;
        if (delimiter === -1) backslash = true;
      } else if (delimiter === -1 && c === 0x7f) control = true;
    }
  }
  return { slashes, extraSlash, userinfo, control, backslash, delimiterBeforeAt: delimiter !== -1 && at > delimiter };
}

/** The parser-confusion forms a scan found, one lower-case phrase each, in a fixed order (shared empty list when none). */
export function findConfusions(scan: AuthorityScan, networkSpecial: boolean): readonly string[] {
  // no array on the common path: most uris have no confusion form
  let found: string[] | undefined;
  // `http:foo.com`, `http:/foo.com`, `http:\\foo.com`, `http:///foo.com`: WHATWG finds a host, RFC 3986 none
  if (networkSpecial && (!scan.slashes || scan.extraSlash))
    found = append(found, 'a special scheme not followed by exactly `//`');
  // DEL in the authority (C0 controls never get here): some readers stop at it
  if (scan.control) found = append(found, 'a control character in the authority');
  // `http://a\@b/`: WHATWG reads host `a`, RFC 3986 parsers and curl read `b`
  if (networkSpecial && scan.backslash) found = append(found, 'a backslash in the authority');
  // `https://a#@b/`: WHATWG reads host `a`, a reader that takes everything up to `/` as the authority reads `b`
  if (scan.delimiterBeforeAt) found = append(found, '`?` or `#` before `@` in the authority');
  return found ?? noConfusions;
}

function append(list: string[] | undefined, form: string): string[] {
  if (list === undefined) return [form];
  list.push(form);
  return list;
}

const noConfusions: readonly string[] = Object.freeze([]);
