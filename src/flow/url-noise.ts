// What the WHATWG URL parser (and curl) drop from a url it reads, written in text: an empty or default port
// (`169.254.169.254:80/x`, `:0443`) and dot segments (`/./`, `x/../`). A text spelling an address so reaches it as
// surely as one spelling it plainly; `readBack` takes them out so the address search finds the address. Linear in the
// text: ports by one regex pass, dot segments by one pass over each whitespace-delimited token that holds one.

/** Ports a url's scheme may omit (http and ws 80, https and wss 443, ftp 21); which scheme stands before is not read. */
const defaultPorts: ReadonlySet<string> = new Set(['80', '443', '21']);

// a port after a host (a letter, digit, `.`, `-`, `_` or `]` before its colon): digits ending where a port ends, or
// none before a path, query or fragment (never a scheme's `://`)
const port = /(?<=[\w\].-]):(?:(?=[/?#])(?!\/\/)|(\d+)(?=[/?#\s]|$))/g;
// a `.` or `..` segment after a slash
const dotSegment = /\/\.\.?(?=[/?#\s]|$)/g;

/** Whether `withoutPorts` or `withoutDotSegments` may change `text`: it holds a port after a host, or a dot segment. */
export function holdsUrlNoise(text: string): boolean {
  port.lastIndex = 0;
  dotSegment.lastIndex = 0;
  return port.test(text) || dotSegment.test(text);
}

/** `text` with each empty or default port taken out, and leading zeros of the others, as the WHATWG URL parser does. */
export function withoutPorts(text: string): string {
  return text.replace(port, portAsRead);
}

// a port as the parser writes it: none when empty (before a path, query or fragment) or the default, else without
// leading zeros
function portAsRead(_: string, digits: string | undefined): string {
  const value = (digits ?? '').replace(/^0+(?=\d)/, '');
  return value === '' || defaultPorts.has(value) ? '' : `:${value}`;
}

/**
 * `text` with each token (a run without white space) holding a dot segment with its path's dot segments removed as the
 * WHATWG URL parser removes them; every token is rewritten at most once, so the pass stays linear however many
 * segments a token holds.
 */
export function withoutDotSegments(text: string): string {
  dotSegment.lastIndex = 0;
  const parts: string[] = [];
  let done = 0;
  for (let m = dotSegment.exec(text); m !== null; m = dotSegment.exec(text)) {
    if (m.index < done) continue;
    let start = m.index;
    while (start > done && !isSpace(text.charCodeAt(start - 1))) start -= 1;
    let end = m.index + m[0].length;
    while (end < text.length && !isSpace(text.charCodeAt(end))) end += 1;
    parts.push(text.slice(done, start), pathWithoutDots(text.slice(start, end)));
    done = end;
    dotSegment.lastIndex = end;
  }
  if (done === 0) return text;
  parts.push(text.slice(done));
  return parts.join('');
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x2028 || code === 0x2029;
}

// one token with the dot segments of its path removed (up to its first `?` or `#`): `..` removes the segment before
// it, never a host (the first segment, or the one after a scheme's or a scheme-relative `//`)
function pathWithoutDots(token: string): string {
  const cut = token.search(/[?#]/);
  const path = cut === -1 ? token : token.slice(0, cut);
  const out: string[] = [];
  // segments before `floor` are a host and what precedes it
  let floor = 0;
  const segments = path.split('/');
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (i > 0 && (segment === '.' || segment === '..')) {
      if (segment === '..' && out.length > floor) out.pop();
      if (last) out.push('');
      return;
    }
    out.push(segment);
    const k = out.length - 1;
    if (
      segment !== '' &&
      (k === 0 || (out[k - 1] === '' && (k === 1 || (out[k - 2] ?? '').endsWith(':') || (k === 2 && out[0] === ''))))
    )
      floor = out.length;
  });
  return out.join('/') + (cut === -1 ? '' : token.slice(cut));
}
