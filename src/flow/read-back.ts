import { decodeHTML } from 'entities';
import { readIpv6Hosts, holdsIpv6Host } from './bracketed-hosts.ts';
import { dottedIpv4, dottedNumericHosts, holdsNumericHost } from './numeric-hosts.ts';
import { type EscapeStyle, escapeStyles, unescaped, withoutMarkup } from './text-escapes.ts';
import { holdsUrlNoise, withoutDotSegments, withoutPorts } from './url-noise.ts';

// How a reader takes an address back out of text that spells it another way: the one reading every front end's search
// for refused addresses uses (`AddressSearch`), and a notice's check that a link's name holds its own address; and the
// address itself as every one of them looks for it (`addressOf`, `holdsAddress`).

/**
 * `text` as a parser, a browser or a reader takes a uri in it back: the tabs and line breaks inside a uri's run deleted
 * (`joinedUriRuns`, as written and as character references decode them), NFKC-folded (fullwidth letters and digits), without
 * the code points IDNA maps to nothing and the other default-ignorable ones (a soft hyphen, U+200B, U+FEFF, variation
 * selectors: invisible to a reader, deleted from a host by the URL parser), IDNA's full stops (U+3002, U+FF0E, U+FF61)
 * as `.`, backslashes as `/`, HTML character references (`&#46;`, `&period;`: what markdown renderers and browsers show,
 * and a model reads) and percent-encoded bytes decoded (up to three rounds of both; a run that is UTF-8 as its
 * characters, as a host parser decodes it, and read back again), a numeric host and an IPv4-mapped IPv6 one as the
 * dotted IPv4 address they reach, any other bracketed IPv6 host as the WHATWG URL parser writes it, and what that
 * parser (and curl) drop from a url: an empty or default port (`:80`, `:443`, `:21`, leading zeros) and dot segments
 * (`/./`, `x/../`); JavaScript and JSON string escapes (`\x2f`, `\u002f`, `\u{2f}`, `\/`) decoded first, as a script or
 * JSON reader (and a model) reads them, and again where a round of references or percent encoding spells one
 * (`&#92;x2f`, `%5Cx2f`).
 */
export function readBack(text: string): string {
  return reading(text, 'script').back;
}

/**
 * `readBack`'s readings of `text`: as `readBack` reads it; and, for each other style of escapes it holds as written or
 * once character references or percent encoding are decoded (`text-escapes.ts`), as read with those decoded too: a
 * markdown backslash escape before ASCII punctuation dropped (`169\\.254`, `http\\://`: a CommonMark renderer shows
 * the character alone), C, shell and sloppy-JavaScript octal and Python's `\\U…`/`\\N{…}` (`\\057`), CSS hex escapes
 * (`\\2f `); and, when it holds markup, as a renderer shows it (`169.254<!-- x -->.169`, `<span></span>`: comments
 * and tags taken out). Each linear; no style's reading spoils another's (`\\10.0.0.7` is octal to C only).
 */
export function readBacks(text: string): string[] {
  const first = reading(text, 'script');
  const backs = [first.back];
  for (const style of first.styles) backs.push(reading(text, style).back);
  const shown = withoutMarkup(text);
  if (shown !== null) backs.push(reading(shown, 'script').back);
  return backs;
}

// `text` read back (`readBack`) with the escapes of `style` decoded (script escapes in every style); `styles`: the
// other styles whose escapes stood in it, as written or decoded. Escapes are decoded as written and again after each
// round of character references and percent encoding (`&#92;x2f`, `%5Cx2f`, `&bsol;u002f`: a reader decodes the
// reference, then the escape); a backslash is read as a slash only once all are decoded. At most three rounds, each
// one pass: linear.
function reading(text: string, style: EscapeStyle): { back: string; styles: Set<EscapeStyle> } {
  const styles = new Set(escapeStyles(text));
  let back = text.includes('\\') ? unescaped(text, style) : text;
  // a script escape may spell another (`\\x5c.`)
  if (back !== text) for (const more of escapeStyles(back)) styles.add(more);
  back = folded(joinedUriRuns(back) ?? back);
  let decoded = false;
  for (let round = 0; round < 3 && (back.includes('&') || percentByte.test(back)); round += 1) {
    let next = decodedOnce(back);
    if (next === back) break;
    if (next.includes('\\')) {
      for (const more of escapeStyles(next)) styles.add(more);
      next = unescaped(next, style);
    }
    back = next;
    decoded = true;
  }
  // a tab or line break a reference spells inside a uri's run (`lat&#10;est`, `169.254&Tab;.169`) is deleted by the
  // URL parser once an `href` is decoded, as one written there is
  if (decoded) back = folded(joinedUriRuns(back) ?? back);
  // a backslash is a slash to URL parsers (`http:\\\\host`)
  if (back.includes('\\')) back = back.replaceAll('\\', '/');
  styles.delete(style);
  return { back: withoutDotSegments(dottedNumericHosts(withoutPorts(readIpv6Hosts(back)))), styles };
}

// one round of HTML character references (parse5's own decoder, as browsers read text) and percent-encoded runs
function decodedOnce(text: string): string {
  const unescaped = text.includes('&') ? decodeHTML(text) : text;
  return percentByte.test(unescaped) ? unescaped.replace(percentRuns, decodedRun) : unescaped;
}

// NFKC, without what IDNA deletes and what a reader cannot see, with IDNA's full stops as URL parsers read them
function folded(text: string): string {
  return text
    .normalize('NFKC')
    .replace(unseenCodePoints(), '')
    .replace(/[\u3002\uff0e\uff61]/g, '.');
}

