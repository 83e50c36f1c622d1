// What takes a browser page somewhere else by itself, with no click: a meta refresh to another origin, and a `base`
// whose url sends the page's relative urls (its stylesheets, images, links) to another origin. A page's own refresh
// (a reload, or a move to a relative path beside it) and a relative `base` stay on its origin. The url is resolved by
// the WHATWG URL parser against a stand-in page and its origin (scheme, host and port) compared with the page's: an
// absolute url, a scheme-relative `//host` and a backslash path a browser reads as one all leave.

// a page no real url can share an origin with (`.invalid` is reserved: RFC 2606)
const standInPage = 'http://page.invalid/dir/page.html';
const standInOrigin = new URL(standInPage).origin;

/** True when `url`, resolved against the page it is on, names another origin (or does not parse: it cannot be shown to stay). */
export function leavesPage(url: string): boolean {
  try {
    return new URL(url, standInPage).origin !== standInOrigin;
  } catch {
    return true;
  }
}

/** True when a meta refresh's `content` may take the page to another origin: a url that leaves it, or a value the standard's steps do not read (another browser may read it otherwise); a bare delay reloads the page itself. */
export function refreshLeavesPage(content: string): boolean {
  if (/^[\d.\t\n\f\r ;,]*$/.test(content)) return false;
  const url = refreshUrl(content);
  return url === null || leavesPage(url);
}

/** The url a meta refresh's `content` navigates to, as the HTML standard's shared declarative refresh steps read it; null when it only reloads the page, or when a browser ignores the value. */
export function refreshUrl(content: string): string | null {
  let at = skipWhitespace(content, 0);
  const digits = at;
  while (at < content.length && isDigit(content.charCodeAt(at))) at++;
  // a fraction after the seconds (`1.5`) is read and ignored; a value with neither is no refresh
  while (at < content.length && (isDigit(content.charCodeAt(at)) || content[at] === '.')) at++;
  if (at === digits && content[at] !== '.') return null;
  if (at >= content.length) return null;
  const next = content[at];
  if (next !== ';' && next !== ',' && !isWhitespace(content.charCodeAt(at))) return null;
  at = skipWhitespace(content, at);
  if (content[at] === ';' || content[at] === ',') at = skipWhitespace(content, at + 1);
  if (at >= content.length) return null;
  let start = at;
  // `url=` (any case, white space around `=`) is skipped; `url` not followed by `=` is the url itself
  if (/^url/i.test(content.slice(at, at + 3))) {
    const afterName = skipWhitespace(content, at + 3);
    if (content[afterName] === '=') start = skipWhitespace(content, afterName + 1);
  }
  const quote = content[start];
  if (quote === '"' || quote === "'") {
    const end = content.indexOf(quote, start + 1);
    return content.slice(start + 1, end === -1 ? content.length : end);
  }
  let end = content.length;
  while (end > start && isWhitespace(content.charCodeAt(end - 1))) end--;
  return content.slice(start, end);
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && isWhitespace(text.charCodeAt(at))) at++;
  return at;
}

// ASCII white space: tab, line feed, form feed, carriage return, space
function isWhitespace(code: number): boolean {
  return code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x20;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
