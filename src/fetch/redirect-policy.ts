/** Statuses the fetcher follows as redirects (Fetch standard "redirect status", minus 304 and 300). */
const redirectStatuses: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Header names that describe a request body; removed when a redirect drops the body (Fetch "request-body-header name"). */
export const requestBodyHeaders: ReadonlySet<string> = new Set([
  'content-type',
  'content-encoding',
  'content-language',
  'content-location',
]);

/** The next hop of a redirect, before any decision about it. */
export interface RedirectHop {
  /** the target as the gate should judge it: the raw `Location` when absolute, else resolved against the current url */
  target: string;
  /** the parsed target the fetcher would connect to */
  url: URL;
  method: string;
  /** false when the redirect turned the request into a bodiless GET */
  keepsBody: boolean;
}

/** What a response means for the chain: the final response, a redirect to follow, or a redirect that cannot be followed. */
export type RedirectStep =
  | { kind: 'final' }
  | { kind: 'redirect'; hop: RedirectHop }
  | { kind: 'invalid'; message: string };

/** True for the statuses that are followed as redirects. */
export function isRedirectStatus(status: number): boolean {
  return redirectStatuses.has(status);
}

/**
 * The next step after a response with `status` to `method current`; method and body follow the
 * Fetch standard: 301/302 turn POST into GET, 303 turns anything but GET/HEAD into GET, 307/308 keep both.
 */
export function nextRedirect(current: URL, status: number, method: string, location: string | undefined): RedirectStep {
  if (!isRedirectStatus(status)) return { kind: 'final' };
  if (location === undefined || location.trim() === '')
    return { kind: 'invalid', message: `redirect status \`${status}\` without a \`location\`` };
  const raw = decodeLocation(location).trim();
  let url: URL;
  try {
    url = new URL(raw, current);
  } catch {
    return { kind: 'invalid', message: 'redirect `location` does not parse as a url' };
  }
  const toGet =
    ((status === 301 || status === 302) && method === 'POST') ||
    (status === 303 && method !== 'GET' && method !== 'HEAD');
  return {
    kind: 'redirect',
    hop: { target: URL.canParse(raw) ? raw : url.href, url, method: toGet ? 'GET' : method, keepsBody: !toGet },
  };
}

/** True when the chain would go from `https` to `http` (a downgrade is refused whatever the link policy says). */
export function isDowngrade(current: URL, next: URL): boolean {
  return current.protocol === 'https:' && next.protocol === 'http:';
}

/**
 * Node hands header values over as latin1; servers send UTF-8 bytes in `Location` (browsers decode
 * them as UTF-8), so re-decode when the bytes are valid UTF-8 and keep latin1 otherwise.
 */
export function decodeLocation(value: string): string {
  if (!/[\x80-\xff]/.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