/**
 * Code points a text may hold inside an address that no reader sees and a host parser deletes: Unicode's
 * default-ignorable code points, which hold every one UTS #46 maps to nothing (U+00AD, U+034F, U+180B–U+180F, U+200B,
 * U+2060, U+2064, U+FE00–U+FE0F, U+FEFF, U+1BCA0–U+1BCA3, U+E0100–U+E01EF; checked against tr46 and the WHATWG URL
 * parser by the tests). Made at the first text read back, not when the module loads: building the property's set
 * takes about 0.5 ms, paid by every hook event that loads this module (docs/speed.md).
 */
let unseen: RegExp | undefined;
function unseenCodePoints(): RegExp {
  unseen ??= /\p{Default_Ignorable_Code_Point}/gu;
  return unseen;
}

// a run of percent-encoded bytes: its UTF-8 characters when it is UTF-8, else each byte as a character
function decodedRun(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run.replace(percentBytes, (hex: string) => String.fromCharCode(Number.parseInt(hex.slice(1), 16)));
  }
}

/**
 * Whether `readBacks` may change `text`: it holds a `%`, a `&`, a `<`, a backslash, a character outside ASCII, a number where
 * a host stands, a bracketed IPv6 host not written as the URL parser writes it, a port, a dot segment or a uri's run
 * broken by a tab or line break.
 */
export function mayReadBack(text: string): boolean {
  return (
    /[%&<\\\u0080-\uffff]/.test(text) ||
    holdsNumericHost(text) ||
    holdsIpv6Host(text) ||
    holdsUrlNoise(text) ||
    joinedUriRuns(text) !== null
  );
}

/**
 * `text` with the tabs, line feeds and carriage returns inside a uri's run deleted, as the URL parser deletes them
 * anywhere (`http://169.254.\n169.254/` is the metadata address to it); null when it has none. A run starts at a
 * scheme's `://` (or `:\\`, any mix) and goes over non-white characters, and over tab, LF and CR only where more of
 * them follow: ordinary words across lines are never joined, nor an address written without its scheme. Linear: one
 * regex pass for the runs' starts, each run read once.
 */
export function joinedUriRuns(text: string): string | null {
  if (!runStart.test(text)) return null;
  let out: string[] | null = null;
  let kept = 0;
  const starts = new RegExp(runStart.source, 'g');
  for (let found = starts.exec(text); found !== null; found = starts.exec(text)) {
    let i = found.index + 3;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (!isBreak(c)) {
        if (isWhite(c)) break;
        i += 1;
        continue;
      }
      let end = i;
      while (end < text.length && isBreak(text.charCodeAt(end))) end += 1;
      if (end === text.length || isWhite(text.charCodeAt(end))) break;
      out ??= [];
      out.push(text.slice(kept, i));
      kept = end;
      i = end;
    }
    // the next run starts past this one (a run holding many `://` is read once)
    starts.lastIndex = i;
  }
  if (out === null) return null;
  out.push(text.slice(kept));
  return out.join('');
}

// where a uri's run starts: a scheme's `:` and two slashes or backslashes
const runStart = /:[/\\]{2}/;
const isBreak = (c: number) => c === 0x09 || c === 0x0a || c === 0x0d;
// white space as `\s` reads it (a URL parser stops at it, or encodes it)
const isWhite = (c: number) =>
  c <= 0x20 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

const percentByte = /%[0-9A-Fa-f]{2}/;
const percentBytes = /%[0-9A-Fa-f]{2}/g;
const percentRuns = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Whether `text` holds the address of `uri` (a server may name a link by its own uri): the uri with no scheme, no
 * leading slashes, no userinfo and no trailing slash, compared without case. Also used for strings beside the link.
 */
export function holdsAddress(text: string, uri: string): boolean {
  const lower = text.toLowerCase();
  // as written, and with a numeric host as an IPv4 parser reads it
  return [rawAddressOf(uri), addressOf(uri)].some((address) => address.length >= 3 && lower.includes(address));
}

/**
 * The address `holdsAddress` looks for: `uri` with no scheme, leading slashes, userinfo or trailing slash, lowercase,
 * a host written as numbers (`2852039166`, `0xa9fea9fe`) as the dotted IPv4 a URL parser reads.
 */
export function addressOf(uri: string): string {
  const address = rawAddressOf(uri);
  const end = address.search(/[/\\?#:]/);
  const dotted = dottedIpv4(end === -1 ? address : address.slice(0, end));
  return dotted === null ? address : `${dotted}${end === -1 ? '' : address.slice(end)}`;
}

/** `addressOf` with the host as written. */
export function rawAddressOf(uri: string): string {
  let rest = uri
    .trim()
    .replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, '')
    .replace(/^[/\\]+/, '');
  const slash = rest.search(/[/\\]/);
  const at = (slash === -1 ? rest : rest.slice(0, slash)).lastIndexOf('@');
  if (at !== -1) rest = rest.slice(at + 1);
  // trailing slashes cut by a loop: `/[/\\]+$/` retries at every slash of a long run (quadratic in a server's uri)
  let end = rest.length;
  while (end > 0 && (rest.charCodeAt(end - 1) === slashCode || rest.charCodeAt(end - 1) === backslashCode)) end -= 1;
  return rest.slice(0, end).toLowerCase();
}

const slashCode = 0x2f;
const backslashCode = 0x5c;
