// A custom-scheme link, `guide://docs/packing/1`, read without the WHATWG parser: text in a narrow grammar that is
// provably its own WHATWG serialization says what the parser would (issue 42). Anything outside it takes the parser
// (`parseUri`); `test/link/canonical-opaque-uri.test.ts` checks every reading here against `URL`.

// what each ASCII character may be, by part: RFC 3986 unreserved in the host (WHATWG's opaque-host parser keeps them
// as they are, case included); in the path also sub-delims, `:`, `@` and `'`, which its path percent-encode set keeps
const inHost = 1;
const inPath = 2;
const allowed = new Uint8Array(128);
for (let c = 0x30; c <= 0x39; c++) allowed[c] = inHost | inPath;
for (let c = 0x41; c <= 0x5a; c++) allowed[c] = inHost | inPath;
for (let c = 0x61; c <= 0x7a; c++) allowed[c] = inHost | inPath;
for (const c of '-._~') allowed[c.charCodeAt(0)] = inHost | inPath;
for (const c of "!$&'()*+,;=:@") allowed[c.charCodeAt(0)] = inPath;

/**
 * The offset where the host ends in `raw` when it is a uri of a scheme WHATWG does not know (not http, https, ws, wss,
 * ftp, file, nor `data`, which masks differently) that WHATWG URL serializes as exactly `raw` with host
 * `raw.slice(raw.indexOf(':') + 3, end)`, pathname `raw.slice(end)`, and no userinfo, port, query or fragment; -1 for
 * anything else (the caller parses it). Covered: a lower-case scheme (a letter, then letters, digits, `+`, `-`, `.`),
 * `//`, a non-empty host of ASCII letters, digits, `-`, `.`, `_` and `~` (an opaque host, kept as written), then
 * nothing or a path from `/` of those and `!$&'()*+,;=:@/`, with no `.` or `..` segment and no `%` at all.
 */
export function readCanonicalOpaqueUri(raw: string): number {
  const n = raw.length;
  // the scheme, lower-case (WHATWG lowers it, so only such text is its own serialization)
  let colon = 0;
  for (; colon < n; colon++) {
    const c = raw.charCodeAt(colon);
    if (c >= 0x61 && c <= 0x7a) continue;
    if (colon > 0 && ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) continue;
    break;
  }
  if (colon === 0 || colon + 3 >= n || raw.charCodeAt(colon) !== 0x3a) return -1;
  if (raw.charCodeAt(colon + 1) !== 0x2f || raw.charCodeAt(colon + 2) !== 0x2f) return -1;
  if (specialOrData(raw, colon)) return -1;
  // the host: at least one character, up to the path or the end
  const hostStart = colon + 3;
  let i = hostStart;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 0x80 || ((allowed[c] as number) & inHost) === 0) break;
  }
  const hostEnd = i;
  if (hostEnd === hostStart) return -1;
  if (hostEnd === n) return hostEnd;
  if (raw.charCodeAt(hostEnd) !== 0x2f) return -1;
  // the path: segments of allowed characters, none of them `.` or `..` (WHATWG removes those)
  let segmentStart = hostEnd + 1;
  let dots = 0;
  for (i = segmentStart; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2f) {
      if (dots > 0 && dots === i - segmentStart) return -1;
      segmentStart = i + 1;
      dots = 0;
      continue;
    }
    if (c === 0x2e) dots++;
    else if (c >= 0x80 || ((allowed[c] as number) & inPath) === 0) return -1;
  }
  if (dots > 0 && dots === n - segmentStart) return -1;
  return hostEnd;
}

// a WHATWG special scheme (its own host and path rules) or `data` (masked by its payload): `raw` starts with the
// lower-case scheme ending at `colon`
function specialOrData(raw: string, colon: number): boolean {
  switch (colon) {
    case 2:
      return raw.startsWith('ws');
    case 3:
      return raw.startsWith('wss') || raw.startsWith('ftp');
    case 4:
      return raw.startsWith('http') || raw.startsWith('file') || raw.startsWith('data');
    case 5:
      return raw.startsWith('https');
    default:
      return false;
  }
}
